"""Grading: cases run in the jail become verdicts (checker), reports of a run (model) and a
score (scoring); suites, the selection of cases, the second looks at failures."""
