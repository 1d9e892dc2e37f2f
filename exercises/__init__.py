"""The exercises graded besides fillit, one package each (harness/grading/exercise.py is the seam:
an `EXERCISE` object per package, registered as an entry point in pyproject.toml)."""
