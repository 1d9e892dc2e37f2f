"""The grading harness: the jail and runner, suites, checker, grading, repository checks and front-ends."""
