"""Types of the plain search's try counter (reference/_plaincount.c, whose header documents it)."""
from collections.abc import Sequence
from typing import Literal

Cells = Sequence[tuple[int, int]]

def plain_tries(pieces: Sequence[Cells], budget: int, /) -> int | None | Literal[False]: ...
