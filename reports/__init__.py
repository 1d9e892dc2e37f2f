"""Turn a grading run (harness.model.GradeReport) into HTML, JSON, JUnit XML and terminal output."""
