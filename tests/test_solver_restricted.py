"""Files drawn from a few shapes: the staged side search (LP certificate, profile DP,
CP-SAT) stays exact.

`reference.solver` settles a side with the C core alone while it is quick, and asks the
packing LP's dual certificate, the profile DP and CP-SAT otherwise.  Here every side is
forced through those helpers (one-node C budgets), each path on its own: the DP deciding
the side and every piece's smallest corner (with runs of the plain search's first moves
or without), or the DP out of the way and CaDiCaL (one incremental instance) or CP-SAT
answering every question, on restricted-shape files small enough for the plain seed
backtracking, whose first solution is the answer by definition; on larger files the DP's
two paths check each other.  The certificate is also checked against
packings that exist, where it must never claim the contrary.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generators.hard import RESTRICTED_FILES, SKEW_AND_O_26, decode
from test_solver_beam import check_packing
from reference import _profile, corners, oracle, profile_side, runs, sat_side, side_questions, solver, staged
from reference.lp_bound import certificate, lp_certificate
from reference.plain import min_side, solve_plain
from reference.portfolio import SECONDS_PER_UNIT
from reference.shapes import SHAPE_BY_NAME, SHAPES, Shape
from reference.solver import Solution, available_engines, solve
from solver_knobs import along_the_window, module_of

pytestmark = pytest.mark.skipif("c" not in available_engines(), reason="the C core is not built")

SKEW = [SHAPE_BY_NAME[n] for n in ("S_horizontal", "S_vertical", "Z_horizontal", "Z_vertical")]
# Every side and every ordered query goes to CP-SAT (after one-node C searches; the DP gives
# up at its first layer of more than one state).
FORCED = {"FIRST_C_BUDGET": 1, "FIRST_CORNER_BEAM": 0, "ORDERED_C_BUDGET": 1,
          "DP_LAYER_BUDGET": 1, "USE_SAT": False,
          "RUN_BEAM": 0, "RUN_STAGES": (("c", 1, 1), ("dp-next", 1, 1), ("dp", 1, 1)),
          "SIDE_STAGES": (("cp-sat", 20.0, 20.0), ("c", 0, 0)),
          "QUERY_STAGES": (("cp-sat", 20.0, 20.0), ("c", 0, 0))}
# The profile DP, without a budget, decides every side and every piece's smallest corner.
FORCED_DP = {"FIRST_C_BUDGET": 1, "FIRST_CORNER_BEAM": 0, "ORDERED_C_BUDGET": 1,
             "DP_LAYER_BUDGET": 0,
             "RUN_BEAM": 0, "RUN_STAGES": (("dp-next", 0, 0),)}
# The DP out of the way: the incremental SAT solver decides every side and every corner.
FORCED_SAT = {"FIRST_C_BUDGET": 1, "FIRST_CORNER_BEAM": 0, "ORDERED_C_BUDGET": 1,
              "DP_LAYER_BUDGET": 1,
              "RUN_BEAM": 0, "RUN_STAGES": (("dp-next", 1, 1),),
              "USE_SAT": True, "SIDE_STAGES": (("sat", 0, 0),), "CORNER_STAGES": (("sat", 0, 0),)}


def restricted_pieces(max_size: int) -> st.SearchStrategy[list[Shape]]:
    """1..max_size pieces drawn from 1-4 shapes (half of the time from S/Z only)."""
    def draw(seed: int) -> list[Shape]:
        rng = random.Random(seed)
        pool = SKEW if rng.random() < 0.5 else list(SHAPES)
        subset = rng.sample(pool, rng.randint(1, 4))
        return [rng.choice(subset) for _ in range(rng.randint(1, max_size))]

    return st.integers(0, 2**32).map(draw)


def random_packing(side: int, rng: random.Random, shapes: list[Shape], tries: int = 400) -> list[Shape]:
    """The pieces of a random (not necessarily dense) packing in the side x side square."""
    taken: set[tuple[int, int]] = set()
    pieces = []
    for _ in range(tries):
        shape = rng.choice(shapes)
        row, col = rng.randrange(side - shape.height + 1), rng.randrange(side - shape.width + 1)
        cells = {(row + r, col + c) for r, c in shape.cells}
        if not cells & taken:
            taken |= cells
            pieces.append(shape)
    return pieces


@settings(max_examples=30, deadline=None)
@given(pieces=restricted_pieces(6))
def test_forced_helpers_match_plain(pieces):
    assert solve_forced(pieces) == Solution(*solve_plain(pieces))


@settings(max_examples=40, deadline=None)
@given(pieces=restricted_pieces(6), plain_moves=st.booleans(), window=st.sampled_from((1, 2, 4)))
def test_forced_profile_dp_matches_plain(pieces, plain_moves, window):
    """With runs of the plain search's first moves settled by one DP question each, or
    every piece asked of the DP on its own, a window of corners at a time along the rows."""
    overrides = {**FORCED_DP, "PLAIN_MOVES": plain_moves, "CORNER_WINDOW": window}
    assert solve_forced(pieces, overrides) == Solution(*solve_plain(pieces))


@settings(max_examples=30, deadline=None)
@given(pieces=restricted_pieces(6))
def test_forced_sat_matches_plain(pieces):
    assert solve_forced(pieces, FORCED_SAT) == Solution(*solve_plain(pieces))


def solve_forced(pieces: list[Shape], overrides: dict[str, object] = FORCED) -> Solution:
    """`solve` with the C core's own search cut to one node: the helpers decide everything.
    Each knob is set where it is defined (`solver_knobs`)."""
    modules = {name: module_of(name) for name in overrides}
    original = {name: getattr(modules[name], name) for name in overrides}
    for name, value in overrides.items():
        setattr(modules[name], name, value)
    try:
        return solve(pieces, engine="c")
    finally:
        for name, value in original.items():
            setattr(modules[name], name, value)


def forced_draws_match_plain(tag: str, seeds: int, overrides: dict[str, object], types: tuple[int, int] = (2, 4),
                             pieces: tuple[int, int] = (5, 8)) -> None:
    """`seeds` files drawn from random.Random(f"{tag}/{seed}"): types[0]..types[1] of the 19
    shapes, pieces[0]..pieces[1] pieces; each solved with `overrides` (`solve_forced`) gets
    the plain search's answer."""
    for seed in range(seeds):
        rng = random.Random(f"{tag}/{seed}")
        subset = rng.sample(SHAPES, rng.randint(*types))
        drawn = [rng.choice(subset) for _ in range(rng.randint(*pieces))]
        assert solve_forced(drawn, overrides) == Solution(*solve_plain(drawn)), (tag, seed)


@settings(max_examples=40, deadline=None)
@given(pieces=restricted_pieces(6))
def test_default_path_matches_plain(pieces):
    assert solve(pieces) == Solution(*solve_plain(pieces))


def few_shape_pieces(pieces: tuple[int, int], shapes: tuple[int, int]) -> st.SearchStrategy[list[Shape]]:
    """pieces[0]..pieces[1] pieces drawn from shapes[0]..shapes[1] of the 19 shapes."""
    def draw(seed: int) -> list[Shape]:
        rng = random.Random(seed)
        subset = rng.sample(list(SHAPES), rng.randint(*shapes))
        return [rng.choice(subset) for _ in range(rng.randint(*pieces))]

    return st.integers(0, 2**32).map(draw)


# DP budgets so small that runs and corners outgrow them along both directions, with and
# without room(): their questions go to the other helpers, and a side's DP is asked again
# only after more pieces are placed.
TINY_DP = {"FIRST_C_BUDGET": 1, "FIRST_CORNER_BEAM": 0, "ORDERED_C_BUDGET": 1,
           "DP_LAYER_BUDGET": 4,
           "RUN_BEAM": 0, "RUN_STAGES": (("dp-next", 4, 16), ("dp", 4, 16))}


@settings(max_examples=25, deadline=None)
@given(pieces=few_shape_pieces((5, 8), (3, 4)))
def test_tiny_dp_budgets_match_plain(pieces):
    assert solve_forced(pieces, TINY_DP) == Solution(*solve_plain(pieces))


@settings(max_examples=25, deadline=None)
@given(pieces=few_shape_pieces((10, 16), (1, 4)))  # more than the plain oracle can finish
def test_runs_of_plain_moves_agree_with_the_dp_piece_by_piece(pieces):
    """Beyond the plain oracle's reach, the two DP paths check each other: a run of plain
    moves is taken only where the DP finds a completion of it, and must never end
    anywhere else than the pieces asked one by one."""
    assert solve_forced(pieces, FORCED_DP) == solve_forced(pieces, {**FORCED_DP, "PLAIN_MOVES": False})


# A run's next corner never known: the DP, without a budget, says only whether the run has
# a completion; the next piece is then asked on its own.
RUNS_BY_ANY_COMPLETION = {**FORCED_DP, "RUN_STAGES": (("dp-next", 1, 1), ("dp", 0, 0))}


@settings(max_examples=15, deadline=None)
@given(pieces=few_shape_pieces((10, 16), (1, 4)))
def test_runs_settled_without_their_next_corner_agree_with_the_dp_piece_by_piece(pieces):
    assert solve_forced(pieces, RUNS_BY_ANY_COMPLETION) == solve_forced(pieces, {**FORCED_DP, "PLAIN_MOVES": False})


@pytest.mark.slow
def test_plain_moves_settle_an_ivert_l90_t_file_with_the_dp_alone(monkeypatch):
    """On restricted_ivert_l90_tdown_tup_26 the DP cannot afford the first piece's question
    (its layers outgrow the budget); with the plain moves' runs fixed it answers every
    question, so neither the SAT solver, CP-SAT nor the C core's ordered search is asked,
    and the answer is the one the other helpers give piece by piece."""
    pieces = decode(RESTRICTED_FILES["restricted_ivert_l90_tdown_tup_26"])
    types = list(dict.fromkeys(pieces))
    counts = [pieces.count(t) for t in types]
    side = min_side(len(pieces))
    assert _profile.first_corner([t.cells for t in types], counts, side, [], [0] * len(types), 0,
                                 profile_side.DP_LAYER_BUDGET) is False
    expected = solve_forced(pieces, {"PLAIN_MOVES": False})

    def not_asked(*_args, **_kwargs):
        raise AssertionError("a helper other than the DP was asked")

    probes = []
    real_solve_at_side = staged._fastsolve.solve_at_side
    monkeypatch.setattr(staged._fastsolve, "solve_at_side",
                        lambda *args: probes.append(args[3]) or real_solve_at_side(*args))
    monkeypatch.setattr(sat_side, "SatSide", not_asked)
    monkeypatch.setattr(oracle, "packable", not_asked)
    assert solve(pieces) == expected
    assert probes == [staged.FIRST_C_BUDGET], "only the C core's first probe runs"


@pytest.mark.parametrize("seed", range(6))
def test_certificate_never_excludes_a_packing_that_exists(seed):
    rng = random.Random(seed)
    side = rng.randint(5, 9)
    shapes = rng.sample(SKEW if seed % 2 else list(SHAPES), rng.randint(1, 4))
    pieces = random_packing(side, rng, shapes)
    types = list(dict.fromkeys(pieces))
    counts = [pieces.count(t) for t in types]
    found = lp_certificate(types, counts, side)
    assert found is not None and not found.excludes(counts)
    # Any dual values, even nonsense ones, give a certificate that stays sound.
    for _ in range(5):
        noise = certificate(types, counts, side, [rng.random() for _ in range(side * side)],
                            [rng.random() for _ in types])
        assert not noise.excludes(counts)
    # And the C core, checking the certificate at every node, still finds a packing there.
    assert solve(pieces, engine="c").side <= side


def test_lp_certificate_proves_26_skew_pieces_need_side_12(monkeypatch):
    """The issue's case: 17 spare cells at side 11, where the LP's maximum is 25 pieces."""
    def no_oracle(*_args):
        raise AssertionError("CP-SAT was asked; the certificate alone must settle side 11")

    monkeypatch.setattr(oracle, "packable", no_oracle)
    pieces = decode(SKEW_AND_O_26[0])
    types = list(dict.fromkeys(pieces))
    counts = [pieces.count(t) for t in types]
    at_11 = lp_certificate(types, counts, 11)
    assert at_11 is not None and at_11.excludes(counts)
    assert at_11.bound(counts) < 26 * at_11.scale
    solution = solve(pieces)
    assert solution.side == 12
    taken = [(row + r, col + c) for p, (row, col) in zip(pieces, solution.positions) for r, c in p.cells]
    assert len(set(taken)) == 4 * len(pieces) and all(0 <= x < 12 for cell in taken for x in cell)


def cp_sat_lexicographic_first(pieces: list[Shape]) -> Solution:
    """The answer by another route: CP-SAT finds the smallest side with a packing, then
    minimises each piece's corner in file order with the earlier ones fixed."""
    from ortools.sat.python import cp_model

    side = min_side(len(pieces))
    while True:
        model = cp_model.CpModel()
        covering: dict[int, list[cp_model.IntVar]] = {}
        corners = []
        for shape in pieces:
            options = {}
            for row in range(side - shape.height + 1):
                for col in range(side - shape.width + 1):
                    x = options[row * side + col] = model.new_bool_var("")
                    for r, c in shape.cells:
                        covering.setdefault((row + r) * side + col + c, []).append(x)
            model.add_exactly_one(options.values())
            corners.append(options)
        for xs in covering.values():
            model.add_at_most_one(xs)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        if solver.solve(model) == cp_model.INFEASIBLE:
            side += 1
            continue
        chosen = []
        for options in corners:
            model.minimize(sum(corner * x for corner, x in options.items()))
            assert solver.solve(model) == cp_model.OPTIMAL
            corner = round(solver.objective_value)
            model.add(options[corner] == 1)
            chosen.append(divmod(corner, side))
        return Solution(side, tuple(chosen))


def medium_file(seed: int) -> list[Shape]:
    """9-11 pieces from 2-3 shapes: S/Z for odd seeds, L/J/I/T for even ones."""
    rng = random.Random(f"lexmin/{seed}")
    pool = SKEW if seed % 2 else [s for s in SHAPES if s.name[0] in "LJIT"]
    subset = rng.sample(pool, rng.randint(2, 3))
    return [rng.choice(subset) for _ in range(rng.randint(9, 11))]


# Seeds 2 and 5 are left out: their minimisations take CP-SAT 4 s and 40 s here.
@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 3, 4, 6, 7])
def test_cp_sat_lexicographic_minimisation_agrees_on_medium_files(seed):
    """Too many pieces for the plain oracle; the reference, with every side and query
    forced through the LP certificate and CP-SAT, through the profile DP, or through the
    SAT solver, and without, equals this answer."""
    pieces = medium_file(seed)
    expected = cp_sat_lexicographic_first(pieces)
    assert solve(pieces) == expected
    assert solve_forced(pieces) == expected
    assert solve_forced(pieces, FORCED_DP) == expected
    assert solve_forced(pieces, FORCED_SAT) == expected


# The C core's order-free search answers every question: the runs of plain moves (a packing
# of the run, or a proof there is none), the side, and every corner.
FORCED_C = {"FIRST_C_BUDGET": 1, "ORDERED_C_BUDGET": 1, "DP_LAYER_BUDGET": 1, "RUN_BEAM": 0,
            "RUN_STAGES": (("c", 0, 0),), "SIDE_STAGES": (("c", 0, 0),), "CORNER_STAGES": (("c", 0, 0),)}


@settings(max_examples=10, deadline=None)
@given(pieces=few_shape_pieces((9, 12), (3, 8)))
def test_the_c_core_agrees_with_the_dp_piece_by_piece(pieces):
    """Beyond the plain oracle's reach: the C core's order-free search (with its line
    counts), asked every question, must end where the DP asked piece by piece ends."""
    assert solve_forced(pieces, FORCED_C) == solve_forced(pieces, {**FORCED_DP, "PLAIN_MOVES": False})


# Corners the DP and the LP cannot settle within their caps: the SAT solver and the C core
# settle them after (`side_questions.CORNER_LAST`).
CORNERS_PAST_THEIR_CAPS = {**FORCED_SAT, "CORNER_STAGES": (("dp", 1, 1), ("lp", 1, 1))}


def test_corners_past_the_first_helpers_caps_go_to_the_last_ones(monkeypatch):
    asked: list[tuple[str, bool | None]] = []
    original = side_questions.balanced

    def recording(helpers, ask, distrust=None, packable=bool):  # type: ignore[no-untyped-def]
        answer = original(helpers, ask, distrust, packable)
        if helpers in (side_questions.CORNER_STAGES, side_questions.CORNER_LAST):
            asked.append(("last" if helpers is side_questions.CORNER_LAST else "first", answer))
        return answer

    monkeypatch.setattr(side_questions, "balanced", recording)
    forced_draws_match_plain("corners-past-their-caps", 12, CORNERS_PAST_THEIR_CAPS, pieces=(4, 7))
    # Each corner: its first helpers, and only when they stopped at their caps, the last ones.
    for (stage, answer), (next_stage, _) in zip(asked, asked[1:] + [("first", None)]):
        assert (stage, next_stage == "last") in {("first", answer is None), ("last", False)}
    assert {stage for stage, _ in asked} == {"first", "last"}, "both kinds of corner are asked"


# Corners one by one (the whole-piece DP gives up at once), each settled by the DP without a
# budget; after two refuted corners the piece's whole question is asked again, without a
# budget here, from the next corner.
PIECE_RETRIED = {"FIRST_C_BUDGET": 1, "FIRST_CORNER_BEAM": 0, "ORDERED_C_BUDGET": 1,
                 "DP_LAYER_BUDGET": 1, "RUN_BEAM": 0, "PLAIN_MOVES": False, "PIECE_RETRY_BUDGET": 0,
                 "SIDE_STAGES": (("c", 0, 0),), "CORNER_STAGES": (("dp", 0, 0),)}


@pytest.mark.parametrize("window", (1, 4, 100))
def test_a_piece_whose_corners_are_refuted_one_by_one_is_asked_whole_again(monkeypatch, window):
    """The piece's question again, from the next corner, in windows of corners along the rows
    (`Side.corner_from`): of one corner, of a few, and of all of them at once."""
    monkeypatch.setattr(profile_side, "CORNER_WINDOW", window)
    retried: list[int | None | bool] = []
    original = side_questions.Side.corner_from

    def recording(self, t, counts, occupied, min_corner, start, budget, known=None,  # type: ignore[no-untyped-def]
                  growth=1):
        found = original(self, t, counts, occupied, min_corner, start, budget, known, growth)
        if budget == corners.PIECE_RETRY_BUDGET:
            retried.append(found)
        return found

    monkeypatch.setattr(side_questions.Side, "corner_from", recording)
    forced_draws_match_plain("piece-retried", 12, PIECE_RETRIED)
    assert retried and all(isinstance(found, int) and found is not False for found in retried), retried


# The retries give up until their budget has grown: the first after PIECE_RETRY_AFTER
# corners refuted one by one, each later one (while the DP's scans do not take the rows from
# the top, which a window of corners cuts short) once
# the corners since have cost as much as the retry before, on PIECE_RETRY_GROWTH times its
# budget, the last on PIECE_RETRY_MAX states.
RETRIES_GROWING = {**PIECE_RETRIED, "PIECE_RETRY_AFTER": 1, "PIECE_RETRY_BUDGET": 2, "PIECE_RETRY_GROWTH": 2,
                   "PIECE_RETRY_MAX": 64}


@pytest.mark.parametrize("first_direction", (0, 1))
def test_a_retry_that_gives_up_is_asked_again_once_the_corners_cost_as_much_on_a_larger_budget(monkeypatch,
                                                                                               first_direction):
    """Each side's DP scans first along the rows, or the columns (where it may switch)."""
    # Per piece, in order: ("refuted", corners' cost then) and ("retry", budget, corners' cost
    # then, the retry's cost, whether the DP took the rows from the top before it); costs estimated
    # (`Side.corner_seconds`, SECONDS_PER_UNIT).
    pieces_asked: list[list[tuple]] = []
    corner_from, packable_at = side_questions.Side.corner_from, side_questions.Side.packable_at
    smallest_corner = corners.smallest_corner

    def piece(*args):  # type: ignore[no-untyped-def]
        pieces_asked.append([])
        return smallest_corner(*args)

    def retry(self, t, counts, occupied, min_corner, start, budget, known=None, growth=1):  # type: ignore[no-untyped-def]
        rows_from_the_top = self.rows_from_the_top
        found = corner_from(self, t, counts, occupied, min_corner, start, budget, known, growth)
        if budget != profile_side.DP_LAYER_BUDGET:
            pieces_asked[-1].append(("retry", budget, self.corner_seconds, self.work * SECONDS_PER_UNIT["dp"],
                                     rows_from_the_top))
        return found

    def corner(self, *args):  # type: ignore[no-untyped-def]
        answer = packable_at(self, *args)
        if not answer:
            pieces_asked[-1].append(("refuted", self.corner_seconds))
        return answer

    monkeypatch.setattr(corners, "smallest_corner", piece)
    monkeypatch.setattr(profile_side.ProfileSide, "_probe", lambda self: first_direction)
    monkeypatch.setattr(side_questions.Side, "corner_from", retry)
    monkeypatch.setattr(side_questions.Side, "packable_at", corner)
    forced_draws_match_plain("retries-growing", 16, RETRIES_GROWING, types=(2, 3), pieces=(6, 8))
    most = 0
    for events in pieces_asked:
        retries = [i for i, event in enumerate(events) if event[0] == "retry"]
        assert [events[i][1] for i in retries] == [2 << n for n in range(len(retries))]
        if retries:
            assert retries[0] == 1, "the first after one corner refuted"
        for before, this in zip(retries, retries[1:]):
            _, _, then, cost, _ = events[before]
            assert not events[this][4], "asked again only when the scans do not take the rows from the top"
            assert events[this - 1][1] - then >= cost, "the corners since cost as much as the retry before"
            assert all(seconds - then < cost for _, seconds in events[before + 1:this - 1]), "and not sooner"
        most = max(most, len(retries))
    assert most >= (3 if first_direction else 1), "some piece is retried three times along the columns"


def test_the_dp_past_its_corner_cap_settles_corners_among_the_last_helpers():
    """`CORNER_LAST` has the DP too, on budgets past DP_CORNER_MAX: here it alone settles
    every corner the first helpers leave."""
    forced_draws_match_plain("dp-among-the-last", 8, {**CORNERS_PAST_THEIR_CAPS, "CORNER_LAST": (("dp", 0, 0),)},
                             pieces=(4, 7))


# The side's yes/no left to the DP asked for any packing (the helper "dp" of
# `Side.packable_by`), before the runs (`SIDE_FIRST`) and after them (`SIDE_STAGES`): the
# DP's question about the first piece and the ordered C search give up at once.
SIDE_BY_DP = {**FORCED_DP, "DP_LAYER_BUDGET": 1, "SIDE_FIRST": (("dp", 0, 0),), "SIDE_STAGES": (("dp", 0, 0),)}


@settings(max_examples=30, deadline=None)
@given(pieces=restricted_pieces(6))
def test_a_side_the_first_questions_could_not_afford_is_settled_by_the_dp(pieces):
    assert solve_forced(pieces, SIDE_BY_DP) == Solution(*solve_plain(pieces))


@pytest.mark.parametrize("overrides", (SIDE_BY_DP, FORCED_DP), ids=("side-by-dp", "forced-dp"))
def test_the_packings_the_dp_traces_back_are_witnesses_of_the_pieces_left(monkeypatch, overrides):
    """With the DP answering the side, the runs and the pieces, each packing it traced back
    that the board keeps (`Side.witness`) packs the pieces still to place around those
    placed, whenever a piece is placed."""
    checked, traced = [], []
    place, first_corner = side_questions.Side.place, side_questions.Side.first_corner

    def placing(self, t, corner, witness=None):  # type: ignore[no-untyped-def]
        place(self, t, corner, witness)
        if self.witness is not None:
            left = list(self.counts)
            taken: set[int] = set()
            for u, at in self.placed:
                left[u] -= 1
                taken |= self.placement(u, at)
            check_packing(self.witness, self.types, left, self.side, taken)
            checked.append(self.witness)

    def asking(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        self.found = None
        found = first_corner(self, *args, **kwargs)
        if self.found is not None:
            traced.append(self.found)
        return found

    monkeypatch.setattr(side_questions.Side, "place", placing)
    monkeypatch.setattr(side_questions.Side, "first_corner", asking)
    forced_draws_match_plain("dp-witness", 12, overrides)
    assert len(traced) >= 5 and len(checked) >= 5, "the DP traced packings back, and the board kept some"


def test_the_dp_refutes_a_side_that_costs_the_sat_solver_seconds():
    """konlnckknkakkkkklknnkkk's side 10: its DP for the first piece gives up at 40 000
    states and CaDiCaL took 6.9 s; the DP asked for any packing refutes it along the
    columns within 160 000 states a layer (docs/BENCHMARKS.md, "Eighteenth pass")."""
    from generators.hard import decode

    pieces = decode("konlnckknkakkkkklknnkkk")
    types = list(dict.fromkeys(pieces))
    counts = [pieces.count(t) for t in types]
    board = side_questions.Side(types, counts, 10, None)
    assert board.packable(counts, frozenset(), (("dp", 160_000, 160_000),)) is False
    # The DP's scan for any packing answered, kept apart from the pieces' questions.
    assert board.side_question is not None and board.side_question.key[3] == -1 and not board.questions


# Every side's yes/no settled first by the C core without a budget (`SIDE_FIRST`): its
# packing is the witness the runs and the corners start from.
SIDE_FIRST_BY_C = {"FIRST_C_BUDGET": 1, "FIRST_CORNER_BEAM": 0, "RUN_BEAM": 0, "SIDE_FIRST": (("c", 0, 0),)}


@settings(max_examples=30, deadline=None)
@given(pieces=restricted_pieces(6))
def test_a_side_settled_before_its_runs_matches_plain(pieces):
    assert solve_forced(pieces, SIDE_FIRST_BY_C) == Solution(*solve_plain(pieces))


def test_a_side_without_packing_is_refuted_before_any_run_is_asked(monkeypatch):
    """gggegaggeeaagedaeeegbee's side 10 has no packing: asked first, the side's own question
    (`SIDE_FIRST`, the DP) refutes it, where the runs' refutations had cost
    1.4 s before the same question was asked (docs/BENCHMARKS.md, "Eighteenth pass")."""
    asked = []
    monkeypatch.setattr(runs, "place_plain_moves", lambda board, partial: asked.append(board) or False)
    pieces = decode("gggegaggeeaagedaeeegbee")
    types = list(dict.fromkeys(pieces))
    assert staged.solve_side(types, [types.index(p) for p in pieces], 10) is None
    assert not asked


def test_the_sides_first_question_places_a_t_files_first_piece_with_a_packing():
    """ggeggeggedaagiodeeegeee's side 10 (19 T pieces, two I_vertical, a J and an L in 100
    cells): the DP (its turns of `SIDE_FIRST`) answers the side's own question "yes" with
    its first piece's smallest corner and the packing traced back through its layers,
    which only a beam of 16 000 states beside it found when the DP answered with neither
    (docs/BENCHMARKS.md, "Twenty-first pass" and "Twenty-sixth pass")."""
    pieces = decode("ggeggeggedaagiodeeegeee")
    types = list(dict.fromkeys(pieces))
    counts = [pieces.count(t) for t in types]
    board = side_questions.Side(types, counts, 10, None)
    first = types.index(pieces[0])
    by_dp = tuple(stage for stage in staged.SIDE_FIRST if stage[0] == "dp")
    assert board.packable_within(counts, frozenset(), by_dp, first) is True
    assert board.found is not None and board.found_corner is not None
    check_packing(board.found, types, counts, 10, set())
    assert board.found_corner == min(corner for t, corner in board.found if t == first)
    rest = list(counts)
    rest[first] -= 1
    before = [corner for corner in range(board.found_corner)
              if (cells := board.placement(first, corner)) is not None
              and board.first_corner(rest, cells, [corner + 1 if t == first else 0 for t in range(len(types))],
                                     -1, 0) is not None]
    assert not before


@pytest.mark.slow
def test_the_sides_first_beams_find_its_packing_on_the_square_turned(monkeypatch):
    """homorammamhhoahmhhammaar's side 10: the beams of `SIDE_FIRST` along the square find
    no packing (4 000 states along both directions; before the turns, 16 000 did not
    either, and the side waited for the later question's 64 000-state beam); the second,
    of 16 000 states on the square turned a quarter, finds one (docs/BENCHMARKS.md,
    "Twenty-seventh pass").  The same beam is never run twice (a question's widths that
    missed on a square are not asked again there; "Twenty-first pass")."""
    pieces = decode("homorammamhhoahmhhammaar")
    types = list(dict.fromkeys(pieces))
    counts = [pieces.count(t) for t in types]
    board = along_the_window(side_questions.Side(types, counts, 10, None))
    runs: list[tuple[int, int]] = []
    original = _profile.beam

    def recorded(*args):
        runs.append((args[5], args[8]))  # width, orientation
        return original(*args)

    monkeypatch.setattr(_profile, "beam", recorded)
    # (Its DP, within SIDE_FIRST's cap, answers the side: the C core and the beam of it only.)
    first = tuple(stage for stage in staged.SIDE_FIRST if stage[0] != "dp")
    assert board.packable_within(counts, frozenset(), first) is True
    assert [width for width, _ in runs] == [4_000, 4_000, 16_000]
    assert [orientation // 2 for _, orientation in runs] == [0, 0, 1]  # the last on the square turned a quarter
    assert len(runs) == len(set(runs))
    assert board.found is not None
    check_packing(board.found, types, counts, 10, set())


@pytest.mark.slow
def test_the_sides_beam_past_a_corners_cap_finds_the_packing_cadical_took_40_s_for():
    """homorammamhhoahmhhammaar's side 10 (24 pieces in 100 cells): no beam within a corner's
    cap (BEAM_MAX) finds its packing, one of SIDE_BEAM_MAX states does (docs/BENCHMARKS.md,
    "Eighteenth pass")."""
    pieces = decode("homorammamhhoahmhhammaar")
    types = list(dict.fromkeys(pieces))
    counts = [pieces.count(t) for t in types]
    board = side_questions.Side(types, counts, 10, None)
    assert board.packable_by("beam", side_questions.BEAM_MAX, counts, frozenset()) is None
    assert board.packable_by("beam", staged.SIDE_BEAM_MAX, counts, frozenset()) is True
    assert board.found is not None
    check_packing(board.found, types, counts, 10, set())


@pytest.mark.slow
def test_the_sides_dp_question_goes_on_among_its_later_helpers_and_refutes_it():
    """hehhobmhahhaoamhhmammaab's side 10 has no packing: the side's DP question gives up
    at SIDE_DP_MAX states a layer (`SIDE_DP_LAST`), and the C core, CaDiCaL and the beam had
    not refuted it after 150 s; resumed among them up to SIDE_DP_LATER_MAX states a layer,
    it refutes the side (docs/BENCHMARKS.md, "Twenty-eighth pass").  Its scans start along
    the square's rows, as they did then: the probe starts them on the mirror image, where
    SIDE_DP_LAST refutes the side itself ("Twenty-ninth pass")."""
    pieces = decode("hehhobmhahhaoamhhmammaab")
    types = list(dict.fromkeys(pieces))
    counts = [pieces.count(t) for t in types]
    board = along_the_window(side_questions.Side(types, counts, 10, lp_certificate(types, counts, 10)))
    assert board.packable_within(counts, frozenset(), staged.SIDE_DP_LAST, 0) is None
    dp_later = tuple(stage for stage in staged.SIDE_STAGES if stage[0] == "dp")
    assert dp_later == (("dp", staged.SIDE_DP_MAX, staged.SIDE_DP_LATER_MAX),)
    assert board.packable_within(counts, frozenset(), dp_later, 0) is False
