"""Cohort grading (`grade batch`): discovery, archives, tasks, workers (local or Dask), the
SQLite store and the parent that writes it."""
