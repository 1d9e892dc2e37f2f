"""The staged solver's knobs, each set where it is defined: `reference.staged`,
`reference.runs`, `reference.corners`, `reference.side_questions` or
`reference.profile_side` (a name set on another module would change nothing); and a side's
scans started where they started before the probe."""
from __future__ import annotations

from types import ModuleType

import pytest

from reference import _profile, corners, profile_side, runs, side_questions, staged


def module_of(knob: str) -> ModuleType:
    """The module that defines `knob`."""
    return next(module for module in (staged, runs, corners, side_questions, profile_side) if hasattr(module, knob))


def set_knobs(monkeypatch: pytest.MonkeyPatch, knobs: dict[str, object]) -> None:
    """Each knob set, for the rest of the test."""
    for name, value in knobs.items():
        monkeypatch.setattr(module_of(name), name, value)


def along_the_window(board: profile_side.ProfileSide) -> profile_side.ProfileSide:
    """`board` with its scans started along the square's window direction
    (`_profile.window_direction`), as they were before the probe chose the orientation
    (`ProfileSide._probe`): for the tests built on the scans that take."""
    board.preferred = _profile.window_direction(board.cells, board.side)
    return board
