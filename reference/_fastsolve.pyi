"""Types of the compiled core (reference/_fastsolve.c, whose header documents it)."""
from collections.abc import Sequence
from typing import Literal

Cells = Sequence[tuple[int, int]]
Weights = tuple[Sequence[int], Sequence[int], int]

def solve_at_side(types: Sequence[Cells], piece_types: Sequence[int], side: int, budget: int = 0,
                  weights: Weights | None = None, /) -> tuple[tuple[int, int], ...] | None | Literal[False]: ...
def packable(types: Sequence[Cells], counts: Sequence[int], side: int, occupied: Sequence[int],
             budget: int = 0, weights: Weights | None = None, /) -> bool | None: ...
def last_stats() -> dict[str, int]: ...

class Packer:
    """One side's order-free search, its memo of failed states kept between questions."""
    def __init__(self, types: Sequence[Cells], side: int, weights: Weights | None = None, /) -> None: ...
    def packable(self, counts: Sequence[int], occupied: Sequence[int], budget: int = 0, /) -> bool | None: ...
