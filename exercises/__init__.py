"""The exercises graded besides fillit, one package each (harness/exercise.py is the seam:
an `EXERCISE` object per package, registered as an entry point in pyproject.toml)."""
