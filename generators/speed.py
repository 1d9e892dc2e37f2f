"""The speed files: valid files that plain backtracking cannot answer within the moulinette's
timeout, while a solver with the two classic sound cuts answers each in a fraction of a second.

Plain backtracking (the seed's algorithm: pieces in file order, every position, no pruning)
must prove the lower-bound square impossible before it grows it.  With identical pieces it
tries every order of them, and with no spare cell it explores partial packings that have
already cut off an unfillable region; the cuts "an identical piece goes after its twin" and
"an empty region of k cells wastes k % 4 of them" remove exactly that work.  A student whose
solver is right everywhere else but fails these is correct, but too slow for the moulinette's
timeout.

The pieces are fixed (what makes a file slow for plain search is its pieces and their
order, not where they sit in their blocks), chosen by measurement on a 2-core machine
(CPU seconds; tests/test_plain_timing.py checks plain search against the limit and the
reference on every run, tests/test_zoo_grade.py the zoo's pruning solvers):

    file                    plain C      base.c / correct_plain.c / examples/fillit
    ten_O                   > 80         < 0.1
    twelve_T_up             > 80         < 0.2
    sixteen_zero_spare        31         < 0.2

The suite's seed only moves the shapes inside their blocks.
"""
from __future__ import annotations

from reference.shapes import SHAPE_BY_NAME, Shape

# name -> (description, shape names in file order)
SPEED_FILES: dict[str, tuple[str, tuple[str, ...]]] = {
    "ten_O": ("10 O pieces: the 7x7 bound holds only 9, so plain search tries every order of "
              "them before the 8x8", ("O",) * 10),
    "twelve_T_up": ("12 identical T pieces: plain search exhausts the 7x7 and 8x8 squares in "
                    "every order before the 9x9", ("T_up",) * 12),
    "sixteen_zero_spare": ("16 pieces, 6 shapes twice, tiling the 8x8 bound exactly: plain search "
                           "walks countless dead-end packings before the one that leaves no cell empty", (
                               "I_horizontal", "S_horizontal", "S_vertical", "J_270", "L_270", "L_90",
                               "T_up", "T_left", "T_up", "L_0", "J_90", "L_0", "S_horizontal", "J_270",
                               "J_90", "T_left")),
}


def speed_pieces(name: str) -> list[Shape]:
    """The pieces of speed file `name`, in file order."""
    return [SHAPE_BY_NAME[shape] for shape in SPEED_FILES[name][1]]
