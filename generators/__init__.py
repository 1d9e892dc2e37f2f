"""Input files for fillit: valid, invalid and hard, reproducible from a seed."""
