"""Hard valid inputs: the families that defeat plain backtracking.

What makes a file hard is the number of spare cells s*s - 4n at the lower-bound side
s = ceil(sqrt(4n)): with few of them the plain search must exhaust the small square before
it grows, and identical pieces multiply its work by the orders it tries.  Files drawn from
a few shapes (the `restricted_*` families) are hard for any exact search: their squares
keep many spare cells, and proving a side impossible means exhausting where they go.

    >>> import random
    >>> description, build = HARD_FAMILIES["ivert23"]
    >>> len(build(random.Random(0)))
    23
"""
from __future__ import annotations

import random
from collections.abc import Callable

from reference.plain import min_side
from reference.shapes import SHAPE_BY_NAME, SHAPES, Shape

Builder = Callable[[random.Random], list[Shape]]

O, I_VERTICAL = SHAPE_BY_NAME["O"], SHAPE_BY_NAME["I_vertical"]

# One letter per shape, in `SHAPES` order: a file written as a short string (file order).
CODES = "abcdefghijklmnopqrs"


def encode(pieces: list[Shape]) -> str:
    return "".join(CODES[SHAPES.index(p)] for p in pieces)


def decode(code: str) -> list[Shape]:
    return [SHAPES[CODES.index(letter)] for letter in code]


def random_pieces(rng: random.Random, count: int) -> list[Shape]:
    """`count` pieces drawn uniformly over the 19 shapes."""
    return [rng.choice(SHAPES) for _ in range(count)]


def zero_spare(rng: random.Random) -> list[Shape]:
    """n pieces with 4n a perfect square (4, 9, 16 or 25): not one spare cell at the bound."""
    return random_pieces(rng, rng.choice((4, 9, 16, 25)))


def o13_ivert13_shuffled(rng: random.Random) -> list[Shape]:
    pieces = [O] * 13 + [I_VERTICAL] * 13
    rng.shuffle(pieces)
    return pieces


# Pieces with a long side or an awkward footprint, so small sets overflow the bound.
_BULKY = [SHAPE_BY_NAME[name] for name in ("I_vertical", "I_horizontal", "L_0", "J_0", "L_90", "J_270", "O")]


def larger_than_bound(rng: random.Random) -> list[Shape]:
    """A few bulky pieces whose minimal square is larger than ceil(sqrt(4n)).

    Found by drawing candidates and keeping the first one the reference proves larger, so
    the file really exercises "the square grows" (1 vertical I, side 4 > 2, if none is found).
    """
    from reference.solver import solve  # imported here: the generator is usable without solving

    for _ in range(200):
        pieces = [rng.choice(_BULKY) for _ in range(rng.randint(2, 7))]
        if solve(pieces).side > min_side(len(pieces)):
            return pieces
    return [I_VERTICAL]


# Files from a few shapes: many spare cells at every side tried, the reference's worst
# case.  Found by benchmarks/bench_adversarial.py (its slowest files) and in issue 15;
# each took the reference 1-120+ s before the LP certificate, the profile DP and the SAT
# solver helped; each now takes it at most about 0.8 s (CPU), so they enter the corpus,
# whose every expected answer is computed when the suite is built.
SKEW_AND_O_26 = (
    "qssqspsspspspsqqpqqrpqsqsp",  # 26 S/Z: side 11 ruled out by the LP certificate (max 25)
    "ccscssccsscsccsccssscscssc",  # 13 O, 13 Z_vertical: likewise
)
RESTRICTED_FILES = {
    "restricted_skew_26": SKEW_AND_O_26[0],
    "restricted_o_zvert_26": SKEW_AND_O_26[1],
    "restricted_l0_j0_25": "hhlhllllhhlhllhllhhlhhhhl",  # side 11 impossible, 12
    "restricted_ivert_l180_21": "jaaajaajjjjajjajjaaaj",
    "restricted_tup_tleft_ivert_22": "fdafaadddadddfffdfadda",
    "restricted_ihoriz_tdown_tright_23": "gbgbbebbgbegbbbebgbeeeb",
    "restricted_tdown_tright_ivert_22": "egggeeaaeeagaegageeeea",  # 22.9 s before the DP
    "restricted_ivert_j270_26": "aaoaaoooooaaoaaooaaooaoooo",
    "restricted_l90_l180_25": "jijjiiijijjjjiijjiijjjjjj",  # > 20 s before the DP
    "restricted_ivert_tright_21": "agggggaggaagaagagaaga",
    "restricted_ihoriz_tright_tdown_26": "bbgeegbbgegebbbeggebbbeggg",
    "restricted_ihoriz_skew_23": "bsspbprsspsrsrrrpbrssbr",  # with Z_v, S_h, Z_h
    # The earlier passes' slowest (1.1-14 s before the fourth pass, 0.3-1.2 s after it: runs
    # of the plain search's moves, reference/staged.py).
    "restricted_l180_j180_l0_j270_23": "jnjnhhojojjhonojhhooojo",
    "restricted_j270_l180_j0_26": "ojloojojljoojojoojojjolool",
    "restricted_l90_ivert_tdown_o_26": "iaeeiiaaeieaeeaeeieieicaia",
    "restricted_l90_ivert_tdown_26": "iaeeiiaaeieaeeaeeieiiieaie",
    "restricted_l0_l90_tdown_tright_26": "iighiigiiighieiieiieegieig",
    "restricted_j270_l180_zhoriz_26": "jorjorjjjrojrooojrrojrooro",
    "restricted_ivert_l90_tdown_tup_26": "daeeiiaadieaeeaeeidiiieaia",
    "restricted_j270_l180_zhoriz_26_b": "rojjorjjjrojrooojrroorooro",
    "restricted_j270_l180_shoriz_zhoriz_26": "jorjopjjjrojrojjjrrojrooro",
}
# The fourth to seventh passes' bench_adversarial finds (1.3-20 s when found; 0.3-3.5 s
# after the seventh pass), timed by benchmarks/bench_reference.py --slowest and
# benchmarks/bench_restricted.py and kept out of the corpus.  The hill climb's one-piece
# changes add shapes, so these have up to eight.  J_180 and L_180 with J_270, L_0 and a
# rare skew or T piece at side 10-11, or L_270/L_180 with T_up/T_down at side 10, where
# the plain search's moves are right for the first pieces but the DP question that would
# confirm them outgrows its budget; L_90 or the T shapes at side 11; vertical bars with
# J and L pieces at side 10; S and Z at side 11.
RESTRICTED_SLOWEST = {
    "restricted_j180_l180_l0_j270_zhoriz_26": "nhonnnnhonhjrnnjjjhjjnnjnj",
    "restricted_j180_l180_j270_l0_26": "nhonnnhojnhjjonjjohjojnjnj",
    "restricted_j180_l180_j270_l0_tleft_26": "nhonnnhfjnhjjonjjohjojnjnj",
    "restricted_j180_j270_l180_j0_skew_23": "llonnorojjjorjpplnonnnn",
    "restricted_l270_tup_tdown_l180_23": "jkdkeejdejkkkedkddkejkd",
    # The last run's find (14.8 s): eight shapes, the DP gives up on every question, and
    # the SAT solver settles the corners one by one in 0.1-1.5 s each.
    "restricted_j270_l180_j180_j0_mixed_23": "ljnnnooqjjjofkllqfohonj",
    # The fifth pass's finds: the first run's slowest (8.5 s; 5 shapes, where the C core's
    # greedy now goes first), then the last run's (1.9 s; J_0, J_180, J_270, L_180).
    "restricted_j180_l180_j270_l0_zvert_26": "nhonnnhnohnjnsnjjohjojnjnj",
    "restricted_j0_j180_j270_l180_23": "llojnonojjjoljlllnonnno",
    # The sixth pass's finds: the slowest of the first run (7.5 s before the line counts;
    # J_180, L_0, L_180, J_270), of a run in between (5.6 s; the T shapes and one L_180),
    # and of the last run (3.0 s; 13 L_90 with L_0, T_down, T_right, O and J_180).
    "restricted_j180_l0_l180_j270_26": "nhnhnnnnjnhjoonjjohjojnjnj",
    "restricted_tdown_tright_tleft_tup_l180_26": "fjgdgeggeeeggeeeggfeefgffe",
    "restricted_l90_tdown_tright_l0_mixed_26": "iighiigiiigniicieiieehneig",
    # The seventh pass's finds (docs/BENCHMARKS.md): T files with two J pieces (12 s, then
    # 3.4-5.8 s); vertical bars with J_90, J_270 and L_0, which need room() (15 s without
    # it); J_0, L_0 and L_270 with T_up (3.5 s before runs built room() again); S and Z at
    # side 11, 21 spare cells, alone (5.5 s) or with two O (over 100 s while the corner
    # ladder's DP stopped at 40 000 states) or with an I and an L (6.2 s before runs of six
    # types built room()); the last runs' slowest, T files again (6.1 s) and J_180/L_90
    # with J_0, L_270 and T_up at side 10 (4.6 s).
    "restricted_tdown_tright_tleft_j180_26": "ffddoengeeeogeeeggfeennfeg",
    "restricted_ivert_j90_j270_l0_24": "hohooamhamhaoammhmammaaa",
    "restricted_j0_l0_l270_tup_26": "kkkhhhdlhkhdhldlkhldhlklhh",
    "restricted_skew_25": "spprqppqrsqssqqrprprprqsp",
    "restricted_skew_o_25": "qcprqprrrsqsspsrprrrpcqsr",
    "restricted_skew_ivert_l0_25": "srarrhrprppqpsrssqrrsqqps",
    "restricted_tright_tdown_tleft_l180_26": "jgddggggeeegfeqfggfeefggee",
    "restricted_j180_l90_j0_l270_tup_23": "lknnilnnlniinnnindknkid",
    # The seventh pass's final runs' other two slowest (3.9 s, 3.3 s), then the eighth
    # pass's (docs/BENCHMARKS.md): T shapes with J_270, L_180 and an S (3.1 s; 4.4 s
    # before); S and Z alone at side 11 (2.0 s); S and Z with three O and a J_270
    # (6.1 s, and as slow before: the DP answers its runs, one length at a time).
    "restricted_tdown_tright_tleft_j270_26": "ffddgeegegoggeegggfeefgffe",
    "restricted_skew_o_25_b": "prppqqrprqrcprqrqqcrqrpsr",
    "restricted_tright_tdown_shoriz_l180_26": "jpgdoeggeegggeeeggfeefgdge",
    "restricted_skew_25_b": "qqprqprprsqpsqsqprqrpsqrr",
    "restricted_skew_o_j270_25": "prposrppqqpccsqrqsprqcpsr",
    # The tenth pass's finds (docs/BENCHMARKS.md): T shapes with two L_180 and an S (3.95 s),
    # and S and Z alone at side 11 (1.7 s; its run found 6.1 s before this pass).
    "restricted_tdown_tleft_tright_l180_svert_26": "fjjdeeggeeeggeeeggfeeffqfe",
    "restricted_skew_25_c": "prppqprpqqpprrrsqspsqrpqp",
    # ... and after the DP's bounds were asked once per state: T shapes with J_0 and J_90
    # (3.0 s), and S/Z with two O and three T_up, whose fifth piece has ten corners refuted
    # one by one (5.4 s; 9.0 s on the ninth pass's code).
    "restricted_tdown_tright_j0_j90_26": "lmgdgeggeeeggeeeggdeefgffe",
    "restricted_skew_o_tup_25": "ddqrdcrprpcqpsssspprpsqpp",
    # The eleventh pass's finds (docs/BENCHMARKS.md): after the question's LP, I_horizontal,
    # J_180, S_vertical and T_up at side 10, whose room() filled up along the columns
    # (7.3 s); after the beam, T shapes with J_270, L_0 and L_180 (2.0 s) and the side-10
    # family with J_0 and L_270 (3.0 s); at the end, T shapes with J_0 and an S (1.1 s),
    # and T shapes with two I_vertical and three S_vertical, whose first run's refutation
    # costs room() a full memo (3.7 s).
    "restricted_ihoriz_j180_svert_tup_23": "bddbqdddqqqdnqddqnqdnnn",
    "restricted_tdown_tleft_tright_j270_l0_l180_26": "fjghfgggeeeggeeeggfeefgofe",
    "restricted_ihoriz_j0_j180_l270_svert_tup_23": "lddbqdddnqqdnqddknqdnnb",
    "restricted_tdown_tleft_tright_tup_j0_svert_26": "qlgdgeggeeeggeeeggfeefeffe",
    "restricted_ivert_svert_tdown_tleft_tup_26": "ddddfqeaeqffeeedfdeffeefaq",
    # The thirteenth pass's finds (docs/BENCHMARKS.md): the adversarial benchmark's seed 2
    # climbed to T shapes with I_vertical, L_180 and Z_horizontal at side 11 (7.0 s and
    # 6.1 s); one question about a run of 21 pieces costs 3 s of it, which the DP's scan
    # along the columns answers in 0.55 s once room()'s memo is deepened to a million.
    "restricted_ivert_l180_tdown_tleft_tup_zhoriz_26": "rdddfeferafeeefjjdeeferaaa",
    "restricted_ivert_l180_tdown_tleft_tup_zhoriz_26_b": "rdddfeferafeeefjjdeeferraa",
    # ... and once room() no longer scanned with a full memo before deepening it, seed 2
    # climbed to T shapes with I_vertical and I_horizontal (7.9 s), where one corner's
    # refutation costs 5.2 s.
    "restricted_ihoriz_ivert_tdown_tleft_tup_26": "ddddfefeeafeeefdbdeffefaaa",
    # Once the helpers' weights learned from "yes" and "no" apart, seed 2 climbed to T shapes
    # with six I_vertical, L_180, L_270 and S pieces (4.8 s): corner refutations the DP's
    # scan along the columns settles in 0.15 s without room(), along the rows in 0.7 s.
    "restricted_ivert_l180_l270_svert_shoriz_tdown_tleft_tup_26": "kdddfffeaaqeeeedfapefjfaaa",
    "restricted_ivert_l180_l270_svert_tdown_tleft_tup_26": "kdddfffeaaqeeeedfaeefjfaaa",
    # Its next climbs: I_horizontal with them (11.6 s, through a bug of the corners' room()
    # limit, fixed: 6.0 s, the slowest file known), and J pieces in place of L (2.5 s).
    "restricted_ihoriz_ivert_l180_tdown_tleft_tup_26": "ddddfejedbfeeffbfjeefefaea",
    "restricted_ivert_j0_j90_tdown_tleft_tup_26": "dmmdfffeaafeeefdfdeeeeffla",
    # The fifteenth pass's seed-3 climb found another family, at side 10 with 8 spare
    # cells (T_up, L_0 and I_horizontal with a few Z_vertical, J_90 and L_270; 5.7 s),
    # where the line counts take three quarters of the time (docs/BENCHMARKS.md,
    # "Fifteenth pass").
    "restricted_ihoriz_j90_l0_l270_tup_zvert_23": "ddbddbdsbbkdhhdbhhhmshs",
    # ... and its seed-0 climb, which the fourteenth pass's had ended at 1.1 s: T_down,
    # T_left and T_right with an I_horizontal, a J_180 and a Z_vertical at side 11 (4.0 s).
    "restricted_ihoriz_j180_tdown_tleft_tright_zvert_26": "ffgbgeegeeeggegeegfeeggsne",
    # ... and its seed-2 climb: T_up, T_down and T_left with four I_vertical, an L_180 and two
    # S_vertical (9.6 s, the slowest file known), where one corner that has a packing costs
    # 3 s: the DP's last turn grows room()'s memo to 4 M values along the rows for nothing
    # (1.0 s), then answers along the columns with 1.4 M (0.9 s).
    "restricted_ivert_l180_svert_tdown_tleft_tup_26": "ddddfffeaaaeeeedqqeejefafe",
    # The sixteenth pass's climbs (docs/BENCHMARKS.md): before the room() memos had to pay
    # for themselves, seed 2 reached T shapes with six I_vertical, an I_horizontal and an
    # L_270 (5.6 s); after, T shapes with three I_vertical, L_0, L_180 and an S (4.3 s),
    # seed 3 eleven L_270 with J pieces at side 10 (2.4 s) and seed 0 T shapes with two
    # L_180 (1.4 s); with room() in every run, seed 2 T shapes with three I_vertical, two
    # J_0 and an L_90 (3.6 s).
    "restricted_ihoriz_ivert_l270_tdown_tleft_tup_26": "ddddfefeaafeeeadakeefeeaba",
    "restricted_ivert_l0_l180_svert_tdown_tleft_tup_26": "ddddfefeaqfeeefhfdeeeffjaa",
    "restricted_j0_j180_j270_j90_l270_shoriz_23": "kknnnpkknnokkklklnknkkm",
    "restricted_tdown_tright_tleft_tup_l180_26_b": "jjgdeegggeegeeeeggfgefgffe",
    "restricted_ivert_j0_l90_tdown_tleft_tup_26": "ddddfefeaafeeeflfdeieeflae",
    # The seventeenth pass's climbs, each slower still on the code before it: seed 2 T shapes
    # with four I_vertical, two J_0, an L_180 and a Z (5.9 s; 8.2 s before), where one piece
    # has seven corners without a completion, each refuted by a DP scan of its own; seed 3
    # eleven L_270 with J pieces at side 10 again (2.9 s); seed 0 T shapes with two J_180
    # (1.6 s); with the retry of a piece's whole question, seed 2 T shapes with four I pieces,
    # an L_0 and an L_180 (6.7 s when found, 4.6 s alone, as on the code before the pass),
    # where a run that has a completion is left unsettled by every helper; seed 3 eleven
    # L_270 with J_0, J_180, L_0, two Z_vertical and two I_horizontal at side 10, over 20 s
    # when found, 43 s alone, 44 s on the code before the pass, 5 s once the DP went on
    # among a corner's last helpers; after that, seed 2 T shapes with two I_horizontal and
    # five I_vertical, 5.5 s when found, 5.8 s alone against 3.7 s on the code before the
    # pass: a run that every helper leaves unsettled at its cap (1.6 s), then a corner the
    # DP refutes among the last helpers (1.4 s).
    "restricted_ivert_j0_l180_tdown_tleft_tup_zhoriz_26": "ddddlffeaffeeeelfeerdafaja",
    "restricted_j0_j180_j270_l0_l270_tleft_zhoriz_23": "khnknokknnrkkkfkloknkkl",
    "restricted_j180_tdown_tleft_tright_tup_26": "ffgdgeggeeeggeeenggeefgfne",
    "restricted_ihoriz_ivert_l0_l180_tdown_tleft_tup_26": "ddddfefebafeeefjfaeefefdha",
    "restricted_ihoriz_j0_j180_l0_l270_zvert_23": "kskknbkkbnnkkkllslkhkkl",
    "restricted_ihoriz_ivert_tdown_tleft_tup_26_b": "ddddfefeaafeeefbfdeafefaba",
    # The eighteenth pass's climbs (docs/BENCHMARKS.md): once the holes between fixed pieces
    # counted as occupied, seed 3 reached thirteen L_270 with J pieces, an O and an
    # I_vertical at side 11 (8.8 s, as slow before the pass), whose side 10 only CaDiCaL
    # refuted (6.9 s), 1.0 s once the DP settles sides; then seed 2, T_down and T_right
    # with four I_vertical, an I_horizontal and a T_up at side 11 (3.0 s; 16.4 s before the
    # pass), and seed 3 twelve L_270 with J and L_0 pieces, an S and a T at side 10 (5.0 s);
    # on the pass's last code, seed 0 seven I_vertical with J_90, J_270, L_0, an
    # I_horizontal and two Z_horizontal at side 10 with 4 spare cells (19.9 s, 19.6 s before
    # the pass), whose side 10 has a packing that the C core and CaDiCaL take 5 s each to
    # find, and whose second piece has thirteen corners without a completion; its next climb
    # in that family, six I_vertical, J_270, J_90, L_0 and two Z_horizontal (45 s, 48 s
    # before the pass), whose side 10's packing CaDiCaL finds after 40 s; 10-11 s both, once
    # the side's beam went on to 256 000 states; after that, seed 0 T_down and T_left with
    # four Z_vertical, two I_vertical, two J_270 and two L_180 at side 10 (2.4 s).
    # The nineteenth pass's climbs, once the beam kept the pieces in proportion: seed 0,
    # T_down with I_vertical, Z_vertical and a J at side 10 (2.9 s: its second piece's
    # corners refuted one by one); seed 2, T_down and T_right with five I_vertical, two
    # I_horizontal and a J_270 at side 10 (5.9 s, as slow before the pass: the first
    # piece's corner 0 has no completion, which the DP's scan along the rows refutes in
    # 12 million states, along the columns in 5 million); seed 3, eleven L_270 with J
    # pieces, three T_right and two bars at side 10 (3.1 s).
    "restricted_ivert_j0_j180_j270_l270_o_23": "konlnckknkakkkkklknnkkk",
    "restricted_j0_j180_j270_l270_o_23": "konlnckknkokkkkklknnkkk",
    "restricted_ihoriz_ivert_tdown_tright_tup_23": "gggegaggeeaagedaeeegbee",
    "restricted_j0_j180_j270_l0_l270_shoriz_tdown_23": "knknepkkknokkklkhhnkkkl",
    "restricted_ihoriz_ivert_j270_j90_l0_zhoriz_24": "rrhooambamhaoamhhmammaha",
    "restricted_ivert_j270_j90_l0_zhoriz_24": "homorammamhhoahmhhammaar",
    "restricted_ivert_j270_l180_tdown_tleft_zvert_23": "esefseofsjejoefafeeaesf",
    "restricted_ivert_j270_j90_tdown_tleft_zvert_23": "emeaoefssaaeeeeafeeaesf",
    "restricted_ihoriz_ivert_j270_tdown_tright_23": "eeaggaggeoaagbbeeeegaeg",
    "restricted_ihoriz_ivert_j0_j180_j270_l270_tright_23": "kknlkbkkogokaklkggnkkkl",
    # The twentieth pass's climbs, once two DP directions race and memos that refute nothing
    # stop growing: seed 0, the four T shapes with two J_270 and two S_vertical at side 11
    # (3.1 s: its fourth piece's whole question, asked again at 160 000 states, 1.5 s);
    # seed 2, T_down and T_right with seven I_vertical, a J_180, an L_0 and a T_up at side
    # 10 (2.9 s); seed 3, J_0, J_180, J_270 and L_270 at side 10 (1.3 s).
    "restricted_j270_svert_tdown_tleft_tright_tup_26": "fqgdgeggeoegegeggggeeogqfe",
    "restricted_ivert_j180_l0_tdown_tright_tup_23": "agageagghdaaggnaeeegaee",
    "restricted_j0_j180_j270_l270_23": "konnnokknnokkklklnnnkkl",
    # Then, with a piece's retry at 80 000 states: seed 0, T_down, T_left and T_right with a
    # J_90 and an S_vertical at side 11 (2.0 s); seed 2, the T shapes with three I_vertical
    # and an I_horizontal at side 10 (15.6 s, 17.7 s on the code before the pass): a side
    # whose packing only the beam finds, at 256 000 states, while the C core and CaDiCaL
    # spend 6 s beside it; seed 3, J shapes and seven L_270 at side 10 (1.1 s).
    "restricted_j90_svert_tdown_tleft_tright_26": "fqgmgeggeeegeeeeggfeefgffg",
    "restricted_ihoriz_ivert_tdown_tright_tup_23_b": "aeegggggedbagadgeeegeee",
    "restricted_j0_j180_j270_j90_l270_23": "kmnnnoknnnokkklnlnnnkkl",
    # The twenty-first pass's climbs (docs/BENCHMARKS.md): seed 0, T shapes with S and Z at
    # side 11 (1.6 s); seed 2, T shapes with I_vertical, L_0 and two Z_horizontal at side 10
    # (2.7 s); seed 3, J and L shapes with two Z_horizontal at side 10 (1.8 s).
    "restricted_shoriz_svert_tdown_tleft_tright_tup_zvert_26": "psqdgeegeqegfeeeggfeeqgfee",
    "restricted_ivert_l0_tdown_tright_tup_zhoriz_23": "hhaggaggehareadrgeegaee",
    "restricted_j0_j180_j270_l0_l270_l90_zhoriz_23": "kohnnrkknnikkklkrnnnkkl",
    # The twenty-second pass's climbs: seed 0, T shapes with an O, an L_0 and a J_0 at side
    # 11 (1.7 s); seed 2, T_right and T_up with I_horizontal, L_0, an O and a Z_horizontal
    # at side 11 (1.4 s); seed 3, J shapes and eleven L_270 with I pieces and an S_vertical
    # at side 10 (4.0 s).
    "restricted_j0_l0_o_tdown_tleft_tright_tup_26": "lfgdgeggeeeggeeeggceehgfhe",
    "restricted_ihoriz_l0_o_tright_tup_zhoriz_26": "dhbghbbbgghcgbbghbgdghrhgh",
    "restricted_ihoriz_ivert_j0_j180_j270_l270_svert_23": "konbkbkkkbqkkknklnnnkka",
    # The twenty-third pass's climbs: T_down and T_left with I pieces, Z_vertical and an L_90
    # at side 10 (seed 0, 2.8 s), one with a Z_horizontal and a J_270 whose second piece's
    # answer lies 60 corners on (an earlier climb of seed 0, 4.0 s), and one with an L_180
    # whose side's "yes" the DP gives without a packing (0.9 s; 3.7 s); T_right and T_up with
    # L_0, L_270, I pieces and an O at side 11 (seed 2, 1.4 s); T_left with L_270, J_270 and
    # I_vertical at side 10, the pieces' questions along the columns (5.6 s), one of which
    # (the second here) has no packing at side 10, which only CaDiCaL proved, in 15 s
    # (seed 3, before the side's last DP turn); T_left and L_270 with J_270, L_0, L_180,
    # T_right and an S_vertical at side 10 (seed 3 on the pass's final code, 2.2 s).
    "restricted_ihoriz_ivert_l90_tdown_tleft_zvert_23": "ssfffebsfaseaeiaaeeaese",
    "restricted_ivert_j270_l90_tdown_tleft_zhoriz_zvert_23": "freffeissaoeaeaaeeeaesf",
    "restricted_ihoriz_ivert_l180_tdown_tleft_zvert_23": "eeeabefesajefefaeeeaesf",
    "restricted_ihoriz_ivert_l0_l270_l90_o_tright_tup_26": "khgahbibdghgdgbgbhgdkhcdgg",
    "restricted_ivert_j270_l270_tleft_tright_tup_23": "fdakkokfffkkgfkfgafokof",
    "restricted_ivert_j270_l270_tleft_tright_tup_23_b": "fdakkokfffkkffkfgafokof",
    "restricted_j270_l0_l180_l270_svert_tleft_tright_23": "gkfokfkfffkkqkkfgokjohf",
    # The twenty-fourth pass's climbs: T_left and L_270 with J, L_0, an I_horizontal, a T_down
    # and a T_right at side 10 (seed 3, 2.9 s: its second piece's corners and retries);
    # I_vertical, J_90 and J_270 with L pieces and a T_up at side 10 (seed 0, 3.5 s; 1.1 s
    # once the retries came by cost); T_up and T_right with J, L_0, an I_horizontal and a
    # T_down at side 11 (seed 2, 3.5 s); the same J/L/I family with I_horizontal and a T_down
    # (seed 0, over 20 s with the retries up to 2 560 000 states, 8.5 s as before the pass:
    # its first piece's corners cost 0.5-1.3 s each); on the pass's final code, T_down with
    # I, O, S_vertical, Z_vertical and T_left at side 10 (seed 0, 4.0 s; 3.1 s before the
    # pass: its fourth piece's second retry, by cost, windows over corners refuted before),
    # T_right and T_up with L_0, L_90, T_down and a Z_horizontal at side 11 (seed 2, 1.6 s)
    # and T_left with J_270, L_270, J_0, L_0 and T_right at side 10 (seed 3, 3.2 s); then,
    # with the later retries along the columns only, J_270 and L_180 with J_0, T_down, an
    # I_horizontal, an L_270 and an S_vertical at side 11 (seed 0, 3.2 s).
    "restricted_ihoriz_j0_j270_l0_l270_tdown_tleft_tright_23": "lkfokeohffkklkffgofkfbf",
    "restricted_ivert_j270_j90_l0_l270_tup_24": "kmaoammdommmoamhhmommaaa",
    "restricted_ihoriz_j180_j90_l0_tdown_tright_tup_26": "ddhgdegdbndghddggggggddddm",
    "restricted_ihoriz_ivert_j270_j90_l0_tdown_24": "eohmoahhamhabamhhmambaaa",
    "restricted_ihoriz_ivert_o_svert_tdown_tleft_zvert_23": "eeebsefcscsefeaafeesesq",
    "restricted_l0_l90_tdown_tright_tup_zhoriz_26": "dddgdedgggdggrdiddggghgedg",
    "restricted_j0_j270_l0_l270_tleft_tright_23": "ghfokolfffkogkkffofokof",
    "restricted_ihoriz_j0_j270_l180_l270_svert_tdown_26": "kjleoboeljoojojlojojeoqool",
    # The twenty-fifth pass's climbs, on its final code: I_vertical, J_270, J_90 and L_0 with
    # two S_vertical at side 10, the family of eohm... (seed 0, 7.3 s, as on the pass's start:
    # the side's packing only a 64 000-state beam finds, then its first piece's corners at
    # 0.15-0.4 s each); T_up and T_right with L_0, T_down and an I_horizontal at side 11
    # (seed 2, 1.8 s); T_left and L_270 with J pieces and T_right at side 10 (seed 3, 4.6 s).
    "restricted_ivert_j270_j90_l0_svert_24": "hqoooaohmmhaohmqhmammamm",
    "restricted_ihoriz_l0_tdown_tright_tup_26": "dddgdhhdgdbdgedddgddgegddd",
    "restricted_j0_j180_j270_l270_tleft_tright_23": "lofokfkfffkkgkkfgnfkkof",
    # The twenty-sixth pass's climbs, on its final code: six I_vertical, J_90 and L_0 with
    # two J_270, two Z_horizontal, an L_180 and an I_horizontal at side 10 (seed 0, 52 s, as
    # on the pass's start: no first helper finds the side's packing, a 256 000-state beam
    # does after 22 s, and its first piece's first corner has a completion that the DP
    # proves at 2.56 M states); T_right and T_up with T_down and an L_270 at side 11 (seed
    # 2, 1.0 s); twelve J_180 with J_270, L_0, an O and S pieces at side 10 (seed 3, 3.0 s).
    "restricted_ihoriz_ivert_j270_j90_l0_l180_zhoriz_24": "hoaroamhamhhrbmhhmjmmaaa",
    "restricted_l270_tdown_tright_tup_26": "dddgdegegekdggddgggdgegddg",
    "restricted_j180_j270_l0_o_shoriz_svert_23": "nncnnhnnhooqnqponnnonhn",
    # Seed 0's climb again, on the code with the side's DP turn at 640 000 states before the
    # runs: its neighbours, with two L_180 and no Z (12.8 and 9.6 s, then 12.5 and 1.7 s
    # with that turn after the runs; 7.9 and 1.9 s on the pass's start).
    "restricted_ihoriz_ivert_j270_j90_l0_l180_24": "bbhjoamhamhaoammmhammhaj",
    "restricted_ihoriz_ivert_j270_j90_l0_l180_24_b": "hbhjoamhamhaoammmhammhaj",
    # The climbs on the pass's code with that turn after the runs and the side's first beam
    # at one budget of 4 000 states: I_vertical, J_90 and J_270 with L_0 and I_horizontal at
    # side 10 (seed 0, 7.7 s: its side's packing the 16 000-state beam finds, 5.8 s with it,
    # as on the pass's start); T_right and T_up with L_0, T_down and Z_horizontal at side 11
    # (seed 2, 1.1 s); L_270 with J pieces, I_vertical, an L_180 and a T_down at side 10
    # (seed 3, 4.3 s).
    "restricted_ihoriz_ivert_j270_j90_l0_24": "hoboobmbammaommhhmammaam",
    "restricted_l0_tdown_tright_tup_zhoriz_26": "gddgdeddgedggrggdgrdghgdhg",
    "restricted_ivert_j0_j180_j270_l180_l270_tdown_23": "koakkjkknlokkkellkankkk",
    # The climbs on the pass's final code (the side's beam back to 16 000 states): J_270 and
    # J_0 with L pieces and S_vertical at side 11 (seed 0, 1.7 s); T_right and T_up with
    # T_down, Z_horizontal and an L_0 at side 11 (seed 2, 2.4 s); L_270 and J_180 with J_0,
    # J_270 and an L_90 at side 10 (seed 3, 1.6 s).
    "restricted_j0_j270_l0_l180_svert_26": "hllohjohqjoololoojollolqqo",
    "restricted_l0_tdown_tright_tup_zhoriz_26_b": "ddhgrggdgrdegedrdggdgggdeg",
    "restricted_j0_j180_j270_l270_l90_23": "kiknnokknlokkkknlknnkkl",
    # Twenty-seventh pass (the beam turns the square after a miss): seed 0's climb with the
    # DP's order-free questions also racing a turned square (reverted) found I_vertical,
    # J_90, J_270 and L_0 with Z_horizontal, a T_right and an S_vertical at side 10, no
    # packing (over 200 s with that race, 6.2 s on the pass's start, 7.4 s with the race
    # off); on the final code, seed 0's climb J_270, L_180, J_0, T_left and a Z_horizontal
    # at side 11 (1.7 s), seed 2's T_right and T_up with T_down, an O and an L_0 (1.5 s),
    # seed 3's L_270 and J_180 with J_0, J_270, a T_right and a Z_horizontal at side 10 (2.6 s).
    "restricted_ivert_j270_j90_l0_svert_tright_zhoriz_24": "ghhoqamhahmmrarhhmommmaa",
    "restricted_j0_j270_l180_tleft_zhoriz_26": "lojjoofolfooojooojjljforlf",
    "restricted_l0_o_tdown_tright_tup_26": "dddgdggdgedcgedgdggdghgddg",
    "restricted_j0_j180_j270_l270_tright_zhoriz_23": "kgnnnlkknnokkkkkorknkkl",
    # Twenty-eighth pass (the DP's scans in any orientation): the climbs with the DP's
    # questions racing a challenger through the turned squares (dropped) found T files on
    # which those challengers cost most: seed 0's T_down and I_vertical with T_left,
    # Z_vertical, J_270, L_180 and L_90 at side 10 (4.5 s with that race, 1.1 s without),
    # seed 2's T_right and T_up with J_90, L_0, T_down and an S_horizontal at side 11 (2.3 s,
    # 1.8 s), seed 3's L_270 with J_180, J_270 and single I, J_0, S and T at side 10 (2.3 s,
    # 1.7 s).
    "restricted_ivert_j270_l180_l90_tdown_tleft_zvert_23": "aseafeosoijiaefafoesesj",
    "restricted_j90_l0_shoriz_tdown_tright_tup_26": "dphmdegdgmedgmmgdggdghgddg",
    "restricted_ihoriz_j0_j180_j270_l270_shoriz_tdown_23": "koplnokkenokkkkkkknnkkb",
    # On the final code, seed 0's climb found I_vertical, L_0 and J_90 with J_270,
    # I_horizontal and a T_down at side 11, whose side 10 (no packing) none of the side's
    # later helpers refuted in 150 s; with the side's DP question among them up to
    # 2 560 000 states a layer (`staged.SIDE_DP_LATER_MAX`), 9.1 s and 8.9 s.
    "restricted_ihoriz_ivert_j270_j90_l0_tdown_24_b": "hehhobmhahhaoamhhmammaab",
    "restricted_ihoriz_ivert_j270_j90_l0_tdown_24_c": "eehhobmhahhaoamhhmammaab",
    # With that, seed 0's climb found I_vertical, J_90, L_0 and J_270 with an S_vertical and
    # a Z_horizontal at side 10 (6.6 s).
    "restricted_ivert_j270_j90_l0_svert_zhoriz_24": "hohoramhhmmaoamhhmommaqa",
    # Twenty-ninth pass: with a side's scans started where a probe of its own question gets
    # furthest (`profile_side.PROBED`), the climbs found L_270 and T_left with J_270, L_180 and
    # a few others at side 10 (seed 3, 4.9 s: the probe starts on the mirror, the square's
    # columns take 1.7 s), T_right and T_up with S_horizontal (seed 2, 2.3 s) and T_right,
    # T_down and T_left with an S_vertical and an I_horizontal (seed 0, 1.5 s).
    "restricted_ivert_j180_j270_l180_l270_tdown_tleft_23": "jkfojknffkkkakkfeofokkf",
    "restricted_shoriz_svert_tdown_tright_tup_26": "dddgdqgpgegdgedgpggggegpdg",
    "restricted_ihoriz_svert_tdown_tleft_tright_tup_26": "qggdeebggeeggfeegegegfgfge",
}
_SKEW = [s for s in SHAPES if s.name[0] in "SZ"]


def restricted_skew(rng: random.Random) -> list[Shape]:
    """20-26 pieces from 2-4 of the S/Z shapes: no rectangle tiling, many spare cells."""
    subset = rng.sample(_SKEW, rng.randint(2, 4))
    return [rng.choice(subset) for _ in range(rng.randint(20, 26))]


def _fixed(code: str) -> Builder:
    return lambda rng: decode(code)


def _identical(shape: Shape) -> Builder:
    return lambda rng: [shape] * 26


HARD_FAMILIES: dict[str, tuple[str, Builder]] = {
    "random_16": ("16 random pieces: 0 spare cells at side 8", lambda rng: random_pieces(rng, 16)),
    "random_20": ("20 random pieces: 1 spare cell at side 9", lambda rng: random_pieces(rng, 20)),
    "random_24": ("24 random pieces: 4 spare cells at side 10", lambda rng: random_pieces(rng, 24)),
    "dense_26": ("26 random pieces: the largest file", lambda rng: random_pieces(rng, 26)),
    "zero_spare": ("4, 9, 16 or 25 random pieces exactly filling the bound square", zero_spare),
    "larger_than_bound": ("a few bulky pieces whose square is larger than ceil(sqrt(4n))", larger_than_bound),
    **{
        f"identical_{shape.name}": (f"26 identical {shape.name} pieces", _identical(shape))
        for shape in SHAPES
    },
    "o13_ivert13_interleaved": ("13 O and 13 vertical I, alternating", lambda rng: [O, I_VERTICAL] * 13),
    "o13_ivert13_blocks": ("13 O then 13 vertical I", lambda rng: [O] * 13 + [I_VERTICAL] * 13),
    "o13_ivert13_shuffled": ("13 O and 13 vertical I in a random order", o13_ivert13_shuffled),
    "ivert23": ("23 vertical I: fit by count at side 10, need side 12", lambda rng: [I_VERTICAL] * 23),
    "restricted_skew": ("20-26 pieces from 2-4 S/Z shapes", restricted_skew),
    **{name: (f"{len(code)} pieces from a few shapes, an adversarial-benchmark find", _fixed(code))
       for name, code in RESTRICTED_FILES.items()},
}

# Families that draw from their generator get several files in a corpus.
RANDOM_FAMILIES = ("random_16", "random_20", "random_24", "dense_26", "zero_spare",
                   "larger_than_bound", "o13_ivert13_shuffled", "restricted_skew")


def build(family: str, seed: int) -> list[Shape]:
    """The pieces of one file of `family`, reproducible from `seed`."""
    _, builder = HARD_FAMILIES[family]
    return builder(random.Random(f"{family}/{seed}"))


def hard_corpus(seed: int, per_random_family: int = 3) -> list[tuple[str, list[Shape]]]:
    """(name, pieces) for every family; random families get `per_random_family` files."""
    corpus = []
    for family in HARD_FAMILIES:
        copies = per_random_family if family in RANDOM_FAMILIES else 1
        for k in range(copies):
            file_seed = seed * 1000 + k
            name = f"{family}-{file_seed}" if family in RANDOM_FAMILIES else family
            corpus.append((name, build(family, file_seed)))
    return corpus
