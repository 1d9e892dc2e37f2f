/*
 * reference._fastsolve -- the compiled core of the reference solver.
 *
 * The algorithm of reference/search.py (read that first: it is the plain-words
 * version), plus, in the order-free search, dead cells filled at once, branching
 * on the cell with the fewest fitting placements covering it (smaller proofs of
 * infeasibility), near the top of each order-free search a 4-periodic stripe
 * colouring bound (stripe_mismatch) that proves most infeasible boards at once, and
 * on boards with few spare cells the line-count bound of the rows (reference/_lines.h,
 * lines_mismatch).  One call solves one side:
 *
 *     solve_at_side(types, piece_types, side, budget=0, weights=None)
 *         -> ((row, col), ...), None or False
 *
 * types:       sequence of shapes, each a sequence of 4 (row, col) cells whose
 *              bounding box starts at (0, 0), sorted row-major;
 * piece_types: the type index of each piece, in file order;
 * budget:      when > 0, give up after that many order-free nodes;
 * weights:     (cell_weights, type_weights, scale), a verified packing-LP dual
 *              certificate (reference/lp_bound.py), checked at every order-free node;
 * returns      the top-left corner of each piece in the upper-left-first
 *              placement, None when the pieces do not fit in the square, or
 *              False when the budget ran out first (nothing is known then).
 *
 *     packable(types, counts, side, occupied, budget=0, weights=None) -> True, False or None
 *
 * The order-free search alone: do counts[t] pieces of each type fit in the free cells?
 * (None: the budget ran out.)  reference/solver.py's ordered search asks it, and CP-SAT,
 * when solve_at_side's own search is out of budget.
 *
 * Board: one uint32 per row, bit c = column c, so any side <= 32 works.
 * Pruning is sound only (a cut branch holds no solution): the answer is the
 * first solution of the plain seed backtracking.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIDE 32
#define MAX_TYPES 24   /* 12 five-bit counts per key word, two words */
#define MAX_PIECES 64
#define MAX_COUNT 31   /* a count must fit in five bits */
#define TAIL_WORDS 2
#define OCCUPIED (1ull << 63)
#define MEMO_MAX_BYTES ((size_t)256 << 20)
#define COLOURINGS 3   /* checkerboard, column stripes, row stripes */
/* The line-count bound (reference/_lines.h) of the rows, on nodes with at most LINE_SPARE
 * spare cells, when the types fall in at most LINE_MAX_CLASSES row profiles.  (More spare
 * cells: the shifts are many and rarely all refuted; more classes: the search over the
 * lines costs more than it saves, e.g. on the eight shapes of
 * restricted_j270_l180_j180_j0_mixed_23.)  Tuned in docs/BENCHMARKS.md, "Sixth pass". */
#define LINE_SPARE 2
#define LINE_MAX_CLASSES 4
#include "_lines.h"

typedef struct {
    int height, width, first_col;  /* first_col: column of the shape's first cell, in its row 0 */
    uint32_t rows[4];              /* bit c of rows[i] = cell (i, c) */
    int cell_row[4], cell_col[4];
    int vertical_bar, horizontal_bar;
    /* |sum of the +-1 colours of its cells| under each colouring: 0, 2 or 4, the same
     * wherever the piece lies (moving it by one cell flips every colour). */
    int imbalance[COLOURINGS];
    int col_profile[4], row_profile[4];  /* cells in each column / row of its box (box <= 4) */
} Type;

#define STRIPE_SLOTS (1 << 16)  /* hash set of reachable stripe-count vectors */
#define STRIPE_MAX (1 << 14)    /* more reachable vectors than this: the check gives up */
/* The stripe check runs on the first STRIPE_DEPTH + 1 levels of each order-free search
 * (where a proof saves most) and only with at most STRIPE_SPARE spare cells (more: the
 * reachable sums are many and rarely all too big).  Tuned on hard_corpus seeds 0-9. */
#define STRIPE_DEPTH 3
#define STRIPE_SPARE 8
typedef struct {
    uint32_t key[STRIPE_SLOTS], stamp[STRIPE_SLOTS], generation;
    uint32_t list[2][STRIPE_MAX];
} StripeSets;

/* A set of failed states: open addressing, linear probing, whole keys stored
 * (a hash collision must never prune).  When it would outgrow MEMO_MAX_BYTES it
 * is emptied, which is sound: forgetting a failure only costs time. */
typedef struct {
    uint64_t *slots;
    size_t capacity, used;
    int words;  /* per entry; the last word carries OCCUPIED */
} Memo;

typedef struct {
    int side, cells;
    uint32_t full_row;
    int ntypes;
    Type types[MAX_TYPES];
    int counts[MAX_TYPES];
    uint32_t board[MAX_SIDE + 4];  /* padded: a shape never reads past it */
    uint32_t colour[COLOURINGS][MAX_SIDE];  /* the +1 cells of each colouring, by row */
    int board_words;
    Memo fill_failed, order_failed;
    int npieces;
    int piece_type[MAX_PIECES], previous_same[MAX_PIECES], anchor[MAX_PIECES];
    StripeSets *stripes;
    long long node_budget;  /* 0: none */
    long long nodes;        /* order-free nodes of the current call, against node_budget */
    int gave_up;            /* the budget ran out: every 0 returned since means "unknown" */
    /* A packing-LP dual certificate (weights_exclude); scale 0 when there is none. */
    int64_t cell_weight[MAX_SIDE * MAX_SIDE], type_weight[MAX_TYPES], weight_scale;
    LineClasses line_classes;     /* the types' row profiles */
    LineMemo line_memo;           /* the line-count bound's states, for every question */
    /* The order-free search's placements on the current path, and those of the last
     * packing it found (each a type and a corner, row-major): a "yes" with its witness. */
    int path_len, path_type[MAX_PIECES], path_corner[MAX_PIECES];
    int packing_len, packing_type[MAX_PIECES], packing_corner[MAX_PIECES];
} Search;

/* Work counters of the last solve_at_side call, for the benchmark (not thread-safe: statistics only). */
static long long fill_nodes, order_nodes;

static inline int popcount32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

/* ---- memo ---------------------------------------------------------------- */

static uint64_t hash_key(const uint64_t *key, int words)
{
    uint64_t h = 0x243F6A8885A308D3ull;
    for (int i = 0; i < words; i++) {
        h = (h ^ key[i]) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
    }
    return h;
}

static int memo_init(Memo *m, int words)
{
    m->words = words;
    m->capacity = 1 << 12;
    m->used = 0;
    m->slots = calloc(m->capacity * words, sizeof(uint64_t));
    return m->slots != NULL;
}

static uint64_t *memo_find(const Memo *m, const uint64_t *key)
{
    size_t mask = m->capacity - 1, i = hash_key(key, m->words) & mask;
    for (;; i = (i + 1) & mask) {
        uint64_t *slot = m->slots + i * m->words;
        if (!(slot[m->words - 1] & OCCUPIED) || !memcmp(slot, key, m->words * sizeof(uint64_t)))
            return slot;
    }
}

static int memo_contains(const Memo *m, const uint64_t *key)
{
    return (memo_find(m, key)[m->words - 1] & OCCUPIED) != 0;
}

static void memo_insert(Memo *m, const uint64_t *key)
{
    if (2 * (m->used + 1) > m->capacity) {
        size_t bigger = 2 * m->capacity;
        uint64_t *slots = NULL;
        if (bigger * m->words * sizeof(uint64_t) <= MEMO_MAX_BYTES)
            slots = calloc(bigger * m->words, sizeof(uint64_t));
        if (slots) {
            Memo grown = {slots, bigger, m->used, m->words};
            for (size_t i = 0; i < m->capacity; i++) {
                uint64_t *old = m->slots + i * m->words;
                if (old[m->words - 1] & OCCUPIED)
                    memcpy(memo_find(&grown, old), old, m->words * sizeof(uint64_t));
            }
            free(m->slots);
            *m = grown;
        } else {
            memset(m->slots, 0, m->capacity * m->words * sizeof(uint64_t));
            m->used = 0;
        }
    }
    uint64_t *slot = memo_find(m, key);
    if (!(slot[m->words - 1] & OCCUPIED)) {
        memcpy(slot, key, m->words * sizeof(uint64_t));
        m->used++;
    }
}

/* key = the board's side*side bits, then two tail words (OCCUPIED set in the last). */
static void make_key(const Search *S, uint64_t tail0, uint64_t tail1, uint64_t *key)
{
    memset(key, 0, S->board_words * sizeof(uint64_t));
    int bit = 0;
    for (int r = 0; r < S->side; r++, bit += S->side) {
        uint64_t row = S->board[r];
        int word = bit >> 6, offset = bit & 63;
        key[word] |= row << offset;
        if (offset + S->side > 64)
            key[word + 1] |= row >> (64 - offset);
    }
    key[S->board_words] = tail0;
    key[S->board_words + 1] = tail1 | OCCUPIED;
}

static void counts_tail(const Search *S, uint64_t *tail0, uint64_t *tail1)
{
    uint64_t words[2] = {0, 0};
    for (int t = 0; t < S->ntypes; t++)
        words[t / 12] |= (uint64_t)S->counts[t] << (5 * (t % 12));
    *tail0 = words[0];
    *tail1 = words[1];
}

/* ---- dead space ---------------------------------------------------------- */

/* How many disjoint straight bars of 4 fit in `free`, along columns or rows. */
static int bar_capacity(const Search *S, const uint32_t *free_rows, int vertical)
{
    int total = 0, side = S->side;
    if (!vertical) {
        for (int r = 0; r < side; r++) {
            uint32_t x = free_rows[r];
            while (x) {
                int start = __builtin_ctz(x);
                uint32_t shifted = x >> start;
                int run = (~shifted == 0) ? 32 : __builtin_ctz(~shifted);
                total += run / 4;
                x = (run + start >= 32) ? 0 : x & ~(((1u << run) - 1) << start);
            }
        }
        return total;
    }
    for (int c = 0; c < side; c++) {
        int run = 0;
        for (int r = 0; r < side; r++) {
            if (free_rows[r] >> c & 1) {
                run++;
            } else {
                total += run / 4;
                run = 0;
            }
        }
        total += run / 4;
    }
    return total;
}

/* The 4-connected part of `allowed` containing `seed`, which lies in row first_row. */
static void flood(const Search *S, const uint32_t *allowed, int first_row, uint32_t seed, uint32_t *region)
{
    int side = S->side, changed = 1;
    memset(region, 0, sizeof(uint32_t) * side);
    region[first_row] = seed;
    while (changed) {
        changed = 0;
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < side - first_row; i++) {
                int r = pass == 0 ? first_row + i : side - 1 - i;
                uint32_t x = region[r];
                if (r > first_row) x |= region[r - 1];
                if (r + 1 < side) x |= region[r + 1];
                x &= allowed[r];
                for (uint32_t wider; (wider = (x | x << 1 | x >> 1) & allowed[r]) != x;)
                    x = wider;
                if (x != region[r]) {
                    region[r] = x;
                    changed = 1;
                }
            }
        }
    }
}

/* What the remaining pieces can still do on this board.
 * dead:   free cells no remaining shape can cover: they stay empty in every completion;
 * waste:  a lower bound on the cells that stay empty: the dead ones plus k mod 4 per
 *         region of k coverable cells (a piece lies inside one region);
 * branch: the fewest-ways cell (fewer branches = smaller proofs): each placement
 *         covering it, or it stays empty.  (Branching on a shape type's placements
 *         instead, when it had fewer, made the two hardest proofs of the corpus 2.5-4x
 *         larger: those branches overlap, a completion can lie under several.) */
typedef struct {
    uint32_t dead[MAX_SIDE + 4];
    int dead_count, waste, hopeless;  /* hopeless: a bar type ran out of straight room */
    int branch_row, branch_col;
} Analysis;

#define COUNT_BITS 3  /* per-cell placement counters saturate at 2^3 */

/* Fills A; stops early (A->waste > spare or hopeless) as soon as the node is lost. */
static void analyse(const Search *S, int first_row, int spare, Analysis *A)
{
    int side = S->side;
    /* Bit-sliced per-cell count of fitting placements covering the cell: planes + saturation. */
    uint32_t free_rows[MAX_SIDE + 4] = {0}, plane[COUNT_BITS][MAX_SIDE + 4], many[MAX_SIDE + 4] = {0};
    memset(plane, 0, sizeof(plane));
    A->hopeless = 0;
    A->waste = A->dead_count = 0;
    for (int r = first_row; r < side; r++)
        free_rows[r] = ~S->board[r] & S->full_row;
    for (int t = 0; t < S->ntypes; t++) {
        const Type *T = &S->types[t];
        if (!S->counts[t])
            continue;
        int ways = 0;
        if (T->width <= side && T->height <= side) {
            uint32_t corners = (uint32_t)((1ull << (side - T->width + 1)) - 1);
            for (int r = first_row; r + T->height <= side; r++) {
                uint32_t fits = corners;
                for (int k = 0; k < 4; k++)
                    fits &= free_rows[r + T->cell_row[k]] >> T->cell_col[k];
                if (!fits)
                    continue;
                ways += popcount32(fits);
                for (int k = 0; k < 4; k++) {
                    int q = r + T->cell_row[k];
                    uint32_t carry = fits << T->cell_col[k];
                    for (int b = 0; b < COUNT_BITS; b++) {
                        uint32_t sum = plane[b][q] ^ carry;
                        carry &= plane[b][q];
                        plane[b][q] = sum;
                    }
                    many[q] |= carry;
                }
            }
        }
        if (ways == 0 || ((T->vertical_bar || T->horizontal_bar)
                          && S->counts[t] > bar_capacity(S, free_rows, T->vertical_bar))) {
            A->hopeless = 1;
            return;
        }
    }
    uint32_t usable[MAX_SIDE + 4] = {0}, region[MAX_SIDE + 4];
    memset(A->dead, 0, sizeof(A->dead));
    for (int r = first_row; r < side; r++) {
        uint32_t covered = many[r];
        for (int b = 0; b < COUNT_BITS; b++)
            covered |= plane[b][r];
        A->dead[r] = free_rows[r] & ~covered;
        A->dead_count += popcount32(A->dead[r]);
        usable[r] = free_rows[r] & covered;
    }
    A->waste = A->dead_count;
    if (A->waste > spare)
        return;
    /* The first cell with the fewest covering placements (1, 2, ... below saturation). */
    A->branch_row = -1;
    for (int ways = 1; ways < (1 << COUNT_BITS) && A->branch_row < 0; ways++) {
        for (int r = first_row; r < side; r++) {
            uint32_t m = usable[r] & ~many[r];
            for (int b = 0; b < COUNT_BITS; b++)
                m &= (ways >> b & 1) ? plane[b][r] : ~plane[b][r];
            if (m) {
                A->branch_row = r;
                A->branch_col = __builtin_ctz(m);
                break;
            }
        }
    }
    for (int r = first_row; r < side && A->branch_row < 0; r++)
        if (usable[r]) {
            A->branch_row = r;
            A->branch_col = __builtin_ctz(usable[r]);
        }
    for (int r = first_row; r < side; r++) {
        while (usable[r]) {
            flood(S, usable, r, usable[r] & -usable[r], region);
            int size = 0;
            for (int q = r; q < side; q++) {
                size += popcount32(region[q]);
                usable[q] &= ~region[q];
            }
            A->waste += size % 4;
            if (A->waste > spare)
                return;
        }
    }
}

/* 1 when a 2-periodic colouring proves the pieces cannot fill the free cells.
 * Colour cells +1/-1; a piece adds +-imbalance (its sign set by where it lies), each of
 * the `spare` cells left empty adds +-1, and together they must make the free cells' sum d.
 * Pieces of imbalance 2 and 4 reach every value in [-reach, reach] with step 4 (step 8
 * when all are 4s); empty cells shift that by any x in [-spare, spare] of spare's parity. */
static int colour_mismatch(const Search *S, int first_row, int spare)
{
    for (int k = 0; k < COLOURINGS; k++) {
        int d = 0, twos = 0, fours = 0;
        for (int r = first_row; r < S->side; r++) {
            uint32_t free_cells = ~S->board[r] & S->full_row;
            d += popcount32(free_cells & S->colour[k][r]) - popcount32(free_cells & ~S->colour[k][r]);
        }
        for (int t = 0; t < S->ntypes; t++) {
            if (S->types[t].imbalance[k] == 2) twos += S->counts[t];
            if (S->types[t].imbalance[k] == 4) fours += S->counts[t];
        }
        int reach = 2 * twos + 4 * fours, step = twos ? 4 : 8, balanced = 0;
        int low = -spare, high = spare < d + reach + 8 ? spare : d + reach + 8;
        if (low < d - reach - 8)
            low += (d - reach - 8 - low) / 2 * 2;  /* keeps spare's parity */
        for (int x = low; x <= high && !balanced; x += 2) {
            int y = d - x;
            balanced = reach == 0 ? y == 0 : (abs(y) <= reach && (y + reach) % step == 0);
        }
        if (!balanced)
            return 1;
    }
    return 0;
}

/* 1 when a 4-periodic stripe colouring proves the pieces cannot fit in the free cells.
 * Colour column c (or row r) with c mod 4: a piece whose box starts in class k puts
 * profile[j] cells in class (k + j) mod 4, so the vector of its cell counts per class is
 * a rotation of its profile.  The pieces' vectors must sum to some V <= F, F = the free
 * cells per class.  Exact over all rotations, by enumerating the reachable sums (each
 * kept <= F); gives up (no proof) when they are too many.  Costly: used on few nodes. */
static int stripe_mismatch_axis(Search *S, int first_row, int vertical)
{
    StripeSets *Z = S->stripes;
    int F[4] = {0, 0, 0, 0};
    for (int r = first_row; r < S->side; r++) {
        uint32_t free_cells = ~S->board[r] & S->full_row;
        if (vertical)
            for (int j = 0; j < 4; j++)
                F[j] += popcount32(free_cells & (0x11111111u << j));
        else
            F[r % 4] += popcount32(free_cells);
    }
    int n = 1, cur = 0;
    Z->list[0][0] = 0;
    for (int t = 0; t < S->ntypes; t++) {
        const Type *T = &S->types[t];
        const int *profile = vertical ? T->col_profile : T->row_profile;
        for (int copy = 0; copy < S->counts[t]; copy++) {
            int m = 0;
            Z->generation++;
            for (int i = 0; i < n; i++) {
                uint32_t v = Z->list[cur][i];
                for (int k = 0; k < 4; k++) {
                    uint32_t w = v;
                    int ok = 1;
                    for (int j = 0; j < 4 && ok; j++) {
                        int cls = (k + j) & 3, value = (int)(w >> (8 * cls) & 0xFF) + profile[j];
                        ok = value <= F[cls];
                        w += (uint32_t)profile[j] << (8 * cls);
                    }
                    if (!ok)
                        continue;
                    uint32_t h = (w * 0x9E3779B1u) >> 16;
                    while (Z->stamp[h] == Z->generation && Z->key[h] != w)
                        h = (h + 1) & (STRIPE_SLOTS - 1);
                    if (Z->stamp[h] == Z->generation)
                        continue;
                    if (m == STRIPE_MAX)
                        return 0;
                    Z->stamp[h] = Z->generation;
                    Z->key[h] = w;
                    Z->list[1 - cur][m++] = w;
                }
            }
            if (m == 0)
                return 1;
            n = m;
            cur = 1 - cur;
        }
    }
    return 0;
}

static int stripe_mismatch(Search *S, int first_row)
{
    return stripe_mismatch_axis(S, first_row, 1) || stripe_mismatch_axis(S, first_row, 0);
}

/* 1 when the LP dual certificate proves that the remaining pieces cannot all be placed.
 * The certificate (reference/lp_bound.py) holds weights Y(cell) >= 0, U(type) >= 0 and
 * scale M such that every placement p of a type t inside the square has
 * Y(cells of p) + U(t) >= M (checked exactly in Python).  Placements inside the free
 * cells are disjoint, so if all remaining pieces fit, the sum of those inequalities gives
 * remaining * M <= Y(free cells) + sum over types of count * U.  When the right side is
 * smaller, no packing exists.  This is the LP relaxation's bound with the root's dual:
 * weaker than the node's own LP, but a sum over the free cells. */
static int weights_exclude(const Search *S, int first_row, int remaining)
{
    if (S->weight_scale <= 0)
        return 0;
    int64_t total = 0;
    for (int r = first_row; r < S->side; r++)
        for (uint32_t x = ~S->board[r] & S->full_row; x; x &= x - 1)
            total += S->cell_weight[r * S->side + __builtin_ctz(x)];
    for (int t = 0; t < S->ntypes; t++)
        total += S->counts[t] * S->type_weight[t];
    return total < remaining * S->weight_scale;
}

/* 1 when the line counts of the rows (reference/_lines.h) prove that the remaining pieces
 * cannot fit on the board.  The states searched count as nodes, so that a node budget stays
 * a measure of the work done.  (The columns as well: more time than they saved, e.g. on
 * the hard corner question of nhnhnnnnjnhjoonjjohjojnjnj 0.35 -> 0.40 s, and on
 * restricted_j270_l180_j180_j0_mixed_23's questions 2.9 -> 3.8 s.) */
static int lines_mismatch(Search *S, int first_row)
{
    if (S->line_classes.classes > LINE_MAX_CLASSES)
        return 0;
    LineQuestion Q = {.X = &S->line_classes, .memo = &S->line_memo, .lines = S->side};
    for (int r = first_row; r < S->side; r++)
        Q.free[r] = popcount32(~S->board[r] & S->full_row);
    int refuted = line_counts_refute(&Q, S->counts, S->ntypes);
    S->nodes += Q.states;
    return refuted;
}

/* ---- searches ------------------------------------------------------------ */

static int fits_at(const Search *S, const Type *T, int row, int left)
{
    for (int i = 0; i < T->height; i++)
        if (S->board[row + i] & (T->rows[i] << left))
            return 0;
    return 1;
}

static void toggle(Search *S, const Type *T, int row, int left)
{
    for (int i = 0; i < T->height; i++)
        S->board[row + i] ^= T->rows[i] << left;
}

/* Order-free: can the multiset `counts` (`remaining` pieces) be placed on the board,
 * `free_cells` cells being empty?  `depth`: levels below the caller's first call.  Dead cells are filled at once (they stay empty in
 * every completion); then branch on one cell: each fitting placement covering it, or
 * the cell stays empty when the spare budget allows.  Failures are memoised. */
static int fillable(Search *S, int remaining, int free_cells, int depth)
{
    if (remaining == 0) {
        S->packing_len = S->path_len;
        memcpy(S->packing_type, S->path_type, sizeof(int) * (size_t)S->path_len);
        memcpy(S->packing_corner, S->path_corner, sizeof(int) * (size_t)S->path_len);
        return 1;
    }
    if (free_cells < 4 * remaining)
        return 0;
    int first_row = 0, spare = free_cells - 4 * remaining, done = 0;
    while (S->board[first_row] == S->full_row)
        first_row++;
    if (S->node_budget && S->nodes >= S->node_budget) {
        S->gave_up = 1;
        return 0;
    }
    S->nodes++;
    fill_nodes++;
    uint64_t key[MAX_SIDE * MAX_SIDE / 64 + TAIL_WORDS], tail0, tail1;
    counts_tail(S, &tail0, &tail1);
    make_key(S, tail0, tail1, key);
    if (memo_contains(&S->fill_failed, key))
        return 0;
    if (colour_mismatch(S, first_row, spare) || weights_exclude(S, first_row, remaining))
        return 0;
    if (depth <= STRIPE_DEPTH && spare <= STRIPE_SPARE && stripe_mismatch(S, first_row)) {
        memo_insert(&S->fill_failed, key);
        return 0;
    }
    Analysis A;
    analyse(S, first_row, spare, &A);
    if (A.hopeless || A.waste > spare)
        return 0;  /* cheap to see again: not worth a memo slot */
    {
        for (int r = first_row; r < S->side; r++)
            S->board[r] |= A.dead[r];
        free_cells -= A.dead_count;
        spare -= A.dead_count;
        int row = A.branch_row, col = A.branch_col;
        /* a refuted node branches on nothing (done stays 0; the memo keeps the failure) */
        int refuted = spare <= LINE_SPARE && lines_mismatch(S, first_row);
        for (int t = 0; t < S->ntypes && !done && !refuted; t++) {
            const Type *T = &S->types[t];
            if (!S->counts[t])
                continue;
            for (int k = 0; k < 4 && !done; k++) {
                int top = row - T->cell_row[k], left = col - T->cell_col[k];
                if (top < 0 || left < 0 || top + T->height > S->side || left + T->width > S->side
                    || !fits_at(S, T, top, left))
                    continue;
                toggle(S, T, top, left);
                S->counts[t]--;
                S->path_type[S->path_len] = t;
                S->path_corner[S->path_len++] = top * S->side + left;
                done = fillable(S, remaining - 1, free_cells - 4, depth + 1);
                S->path_len--;
                S->counts[t]++;
                toggle(S, T, top, left);
            }
        }
        if (!done && !refuted && spare > 0) {
            S->board[row] |= 1u << col;
            done = fillable(S, remaining, free_cells - 1, depth + 1);
            S->board[row] &= ~(1u << col);
        }
        for (int r = first_row; r < S->side; r++)
            S->board[r] &= ~A.dead[r];
        if (done)
            return 1;
    }
    if (S->gave_up)
        return 0;  /* not a proof: nothing to remember */
    memo_insert(&S->fill_failed, key);
    return 0;
}


/* The seed's order: piece `index` at its first row-major corner from which the
 * rest can still be packed (order-free check), then the next piece.  A piece
 * identical to an earlier one goes strictly after it (swapping identical pieces
 * maps solutions to solutions; the first one has them in increasing order). */
static int ordered(Search *S, int index, int free_cells)
{
    if (index == S->npieces)
        return 1;
    int t = S->piece_type[index], side = S->side;
    const Type *T = &S->types[t];
    order_nodes++;
    int start = S->previous_same[index] >= 0 ? S->anchor[S->previous_same[index]] + 1 : 0;
    uint64_t key[MAX_SIDE * MAX_SIDE / 64 + TAIL_WORDS];
    make_key(S, (uint64_t)index | (uint64_t)start << 8, 0, key);
    if (memo_contains(&S->order_failed, key))
        return 0;
    for (int corner = start; corner < S->cells; corner++) {
        int row = corner / side, left = corner % side;
        if (row + T->height > side)
            break;
        if (left + T->width > side || !fits_at(S, T, row, left))
            continue;
        toggle(S, T, row, left);
        S->counts[t]--;
        S->anchor[index] = corner;
        int done = fillable(S, S->npieces - index - 1, free_cells - 4, 0) && ordered(S, index + 1, free_cells - 4);
        S->counts[t]++;
        toggle(S, T, row, left);
        if (done)
            return 1;
        if (S->gave_up)
            return 0;
    }
    memo_insert(&S->order_failed, key);
    return 0;
}

/* ---- Python glue --------------------------------------------------------- */

static int read_type(PyObject *cells, Type *T)
{
    PyObject *seq = PySequence_Fast(cells, "a type is a sequence of (row, col) cells");
    if (!seq)
        return 0;
    memset(T, 0, sizeof(*T));
    int ok = PySequence_Fast_GET_SIZE(seq) == 4;
    for (int k = 0; ok && k < 4; k++) {
        int r, c;
        ok = PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, k), "ii", &r, &c) && r >= 0 && r < 4 && c >= 0 && c < 4;
        if (ok) {
            T->cell_row[k] = r;
            T->cell_col[k] = c;
            T->rows[r] |= 1u << c;
            if (r + 1 > T->height) T->height = r + 1;
            if (c + 1 > T->width) T->width = c + 1;
        }
    }
    Py_DECREF(seq);
    if (!ok) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "a type is 4 distinct cells inside a 4x4 box");
        return 0;
    }
    /* Cells sorted row-major and the box at (0, 0): the first cell is in row 0. */
    T->first_col = T->cell_col[0];
    T->vertical_bar = T->width == 1;
    T->horizontal_bar = T->height == 1;
    for (int k = 0; k < 4; k++) {
        int r = T->cell_row[k], c = T->cell_col[k];
        T->imbalance[0] += (r + c) % 2 ? -1 : 1;
        T->imbalance[1] += c % 2 ? -1 : 1;
        T->imbalance[2] += r % 2 ? -1 : 1;
    }
    for (int i = 0; i < COLOURINGS; i++)
        T->imbalance[i] = abs(T->imbalance[i]);
    for (int k = 0; k < 4; k++) {
        T->col_profile[T->cell_col[k]]++;
        T->row_profile[T->cell_row[k]]++;
    }
    return 1;
}

/* Reads weights = (cell_weights, type_weights, scale): side*side and ntypes integers >= 0. */
static int read_weights(PyObject *weights, Search *S)
{
    PyObject *cells, *types;
    long long scale;
    if (!PyArg_ParseTuple(weights, "OOL", &cells, &types, &scale))
        return 0;
    PyObject *cell_seq = PySequence_Fast(cells, "cell weights must be a sequence");
    PyObject *type_seq = cell_seq ? PySequence_Fast(types, "type weights must be a sequence") : NULL;
    int ok = type_seq && PySequence_Fast_GET_SIZE(cell_seq) == S->cells
             && PySequence_Fast_GET_SIZE(type_seq) == S->ntypes && scale >= 0;
    for (int i = 0; ok && i < S->cells + S->ntypes; i++) {
        PyObject *item = i < S->cells ? PySequence_Fast_GET_ITEM(cell_seq, i)
                                      : PySequence_Fast_GET_ITEM(type_seq, i - S->cells);
        long long w = PyLong_AsLongLong(item);
        ok = w >= 0 && w < (1ll << 40);
        if (i < S->cells)
            S->cell_weight[i] = w;
        else
            S->type_weight[i - S->cells] = w;
    }
    Py_XDECREF(cell_seq);
    Py_XDECREF(type_seq);
    if (!ok && !PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "weights: side*side and ntypes integers in [0, 2**40), scale >= 0");
    S->weight_scale = ok ? scale : 0;
    return ok;
}

/* The part of a search shared by both entry points: the square, the shape types, the
 * optional certificate and budget, the memos.  0 with a Python exception set on failure. */
static int start_search(Search *S, PyObject *types, int side, PyObject *weights, long long budget)
{
    if (side < 1 || side > MAX_SIDE) {
        PyErr_Format(PyExc_ValueError, "side must be 1..%d", MAX_SIDE);
        return 0;
    }
    S->side = side;
    S->cells = side * side;
    S->full_row = (uint32_t)((1ull << side) - 1);
    S->board_words = (S->cells + 63) / 64;
    for (int r = 0; r < side; r++) {
        S->colour[0][r] = (r % 2 ? 0xAAAAAAAAu : 0x55555555u) & S->full_row;
        S->colour[1][r] = 0x55555555u & S->full_row;
        S->colour[2][r] = r % 2 ? 0 : S->full_row;
    }
    PyObject *type_seq = PySequence_Fast(types, "types must be a sequence");
    if (!type_seq)
        return 0;
    S->ntypes = (int)PySequence_Fast_GET_SIZE(type_seq);
    int ok = S->ntypes <= MAX_TYPES;
    if (!ok)
        PyErr_SetString(PyExc_ValueError, "too many types");
    for (int t = 0; ok && t < S->ntypes; t++)
        ok = read_type(PySequence_Fast_GET_ITEM(type_seq, t), &S->types[t]);
    Py_DECREF(type_seq);
    if (!ok || (weights != Py_None && !read_weights(weights, S)))
        return 0;
    int rows[MAX_TYPES][4], cols[MAX_TYPES][4];
    for (int t = 0; t < S->ntypes; t++)
        for (int k = 0; k < 4; k++) {
            rows[t][k] = S->types[t].cell_row[k];
            cols[t][k] = S->types[t].cell_col[k];
        }
    line_classes_init(&S->line_classes, S->ntypes, (const int (*)[4])rows, (const int (*)[4])cols, 0);
    S->node_budget = budget > 0 ? budget : 0;
    S->stripes = calloc(1, sizeof(StripeSets));
    if (!S->stripes || !memo_init(&S->fill_failed, S->board_words + TAIL_WORDS)
        || !memo_init(&S->order_failed, S->board_words + TAIL_WORDS)) {
        PyErr_NoMemory();
        return 0;
    }
    fill_nodes = order_nodes = 0;
    return 1;
}

static void end_search(Search *S)
{
    free(S->fill_failed.slots);
    free(S->order_failed.slots);
    free(S->stripes);
    line_memo_free(&S->line_memo);
    free(S);
}

static PyObject *solve_at_side(PyObject *self, PyObject *args)
{
    PyObject *types, *piece_types, *weights = Py_None;
    int side;
    long long budget = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOi|LO", &types, &piece_types, &side, &budget, &weights))
        return NULL;
    Search *S = calloc(1, sizeof(Search));
    if (!S)
        return PyErr_NoMemory();
    PyObject *result = NULL;
    PyObject *piece_seq = NULL;
    if (!start_search(S, types, side, weights, budget))
        goto done;
    piece_seq = PySequence_Fast(piece_types, "piece_types must be a sequence");
    if (!piece_seq)
        goto done;
    S->npieces = (int)PySequence_Fast_GET_SIZE(piece_seq);
    if (S->npieces > MAX_PIECES) {
        PyErr_SetString(PyExc_ValueError, "too many pieces");
        goto done;
    }
    for (int i = 0; i < S->npieces; i++) {
        long t = PyLong_AsLong(PySequence_Fast_GET_ITEM(piece_seq, i));
        if (t < 0 || t >= S->ntypes) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "piece type out of range");
            goto done;
        }
        S->piece_type[i] = (int)t;
        S->previous_same[i] = -1;
        for (int j = i - 1; j >= 0 && S->previous_same[i] < 0; j--)
            if (S->piece_type[j] == t)
                S->previous_same[i] = j;
        if (++S->counts[t] > MAX_COUNT) {
            PyErr_SetString(PyExc_ValueError, "too many pieces of one type");
            goto done;
        }
    }
    int found;
    Py_BEGIN_ALLOW_THREADS
    found = S->npieces == 0 || (fillable(S, S->npieces, S->cells, 0) && ordered(S, 0, S->cells));
    Py_END_ALLOW_THREADS
    if (!found) {
        result = Py_NewRef(S->gave_up ? Py_False : Py_None);
        goto done;
    }
    result = PyTuple_New(S->npieces);
    for (int i = 0; result && i < S->npieces; i++) {
        PyObject *corner = Py_BuildValue("(ii)", S->anchor[i] / side, S->anchor[i] % side);
        if (!corner) {
            Py_CLEAR(result);
            break;
        }
        PyTuple_SET_ITEM(result, i, corner);
    }
done:
    Py_XDECREF(piece_seq);
    end_search(S);
    return result;
}

/* One order-free question on S: counts[t] pieces of each type into the cells not in
 * `occupied`, within `budget` nodes (0: none).  S's memos are kept: a failed state is a
 * fact about (board, counts), whatever question reached it.  Returns a new reference to
 * True, False or None (out of budget), NULL with an exception set. */
static PyObject *ask_packable(Search *S, PyObject *counts, PyObject *occupied, long long budget)
{
    PyObject *result = NULL, *count_seq = PySequence_Fast(counts, "counts must be a sequence");
    PyObject *cell_seq = count_seq ? PySequence_Fast(occupied, "occupied must be a sequence of cell indices") : NULL;
    if (!cell_seq)
        goto done;
    int remaining = 0, taken = 0;
    if (PySequence_Fast_GET_SIZE(count_seq) != S->ntypes) {
        PyErr_SetString(PyExc_ValueError, "one count per type");
        goto done;
    }
    memset(S->board, 0, sizeof(S->board));
    for (int t = 0; t < S->ntypes; t++) {
        long n = PyLong_AsLong(PySequence_Fast_GET_ITEM(count_seq, t));
        if (n < 0 || n > MAX_COUNT) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a count is 0..31");
            goto done;
        }
        S->counts[t] = (int)n;
        remaining += (int)n;
    }
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(cell_seq); i++) {
        long cell = PyLong_AsLong(PySequence_Fast_GET_ITEM(cell_seq, i));
        if (cell < 0 || cell >= S->cells) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "cell index out of the square");
            goto done;
        }
        taken += !(S->board[cell / S->side] >> (cell % S->side) & 1);
        S->board[cell / S->side] |= 1u << (cell % S->side);
    }
    S->node_budget = budget > 0 ? budget : 0;
    S->nodes = 0;
    S->gave_up = 0;
    S->path_len = S->packing_len = 0;
    int found;
    Py_BEGIN_ALLOW_THREADS
    found = fillable(S, remaining, S->cells - taken, 0);
    Py_END_ALLOW_THREADS
    result = Py_NewRef(found ? Py_True : S->gave_up ? Py_None : Py_False);
done:
    Py_XDECREF(count_seq);
    Py_XDECREF(cell_seq);
    return result;
}

/* The order-free search alone, on a board with some cells already taken. */
static PyObject *packable(PyObject *self, PyObject *args)
{
    PyObject *types, *counts, *occupied, *weights = Py_None;
    int side;
    long long budget = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOiO|LO", &types, &counts, &side, &occupied, &budget, &weights))
        return NULL;
    Search *S = calloc(1, sizeof(Search));
    if (!S)
        return PyErr_NoMemory();
    PyObject *result = start_search(S, types, side, weights, 0) ? ask_packable(S, counts, occupied, budget) : NULL;
    end_search(S);
    return result;
}

/* Packer: one side's order-free search kept between questions, so that the failed states
 * one question proves serve the next (`reference.staged` asks many at one side). */
typedef struct {
    PyObject_HEAD
    Search *search;
} Packer;

static int Packer_init(Packer *self, PyObject *args, PyObject *kwds)
{
    PyObject *types, *weights = Py_None;
    int side;
    if (kwds && PyDict_Size(kwds)) {
        PyErr_SetString(PyExc_TypeError, "Packer takes positional arguments only");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "Oi|O", &types, &side, &weights))
        return -1;
    if (self->search)
        end_search(self->search);
    self->search = calloc(1, sizeof(Search));
    if (!self->search) {
        PyErr_NoMemory();
        return -1;
    }
    if (!start_search(self->search, types, side, weights, 0)) {
        end_search(self->search);
        self->search = NULL;
        return -1;
    }
    return 0;
}

static void Packer_dealloc(Packer *self)
{
    if (self->search)
        end_search(self->search);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Packer_packable(Packer *self, PyObject *args)
{
    PyObject *counts, *occupied;
    long long budget = 0;
    if (!PyArg_ParseTuple(args, "OO|L", &counts, &occupied, &budget))
        return NULL;
    if (!self->search) {
        PyErr_SetString(PyExc_RuntimeError, "Packer is not initialised");
        return NULL;
    }
    return ask_packable(self->search, counts, occupied, budget);
}

static PyObject *Packer_last_nodes(Packer *self, PyObject *unused)
{
    (void)unused;
    return PyLong_FromLongLong(self->search ? self->search->nodes : 0);
}

/* The packing the last packable() call found, as ((type, corner), ...), corners row-major;
 * None when it found none. */
static PyObject *Packer_packing(Packer *self, PyObject *unused)
{
    (void)unused;
    const Search *S = self->search;
    if (!S || !S->packing_len)
        Py_RETURN_NONE;
    PyObject *packing = PyTuple_New(S->packing_len);
    for (int i = 0; packing && i < S->packing_len; i++) {
        PyObject *placed = Py_BuildValue("(ii)", S->packing_type[i], S->packing_corner[i]);
        if (!placed) {
            Py_CLEAR(packing);
            break;
        }
        PyTuple_SET_ITEM(packing, i, placed);
    }
    return packing;
}

static PyMethodDef Packer_methods[] = {
    {"packing", (PyCFunction)Packer_packing, METH_NOARGS,
     "packing() -> ((type, corner), ...) or None: the packing the last packable() call found\n"
     "(corners row-major), the witness of its True; None after False or None."},
    {"last_nodes", (PyCFunction)Packer_last_nodes, METH_NOARGS,
     "last_nodes() -> the order-free nodes the last packable() call searched"},
    {"packable", (PyCFunction)Packer_packable, METH_VARARGS,
     "packable(counts, occupied, budget=0) -> True, False or None\n\n"
     "As the module's packable() at this Packer's side, with the failed states of the\n"
     "earlier questions remembered."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject PackerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "reference._fastsolve.Packer",
    .tp_doc = "Packer(types, side, weights=None): the order-free search at one side, its memo kept.",
    .tp_basicsize = sizeof(Packer),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Packer_init,
    .tp_dealloc = (destructor)Packer_dealloc,
    .tp_methods = Packer_methods,
};

static PyObject *last_stats(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return Py_BuildValue("{sLsL}", "fill_nodes", fill_nodes, "order_nodes", order_nodes);
}

static PyMethodDef methods[] = {
    {"last_stats", last_stats, METH_NOARGS,
     "last_stats() -> {'fill_nodes': ..., 'order_nodes': ...} of the last solve_at_side call."},
    {"packable", packable, METH_VARARGS,
     "packable(types, counts, side, occupied, budget=0, weights=None) -> True, False or None\n\n"
     "Whether counts[t] pieces of each type fit in the square's cells not in `occupied`\n"
     "(row-major indices); None when `budget` order-free nodes did not decide."},
    {"solve_at_side", solve_at_side, METH_VARARGS,
     "solve_at_side(types, piece_types, side, budget=0, weights=None) -> ((row, col), ...), None or False\n\n"
     "The upper-left-first placement of the pieces in a side x side square; None when there is\n"
     "none, False when `budget` order-free nodes did not decide."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "reference._fastsolve",
    "Compiled core of the reference solver (see reference/search.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fastsolve(void)
{
    if (PyType_Ready(&PackerType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddObjectRef(m, "Packer", (PyObject *)&PackerType) < 0)
        Py_CLEAR(m);
    return m;
}
