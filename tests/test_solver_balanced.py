"""`portfolio.balanced`: one question shared by helpers in proportion to their work.

The helpers here are scripted: each answers once its budget reaches a threshold and
reports its budget as its work, so the order of the questions asked is known exactly.
"""
from __future__ import annotations

import pytest

from reference import portfolio
from reference.portfolio import GROWTH, ROUNDS, SECONDS_PER_UNIT, Distrust, balanced


class Scripted:
    """Helpers that answer `answer` once their budget reaches `needs[helper]` (never when
    absent), logging every question."""

    def __init__(self, needs: dict[str, float], answer: object = True) -> None:
        self.needs, self.answer, self.asked = needs, answer, []

    def __call__(self, helper: str, budget: float) -> tuple[object | None, float]:
        self.asked.append((helper, budget))
        need = self.needs.get(helper)
        done = need is not None and (budget == 0 or budget >= need)
        return (self.answer if done else None), budget


def test_the_helper_that_spent_least_goes_next():
    # A SAT conflict costs as much as 100 C nodes, so 150 nodes cost more than a conflict:
    # the two take turns, each growing its budget, until the SAT solver's reaches the 300
    # conflicts it needs.
    assert SECONDS_PER_UNIT["sat"] == pytest.approx(100 * SECONDS_PER_UNIT["c"])
    ask = Scripted({"sat": 300})
    assert balanced((("sat", 1, 0), ("c", 150, 0)), ask)
    turns = [[("sat", GROWTH ** k), ("c", 150 * GROWTH ** k)] for k in range(5)]
    assert ask.asked == [question for turn in turns for question in turn] + [("sat", GROWTH ** 5)]


def test_a_capped_helper_stops_and_none_is_no_answer():
    ask = Scripted({})
    assert balanced((("dp", 10, 1_000),), ask) is None
    assert ask.asked == [("dp", 10), ("dp", 40), ("dp", 160), ("dp", 640)]


def test_an_uncapped_helper_ends_without_a_budget():
    ask = Scripted({"c": float("inf")}, answer=False)
    assert balanced((("c", 1, 0),), ask) is False  # "no" is an answer too
    assert ask.asked[-1] == ("c", 0) and len(ask.asked) == ROUNDS + 1


def test_a_helper_without_a_budget_must_answer():
    with pytest.raises(AssertionError):
        balanced((("c", 0, 0),), lambda helper, budget: (None, 0))


def test_costly_questions_teach_which_helper_suits_the_file():
    distrust = Distrust()
    # Cheap: answered at the DP's first budget; the weights stay as they are.
    assert balanced((("dp", 10, 0), ("c", 10, 0)), Scripted({"dp": 10}), distrust)
    assert distrust == Distrust()
    # Costly (far beyond LEARN_FROM_SECONDS): the C core answers, the DP asked beside it
    # weighs double from now on ...
    big = portfolio.LEARN_FROM_SECONDS / SECONDS_PER_UNIT["c"]
    assert balanced((("dp", 10, 0), ("c", 10, 0)), Scripted({"c": big}), distrust)
    assert distrust.after_yes == {"dp": 2.0, "c": 1.0} and distrust.weight("dp") == 2.0
    # ... so on the next such question the C core gets about twice the DP's time,
    ask = Scripted({"c": big})
    balanced((("dp", 10, 0), ("c", 10, 0)), ask, distrust)
    dp_work = sum(budget for helper, budget in ask.asked if helper == "dp")
    c_work = sum(budget for helper, budget in ask.asked if helper == "c")
    assert c_work * SECONDS_PER_UNIT["c"] > 1.5 * dp_work * SECONDS_PER_UNIT["dp"]
    # and the weights never pass DISTRUST_MAX.
    for _ in range(10):
        balanced((("dp", 10, 0), ("c", 10, 0)), Scripted({"c": big}), distrust)
    assert distrust.weight("dp") == portfolio.DISTRUST_MAX and distrust.weight("c") == 1.0


def test_yes_and_no_teach_apart():
    """The questions answered "no" do not count against a helper that can only find
    packings (the beam), and a helper weighs the lesser of what "yes" and "no" taught: the
    one that finds the packings keeps its turns on a file whose costly questions were
    mostly refutations."""
    distrust = Distrust()
    big = portfolio.LEARN_FROM_SECONDS / SECONDS_PER_UNIT["dp"]
    for _ in range(10):  # refutations the DP answers, the beam never can, the C core could
        helpers = (("dp", 10, 0), ("c", 10, 0), ("beam", 10, 1e9))
        assert balanced(helpers, Scripted({"dp": big}, answer=False), distrust) is False
    assert distrust.after_no == {"c": portfolio.DISTRUST_MAX, "dp": 1.0}
    assert distrust.weight("beam") == 1.0 and distrust.weight("c") == portfolio.DISTRUST_MAX
    # A packing the beam finds: it is asked as soon as it has spent no more than the DP.
    ask = Scripted({"beam": 40})
    assert balanced((("dp", 10, 0), ("beam", 10, 1e9)), ask, distrust)
    assert ask.asked == [("dp", 10), ("beam", 10), ("dp", 40), ("beam", 40)]
    # A costly packing the C core finds: from then on it weighs what "yes" taught.
    assert balanced((("dp", 10, 1e9), ("c", 10, 0)), Scripted({"c": big}), distrust)
    assert distrust.weight("c") == 1.0 and distrust.weight("dp") == 1.0


def test_a_solver_asked_two_questions_does_not_lose_to_itself():
    """"dp-next" and "dp" are the profile DP asked for a run's next corner and for any
    completion of it (`runs.RUN_STAGES`): the one answering after the other does not
    teach that the DP is slow, and what a side teaches about the DP weighs both."""
    distrust = Distrust()
    big = portfolio.LEARN_FROM_SECONDS / SECONDS_PER_UNIT["dp"]
    helpers = (("dp-next", 10, 1e9), ("c", 10, 1e9), ("dp", 10, 1e9))
    assert balanced(helpers, Scripted({"dp": big}, answer=False), distrust) is False
    assert distrust.after_no == {"c": 2.0, "dp": 1.0}
    assert distrust.weight("dp-next") == distrust.weight("dp") == 1.0
    # A costly refutation the C core answers: the DP, asked both ways beside it, weighs double.
    assert balanced(helpers, Scripted({"c": big}, answer=False), distrust) is False
    assert distrust.after_no == {"c": 1.0, "dp": 2.0}
    assert distrust.weight("dp-next") == distrust.weight("dp") == 2.0
