"""The front-ends: the `grade`, `grade batch`, `fillit-gen` and `fillit-ref` commands and the
pytest plugin, above everything else (docs/ARCHITECTURE.md)."""
