"""Types of the profile DP (reference/_profile.c, whose header documents it)."""
from collections.abc import Sequence
from typing import Literal

Cells = Sequence[tuple[int, int]]
Weights = tuple[Sequence[int], Sequence[int], int]

ROOM_MEMO_MAX: int  # the most values a Room's memo holds (its default limit)
ARCHIVE_MAX: int  # the most states a Scan keeps to trace its packing back (its default `keep`)

class Room:
    def __init__(self, types: Sequence[Cells], counts: Sequence[int], side: int, orientation: int = -1, /) -> None: ...
    @property
    def entries(self) -> int: ...
    @property
    def cuts(self) -> int: ...
    @property
    def full(self) -> bool: ...
    limit: int

class Lines:
    def __init__(self) -> None: ...

class Scan:
    def __init__(self, types: Sequence[Cells], counts: Sequence[int], side: int, occupied: Sequence[int],
                 min_corner: Sequence[int], target: int, weights: Weights | None = None,
                 lines: Lines | None = None, orientation: int = -1, last_corner: int = -1, keep: int = ..., /
                 ) -> None: ...
    def advance(self, budget: int, room: Room | None = None, /) -> int | None | Literal[False]: ...
    @property
    def work(self) -> int: ...
    @property
    def cell(self) -> int: ...
    @property
    def packing(self) -> tuple[tuple[int, int], ...] | None: ...

def beam(types: Sequence[Cells], counts: Sequence[int], side: int, occupied: Sequence[int],
         min_corner: Sequence[int], width: int, weights: Weights | None = None, lines: Lines | None = None,
         orientation: int = -1, /) -> tuple[tuple[tuple[int, int], ...] | None, int]: ...
def first_corner(types: Sequence[Cells], counts: Sequence[int], side: int, occupied: Sequence[int],
                 min_corner: Sequence[int], target: int, budget: int,
                 weights: Weights | None = None, room: Room | None = None,
                 lines: Lines | None = None, orientation: int = -1, last_corner: int = -1, /
                 ) -> int | None | Literal[False]: ...
def line_counts(types: Sequence[Cells], counts: Sequence[int], side: int, occupied: Sequence[int],
                vertical: bool, lines: Lines | None = None, /) -> bool: ...
def window_direction(types: Sequence[Cells], side: int, /) -> int: ...
