"""The grading harness: sandboxed runner, suites, checker, grading and CLI."""
