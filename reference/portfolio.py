"""One question shared by several helpers on growing budgets (`balanced`).

None of the helpers that answer a side's order-free questions (`reference.side_questions`:
the C core, the profile DP and its beam, the packing LP, the SAT solver, CP-SAT) suits
every question: on one file the DP refutes in 0.1 s what costs the C core seconds, on the
next the C core finds in 0.1 s the packing the DP's scan takes seconds to reach.  So a
question goes to a portfolio of them, which take turns, the one that has spent least so
far going next, and what answered the costly questions of a side weighs the helpers'
work on its next ones (`Distrust`).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

# Helpers sharing one question: (helper, first budget, cap).  Budgets: ("c", order-free
# nodes) for the C core, ("sat", conflicts) for CaDiCaL, ("dp", states in one layer) for
# the profile DP, ("beam", states kept per layer) for its beam, which can only find
# packings, ("cp-sat", seconds); budget 0: none.  A helper stops after its largest budget
# within its cap; cap 0: none, after ROUNDS budgets its next is unbounded (budget 0, which
# must answer).  ("lp", 1, 1): the question's packing LP, asked once; it can only refute.
Portfolio = tuple[tuple[str, float, float], ...]
Answer = TypeVar("Answer")
GROWTH = 4  # each helper's next budget, after one that did not answer
ROUNDS = 8  # budgets of a helper without a cap before its last, unbounded one
# What a unit of each helper's work costs, in seconds on this machine (measured on the
# adversarial benchmark's slowest files, docs/BENCHMARKS.md, "Eighth pass": the median
# over their calls of more than 10 ms): a state a DP scan takes from a layer, a node of
# the C core's order-free search, a conflict of CaDiCaL, a second of CP-SAT.
SECONDS_PER_UNIT = {"dp": 0.3e-6, "dp-next": 0.3e-6, "beam": 0.3e-6, "c": 0.6e-6, "sat": 60e-6, "cp-sat": 1.0,
                    "lp": 0.008}
DISTRUST_MAX = 16.0  # the most a helper's work is weighed
# `balanced` learns only from questions that cost the helpers this much (estimated): the
# cheap ones, answered at a first budget or two, say little about the file and turned the
# weights back and forth (ljnnnooqjjjofkllqfohonj: 4.0 s learning from every question,
# 1.2 s with this; docs/BENCHMARKS.md, "Eighth pass").
LEARN_FROM_SECONDS = 0.05


# Helpers that can give one answer only: the beam finds packings, the LP refutes.  A
# question answered the other way does not count against them.
ONE_ANSWER = {"beam": True, "lp": False}
# Helpers that ask one solver another question: what a side teaches about the solver
# weighs both.  ("dp-next": the profile DP asked for the next piece's smallest corner over
# a run's completions, "dp" whether it has any; `staged.RUN_STAGES`.)
SOLVER = {"dp-next": "dp"}


@dataclass
class Distrust:
    """What each helper's work weighs on the questions of one file and side, learned from
    the costly ones: when a helper answers one, the others asked beside it count double
    from then on (DISTRUST_MAX at most), and it counts half (never below 1).

    The questions answered "yes" and those answered "no" teach apart, and a helper weighs
    the lesser of what the kinds of question learned from so far taught: the helpers that
    find packings (the C core, the beam) are not those that prove there are none (the DP,
    the LP), and a question's answer is not known before it is asked.  (With one weight
    for both, the runs' refutations, which the beam can never answer, buried it: a corner
    whose packing the beam finds in 0.1 s then waited for the DP's 1.8 s scan;
    docs/BENCHMARKS.md, "Fourteenth pass".)
    """
    after_yes: dict[str, float] = field(default_factory=dict)
    after_no: dict[str, float] = field(default_factory=dict)

    def weight(self, helper: str) -> float:
        """The lesser of its solver's weights after "yes" and after "no"; a kind of answer
        that has taught nothing yet does not vouch for it."""
        solver = SOLVER.get(helper, helper)
        return min((learned.get(solver, 1.0) for learned in (self.after_yes, self.after_no) if learned), default=1.0)

    def learn(self, packable: bool, answered: str, beaten: list[str]) -> None:
        """`answered` settled a costly question (`packable`: its answer) after each of
        `beaten` had spent at least one budget on it; what it teaches is about their
        solvers (`SOLVER`), and a solver does not lose to itself."""
        weights = self.after_yes if packable else self.after_no
        answered = SOLVER.get(answered, answered)
        rivals = {SOLVER.get(helper, helper) for helper in beaten
                  if ONE_ANSWER.get(helper, packable) == packable} - {answered}
        for helper in rivals:
            weights[helper] = min(weights.get(helper, 1.0) * 2, DISTRUST_MAX)
        if rivals:
            weights[answered] = max(weights.get(answered, 1.0) / 2, 1.0)


def capped(helpers: Portfolio, helper: str, cap: float) -> Portfolio:
    """`helpers` with `helper` stopping at `cap` (unless it starts unbounded: it must
    answer); `helpers` itself when that changes nothing.

    >>> capped((("dp", 10, 0), ("beam", 1, 16)), "beam", 4)
    (('dp', 10, 0), ('beam', 1, 4))
    """
    limited = tuple((name, first, min(limit or cap, cap) if name == helper and first else limit)
                    for name, first, limit in helpers)
    return helpers if limited == helpers else limited


def balanced(helpers: Portfolio, ask: Callable[[str, float], tuple[Answer | None, float]],
             distrust: Distrust | None = None, packable: Callable[[Answer], bool] = bool) -> Answer | None:
    """One question asked of several helpers, none of which suits every file: each starts
    at its first budget, the one that has spent least so far goes next, and a budget that
    did not answer grows GROWTH times.  `ask(helper, budget)` returns the answer (None when
    the budget ran out) and the work it did (SECONDS_PER_UNIT).  Whichever helper suits the
    question answers once the others have spent about as much as it did, so the question
    costs at most about as many times its best helper's time as there are helpers; a fixed
    ladder spends each rung in turn, and a rung of the DP can cost ten times the C core's
    rung next to it (docs/BENCHMARKS.md, "Eighth pass").  None when every helper stopped
    at its cap.

    `distrust` (kept by the caller for the questions of one file and side) weighs each
    helper's work and learns from the question once it is answered (`packable(answer)`:
    whether it was a "yes"): the questions of one file tend to suit the same helpers, and
    one that did not answer gets less time on the next.

    A DP state costs half a C node: after 100 of each, the DP has spent less, and goes on.

    >>> calls = []
    >>> def ask(helper, budget):
    ...     calls.append((helper, budget))
    ...     return (True if helper == "c" and budget >= 400 else None), budget
    >>> balanced((("c", 100, 0), ("dp", 100, 0)), ask), calls
    (True, [('c', 100), ('dp', 100), ('dp', 400), ('c', 400)])
    >>> balanced((("dp", 100, 1_000),), ask)  # 100 and 400: within the cap, then none
    """
    budgets = {helper: first for helper, first, _ in helpers}
    caps = {helper: cap for helper, _, cap in helpers}
    spent = dict.fromkeys(budgets, 0.0)
    grown = dict.fromkeys(budgets, 0)
    learner = distrust if distrust is not None else Distrust()
    while budgets:
        helper = min(budgets, key=lambda h: spent[h])
        amount = budgets[helper]
        answer, work = ask(helper, amount)
        if answer is not None:
            if sum(spent.values()) >= LEARN_FROM_SECONDS:
                learner.learn(packable(answer), helper, [h for h in spent if h != helper and grown[h]])
            return answer
        if not amount:
            raise AssertionError(f"{helper} without a budget must answer")
        spent[helper] += work * SECONDS_PER_UNIT[helper] * learner.weight(helper)
        grown[helper] += 1
        budgets[helper] = amount * GROWTH
        if caps[helper] and budgets[helper] > caps[helper]:
            del budgets[helper]
        elif not caps[helper] and grown[helper] >= ROUNDS:
            budgets[helper] = 0
    return None
