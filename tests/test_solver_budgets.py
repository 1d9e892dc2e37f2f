"""Where the helpers stop on the questions that cost the restricted files most
(docs/BENCHMARKS.md, "Twenty-second pass"): the next piece's corner asked of a run of one
(`runs.RUN_OF_ONE_NEXT_MAX`), the DP's direction not preferred
(`profile_side.OTHER_DIRECTION_SHARE`), the piece's whole question after the DP gave
up (`profile_side.DP_RETRY_PIECES`) and the DP's turns at a side's own question
(`staged.SIDE_DP_MAX`, "Twenty-third pass" and "Twenty-sixth pass").

rrhooambamhaoamhhmammaha at side 10 (24 pieces in 100 cells): its first Z_horizontal at
corner 0, the second's corners 2-23 have no completion, each refuted by a scan of its own
(docs/BENCHMARKS.md, "Twenty-second pass").
"""
from __future__ import annotations

import inspect

import pytest

from generators.hard import decode
from solver_knobs import along_the_window
from test_solver_witness import few_shape_files_match_plain
from reference import profile_side, runs, side_questions, staged
from reference.solver import available_engines

pytestmark = pytest.mark.skipif("c" not in available_engines(), reason="the C core is not built")
_profile = pytest.importorskip("reference._profile")

SIDE = 10


def second_z() -> tuple[side_questions.Side, int, list[int], frozenset[int], list[int]]:
    """rrhoo...'s side with its first piece (Z_horizontal, type 0) at corner 0: the board,
    the type, the pieces left (the second Z among them), the occupied cells, min_corner."""
    pieces = decode("rrhooambamhaoamhhmammaha")
    types = list(dict.fromkeys(pieces))
    counts = [pieces.count(t) for t in types]
    board = along_the_window(side_questions.Side(types, counts, SIDE, None))
    cells = board.placement(0, 0)
    assert cells is not None
    board.place(0, 0)
    counts[0] -= 1
    min_corner = [0] * len(types)
    min_corner[0] = 1
    return board, 0, counts, cells, min_corner


def corner_question(board: side_questions.Side, t: int, counts: list[int], occupied: frozenset[int],
                    min_corner: list[int], corner: int) -> tuple[list[int], frozenset[int], list[int]]:
    """The question of the next type-t piece at `corner`: the rest, the cells taken, min_corner."""
    cells = board.placement(t, corner)
    assert cells is not None and occupied.isdisjoint(cells)
    rest = list(counts)
    rest[t] -= 1
    after = list(min_corner)
    after[t] = corner + 1
    return rest, occupied | cells, after


def test_the_orientation_not_preferred_gets_a_share_of_a_budget_below_the_race(monkeypatch: pytest.MonkeyPatch):
    """The second Z's corner 2 outgrows 10 000 states in both orientations it is scanned in
    (the preferred one and the other direction of its square): the one not preferred is
    scanned to OTHER_DIRECTION_SHARE of that; from twice DP_LAYER_BUDGET on, both race at
    half the budget."""
    advanced: list[tuple[int, int]] = []
    original = profile_side.DpQuestion.scan

    class Recorded:
        def __init__(self, scan: _profile.Scan, orientation: int) -> None:
            self.scan, self.orientation = scan, orientation

        def advance(self, budget: int, room: _profile.Room | None = None) -> int | None | bool:
            advanced.append((self.orientation, budget))
            return self.scan.advance(budget, room)

    def recorded(question: profile_side.DpQuestion, orientation: int) -> Recorded:
        return Recorded(original(question, orientation), orientation)

    monkeypatch.setattr(profile_side.DpQuestion, "scan", recorded)
    board, t, counts, occupied, min_corner = second_z()
    rest, taken, after = corner_question(board, t, counts, occupied, min_corner, 2)
    preferred = board.preferred
    assert board.first_corner(rest, taken, after, -1, 10_000) is False
    other = preferred ^ 1
    assert advanced == [(preferred, 10_000), (other, 10_000 // profile_side.OTHER_DIRECTION_SHARE)]
    advanced.clear()
    budget = 2 * profile_side.DP_LAYER_BUDGET
    board.first_corner(rest, taken, after, -1, budget)
    assert advanced[:2] == [(preferred, budget // 2), (other, budget // 2)]


def test_a_piece_is_not_asked_whole_again_until_more_pieces_are_placed():
    """A piece's whole question that outgrew the DP's budget leaves the next pieces to their
    corners, one by one, until DP_RETRY_PIECES more pieces are placed."""
    board, t, counts, occupied, min_corner = second_z()
    assert board.smallest_corner_by_dp(t, counts, occupied, min_corner, 0) is False
    gave_up_at = len(board.placed)
    while len(board.placed) < gave_up_at + profile_side.DP_RETRY_PIECES:
        board.work = -1
        assert board.smallest_corner_by_dp(t, counts, occupied, min_corner, 0) is False
        assert board.work == -1, "not asked"
        board.placed.append((t, 99))  # (the count alone matters here)
    board.smallest_corner_by_dp(t, counts, occupied, min_corner, 0)
    assert board.work > 0, "asked again"


def test_a_run_of_one_asks_the_next_pieces_corner_up_to_its_cap(monkeypatch: pytest.MonkeyPatch):
    """Every run of one is asked with "dp-next" stopping at RUN_OF_ONE_NEXT_MAX states, the
    longer runs with RUN_STAGES as they are; the answers stay plain's."""
    caps: dict[bool, set[float]] = {True: set(), False: set()}
    original = runs.balanced

    def recording(helpers, ask, distrust=None, packable=bool):  # type: ignore[no-untyped-def]
        run = inspect.currentframe().f_back.f_locals["run"]  # type: ignore[union-attr]
        caps[run == 1].add(dict((name, cap) for name, _, cap in helpers)["dp-next"])
        return original(helpers, ask, distrust, packable)

    monkeypatch.setattr(runs, "balanced", recording)
    few_shape_files_match_plain({"FIRST_C_BUDGET": 1, "SIDE_FIRST": (), "RUN_BEAM": 0}, monkeypatch)
    assert caps == {True: {runs.RUN_OF_ONE_NEXT_MAX}, False: {dict((n, c) for n, _, c in runs.RUN_STAGES)["dp-next"]}}


def test_the_sides_own_question_gives_the_dp_the_states_that_prove_a_side_has_no_packing():
    """fdakkokfffkkffkfgafokof's side 10 has no packing: the DP's scan outgrows SIDE_FIRST's
    cap and proves it within SIDE_DP_MAX (where CaDiCaL took 14.6 s; docs/BENCHMARKS.md,
    "Twenty-third pass"), which the side's own question gives it after the runs.  (Its
    scans start along the window direction, as they did then; where the probe starts them,
    SIDE_FIRST's cap is enough: "Twenty-ninth pass".)"""
    pieces = decode("fdakkokfffkkffkfgafokof")
    types = list(dict.fromkeys(pieces))
    counts = [pieces.count(t) for t in types]
    board = along_the_window(side_questions.Side(types, counts, SIDE, None))
    assert board.packable_within(counts, frozenset(), staged.SIDE_FIRST) is None
    assert staged.SIDE_DP_LAST == (("dp", staged.SIDE_DP_MAX, staged.SIDE_DP_MAX),)
    assert board.packable_within(counts, frozenset(), staged.SIDE_DP_LAST) is False
