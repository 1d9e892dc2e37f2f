/*
 * reference._profile -- order-free questions answered by a profile DP over the cells.
 *
 *     first_corner(types, counts, side, occupied, min_corner, target, budget, weights=None,
 *                  room=None, lines=None, orientation=-1, last_corner=-1) -> int, None or False
 *     window_direction(types, side) -> 0 or 1: the scan's direction when not given one
 *     Room(types, counts, side, orientation=-1): the suffix bound's memo, kept by the caller
 *         for all the scans of one side (the same types, at most these counts of the types
 *         it has, the same orientation)
 *     Lines(): the line-count bound's memo, kept by the caller for the scans of one side
 *     Scan(types, counts, side, occupied, min_corner, target, weights=None, lines=None,
 *          orientation=-1, last_corner=-1, keep=ARCHIVE_MAX): first_corner's question as a
 *         scan kept between budgets; .advance(budget, room=None) -> as first_corner, resuming
 *         where the last budget stopped it; .work: the states it has taken from its layers
 *         (its cost so far); .cell: the cell (in its order) whose layer it stands at (how far
 *         a budget took it); .packing: once it answered with one, a packing with its target
 *         piece at the answer, traced back through its layers (kept while they hold at most
 *         `keep` states: its "Archive" section), else None
 *     line_counts(types, counts, side, occupied, vertical, lines=None) -> bool: that bound
 *         alone, on one board (for tests)
 *     beam(types, counts, side, occupied, min_corner, width, weights=None, lines=None,
 *          orientation=-1) -> (packing or None, work): the scan with each layer cut to its
 *         `width` least costly states, a finder of packings (its "Beam" section)
 *
 * Cells are scanned in one fixed order: row-major, column-major, or either on the square
 * turned (the caller's choice, `orientation`; by default whichever of the first two keeps
 * the window below over fewer lines: vertical bars).  Every piece is
 * placed when the scan reaches its first cell in that order, so when the scan is at cell
 * k, cells before k are settled (covered, occupied or left empty) and the only thing that
 * matters for the rest is
 *
 *     F = which cells k, k+1, ... are already covered (a window of at most 64 cells:
 *         a piece reaches at most 3 rows or columns past its first cell), and
 *     C = how many pieces of each type are still to place.
 *
 * Two paths that reach the same (k, F, C) have the same completions, so the states of one
 * cell are kept in a hash table (one "layer") and the next layer is made from it: cell k
 * is covered already, or left empty, or it is the first cell of a placement that fits.
 * That is the whole search, without branching order or memo: the layers are exactly the
 * (F, C) that some partial packing reaches, so "no state with C = 0 at the end" proves
 * that no packing exists.  Free cells that no placement covers at all (holes between the
 * occupied cells) are occupied from the start, for every bound below.  Pruned, soundly
 * (a dropped state has no completion the layers keep no other way): a state is dropped
 * when its uncovered free cells, less those no placement can cover any more
 * (dead_cells: they stay empty in every completion), are
 * fewer than 4 x (pieces still to place), or fail the LP certificate (weights_exclude), or
 * when the pieces' profiles cannot be shifted onto the free cells left in each line of the
 * scan (lines_refute: reference/_lines.h, exact counts per type, cheap once its memo has
 * seen the side), or when the rest of the square cannot hold that many pieces even in the
 * best mix of types (room: it sees the waste the frontier forces beyond the window, but
 * its memo costs about a second to build at side 11), or when the layer holds the same
 * state with one cell fewer covered (dominated).  The bounds are asked when a choice (a
 * cell left empty, a placement) makes a state, once per state of a layer: a state moving
 * past a covered cell asks the same question at the next cell (the same free cells, the
 * same pieces), and asking it again there cost a quarter of the restricted files' time
 * (docs/BENCHMARKS.md, "Tenth pass").
 *
 * target >= 0 asks for more than yes/no: the smallest corner (row-major index of the
 * bounding box's top-left) of a `target` piece over all packings.  Each state carries the
 * smallest corner of a `target` placement on a path reaching it; paths merging in one
 * state keep the smallest (the future does not depend on it), so the end state carries
 * the smallest over all packings.  target < 0: plain feasibility, the answer is 0.
 * last_corner >= 0 (with a target) asks the same over the packings whose `target` piece
 * lies at a corner <= last_corner: once the scan is past the last cell where such a
 * placement can start, the states without one are dropped.  Along the rows that is a few
 * cells past last_corner, so a window of corners is scanned at about the cost of one
 * corner's question (the piece fixed there), where the question over all corners keeps,
 * to the end of the square, the states whose target piece is still to come.
 *
 * counts:     pieces to place per type;
 * occupied:   row-major indices of cells that are not free;
 * min_corner: per type, the smallest row-major corner a placement of that type may have
 *             (0: no limit): the caller's ordering of identical pieces
 *             (reference/staged.py says why it is sound);
 * weights:    optional (cell_weights, type_weights, scale), a verified packing-LP dual
 *             certificate (reference/lp_bound.py), checked at every state;
 * budget:     give up (False) when one layer holds more states than that (0: no limit).
 *             The layers of a file grow for the first rows and then shrink; those of a
 *             file the DP cannot afford blow up within the first rows, so it gives up early.
 * room:       optional Room made for these types at this side (with the counts of some
 *             of the types, 0 for the others, it bounds the state's pieces of those types
 *             alone); none: no room() bound;
 * lines:      optional Lines, the line-count memo shared by the scans of a side; without
 *             one, each call makes its own;
 * orientation: 0 scan the rows, 1 the columns; 2-7 the rows and columns of the square
 *             turned 1-3 quarters clockwise (scan_cell; the answer is the same question's,
 *             only the cost differs); -1 (default) whichever of 0 and 1 keeps the window
 *             over fewer lines, the rows when both reach as far.
 * Returns None when no packing exists.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIDE 20        /* a 4-row piece then spans at most 3 * 20 + 4 = 64 cells */
#define MAX_CELLS (MAX_SIDE * MAX_SIDE)
#define MAX_TYPES 19
#include "_lines.h"
#define NO_TARGET 0xFFFF   /* attribute: no target placement yet on this path */
#ifndef ROOM_CAP_COMBOS
#define ROOM_CAP_COMBOS 8  /* room(): at most this many count vectors of its capped types */
#endif

/* One layer's states, in an open-addressing hash table of three parallel arrays: the
 * lookups (most of the DP's time: a state's successors, and its dominated() checks, which
 * mostly miss) read the one-byte tags first, which stay in cache where the 16-byte keys of
 * a large layer do not (measured: 60 ns a lookup with 24-byte entries). */
typedef struct {
    uint64_t covered, counts;  /* counts: one bit field per type, `rem` in the top byte */
} Key;

typedef struct {
    Key *keys;
    uint16_t *attributes;
    uint8_t *tags;  /* 0: empty slot, else 8 bits of the key's hash (never 0) */
    size_t capacity, size;
} Layer;

typedef struct {
    int type, corner;  /* corner: row-major index of the bounding box's top-left */
    uint64_t mask;     /* bit j = scan cell first + j */
} Option;

typedef struct {
    int cells, types, side, orientation;  /* orientation: scan_cell's */
    int field_shift[MAX_TYPES];
    uint64_t field_mask[MAX_TYPES];
    int free_from[MAX_CELLS + 1];  /* free cells with index >= k */
    LineClasses lines;             /* the types' profiles along the scan's lines (rows, or columns) */
    unsigned char occupied[MAX_CELLS];
    Option *options;               /* placements by first cell */
    int option_start[MAX_CELLS + 1];
    /* For the dead-cell bound (dead_cells): bit i = cell k + i. */
    int offset[MAX_TYPES][4];            /* cell i of a type, relative to its first cell */
    uint64_t free_window[MAX_CELLS];     /* the free cells of the square */
    uint64_t occupied_window[MAX_CELLS]; /* its occupied cells (room() on a shared memo) */
    uint64_t first_window[MAX_TYPES][MAX_CELLS];  /* first cells of allowed placements */
    uint64_t judged;                     /* cells whose covering placements all fit the window */
    /* room(): its cap vectors a (combos of them) as mixed-radix indices, cap_unit[t] the
     * weight of capped type t's digit (0: not capped); cap_ok[t][a]: a type-t piece is
     * allowed under a, and cap_less[t][a] is a with one type-t piece used. */
    int combos;
    unsigned cap_unit[MAX_TYPES];
    unsigned char cap_ok[MAX_TYPES][ROOM_CAP_COMBOS], cap_less[MAX_TYPES][ROOM_CAP_COMBOS];
    /* A packing-LP dual certificate (reference/lp_bound.py), scale 0 when there is none. */
    int64_t cell_weight[MAX_CELLS + 64], weight_from[MAX_CELLS + 1], type_weight[MAX_TYPES], scale;
} Board;

static uint64_t hash_entry(uint64_t covered, uint64_t counts)
{
    uint64_t h = (covered ^ (counts * 0x9E3779B97F4A7C15ull)) * 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 31);
}

static int layer_init(Layer *L, size_t capacity)
{
    L->capacity = capacity;
    L->size = 0;
    L->keys = malloc(capacity * sizeof(Key));
    L->attributes = malloc(capacity * sizeof(uint16_t));
    L->tags = calloc(capacity, 1);
    return L->keys && L->attributes && L->tags;
}

static void layer_free(Layer *L)
{
    free(L->keys);
    free(L->attributes);
    free(L->tags);
}

static void layer_clear(Layer *L)
{
    memset(L->tags, 0, L->capacity);
    L->size = 0;
}

/* The slot holding this key, or the empty slot where it would go (its tag then 0). */
static size_t layer_slot(const Layer *L, uint64_t covered, uint64_t counts, uint8_t *tag)
{
    uint64_t h = hash_entry(covered, counts);
    size_t mask = L->capacity - 1, i = h & mask;
    *tag = (uint8_t)(h >> 56) | 1;
    while (L->tags[i] && (L->tags[i] != *tag || L->keys[i].covered != covered || L->keys[i].counts != counts))
        i = (i + 1) & mask;
    return i;
}

/* Adds a state (keeping the smaller attribute); 0 when memory runs out. */
static int layer_add(Layer *L, uint64_t covered, uint64_t counts, uint16_t attribute)
{
    uint8_t tag;
    if (2 * (L->size + 1) > L->capacity) {
        Layer grown;
        if (!layer_init(&grown, 2 * L->capacity)) {
            layer_free(&grown);
            return 0;
        }
        for (size_t i = 0; i < L->capacity; i++)
            if (L->tags[i]) {
                size_t j = layer_slot(&grown, L->keys[i].covered, L->keys[i].counts, &tag);
                grown.tags[j] = tag;
                grown.keys[j] = L->keys[i];
                grown.attributes[j] = L->attributes[i];
            }
        grown.size = L->size;
        layer_free(L);
        *L = grown;
    }
    size_t i = layer_slot(L, covered, counts, &tag);
    if (!L->tags[i]) {
        L->tags[i] = tag;
        L->keys[i].covered = covered;
        L->keys[i].counts = counts;
        L->attributes[i] = attribute;
        L->size++;
    } else if (attribute < L->attributes[i]) {
        L->attributes[i] = attribute;
    }
    return 1;
}

/* Free cells ahead that no placement can cover any more: they stay empty in every
 * completion.  A placement covering cell j >= k has its first cell in [k, j] (one before k
 * would be in F already), so for the cells of `judged` (those j whose every such placement
 * lies inside the 64-cell window) the window shows all of them: bit-parallel, each type's
 * fitting first cells are its allowed ones whose four cells are free and uncovered.
 * Returns them as a window mask. */
static uint64_t dead_cells(const Board *B, int k, uint64_t covered, uint64_t counts)
{
    uint64_t free_w = ~covered & B->free_window[k], coverable = 0;
    for (int t = 0; t < B->types; t++) {
        if (!(counts & B->field_mask[t]))
            continue;
        const int *d = B->offset[t];
        uint64_t fits = B->first_window[t][k] & free_w & (free_w >> d[1]) & (free_w >> d[2]) & (free_w >> d[3]);
        coverable |= fits | fits << d[1] | fits << d[2] | fits << d[3];
    }
    return free_w & ~coverable & B->judged;
}

/* 1 when the certificate proves the state has no completion.  Every placement p of type t
 * in the square has Y(cells of p) + U(t) >= M, and the pieces still to place would lie on
 * disjoint free cells, neither covered nor dead: summing, rem * M <= Y(those cells) +
 * sum of C(t) * U(t).  (The C core's weights_exclude makes the same check.) */
static int weights_exclude(const Board *B, int k, uint64_t taken, uint64_t counts, int rem)
{
    int64_t total = B->weight_from[k];
    for (uint64_t x = taken; x; x &= x - 1)
        total -= B->cell_weight[k + __builtin_ctzll(x)];
    for (int t = 0; t < B->types; t++)
        total += (int64_t)((counts & B->field_mask[t]) >> B->field_shift[t]) * B->type_weight[t];
    return total < rem * B->scale;
}

/* The suffix bound: room(k, F, a) = the most pieces that fit on the free cells >= k
 * outside F, of the scan's types in any mix, except that the capped types (those with the
 * fewest pieces, B->cap_*) are used at most a[t] times.  A state at cell k with window F,
 * counts C and rem pieces to place has no completion when room(k, F, C on the capped
 * types) < rem: a completion is such a packing of exactly rem pieces.  The window bound
 * and dead_cells only see the window; this sees the waste the rest of the square forces,
 * which kills nearly all the states of the files whose layers blow up.  Measured on
 * 26-piece L/T files at side 11, states half-way through the scan: 4 of 20 000 sampled
 * had a completion, and the bound without caps refuted every dead one sampled; on a file
 * with 1 J_90 and 2 L_0 (which pair well with its 12 L_90) the uncapped bound let 98% of
 * them through, capping those two types refuted 57 of 60.  Memoised on (k, F), one
 * value for every a at once (all a share the recursion's lookups, and the capped types'
 * vectors are few: on the five files of docs/BENCHMARKS.md's third pass that it was
 * measured on, 2.5-6 times fewer entries than one per (k, F, a)): far fewer than the DP's
 * states, which carry every count. */
#define ROOM_UNUSED 0xFF
typedef struct {
    uint64_t frontier;
    unsigned char room[ROOM_CAP_COMBOS];   /* room[a]; room[0] = ROOM_UNUSED: unused slot */
} RoomEntry;

/* One hash table per cell: room() recurses from cell k to k + 1, so the entries it reads
 * together sit in a few small tables (the build and the lookups a quarter faster than
 * with one table for all cells). */
typedef struct {
    RoomEntry *slots;
    size_t capacity, size;
} RoomTable;

typedef struct {
    RoomTable cell[MAX_CELLS];
    size_t size;   /* entries in all tables */
    size_t limit;  /* it stops growing at this size (at most ROOM_MEMO_MAX) */
    long long cuts; /* the states its values refuted so far: what it was worth */
} RoomMemo;

/* room()'s memo stops growing here at most (4M entries, 128 MB): unknown values are then
 * not used.  A Room's `limit` can stop it sooner, for one question (reference/side_questions.py). */
#define ROOM_MEMO_MAX ((size_t)1 << 22)
#define ROOM_MIN_LAYER 256

static RoomEntry *room_slot(const RoomTable *T, uint64_t frontier)
{
    size_t mask = T->capacity - 1, i = hash_entry(frontier, 0) & mask;
    while (T->slots[i].room[0] != ROOM_UNUSED && T->slots[i].frontier != frontier)
        i = (i + 1) & mask;
    return &T->slots[i];
}

static int room_table_init(RoomTable *T, size_t capacity)
{
    T->capacity = capacity;
    T->size = 0;
    T->slots = malloc(capacity * sizeof(RoomEntry));
    if (!T->slots)
        return 0;
    for (size_t i = 0; i < capacity; i++)
        T->slots[i].room[0] = ROOM_UNUSED;
    return 1;
}

static void room_free(RoomMemo *M)
{
    for (int k = 0; k < MAX_CELLS; k++)
        free(M->cell[k].slots);
}

static int room_store(RoomMemo *M, int k, uint64_t frontier, const unsigned char *values, int combos)
{
    RoomTable *T = &M->cell[k];
    if (2 * (T->size + 1) > T->capacity) {
        RoomTable grown;
        if (!room_table_init(&grown, T->capacity ? 2 * T->capacity : 256))
            return 0;
        for (size_t i = 0; i < T->capacity; i++)
            if (T->slots[i].room[0] != ROOM_UNUSED)
                *room_slot(&grown, T->slots[i].frontier) = T->slots[i];
        grown.size = T->size;
        free(T->slots);
        *T = grown;
    }
    RoomEntry *slot = room_slot(T, frontier);
    slot->frontier = frontier;
    memcpy(slot->room, values, (size_t)combos);
    T->size++;
    M->size++;
    return 1;
}

/* room(k, F, a) as above for every cap vector a, into out[a]: 1, or 0 when it is not known
 * (the memo is full or memory ran out): then the state is kept. */
static int room(const Board *B, RoomMemo *M, int k, uint64_t frontier, unsigned char *out)
{
    while (k < B->cells && ((frontier & 1) || B->occupied[k])) {
        frontier >>= 1;
        k++;
    }
    if (k >= B->cells) {
        memset(out, 0, (size_t)B->combos);
        return 1;
    }
    if (M->cell[k].capacity) {
        const RoomEntry *slot = room_slot(&M->cell[k], frontier);
        if (slot->room[0] != ROOM_UNUSED) {
            memcpy(out, slot->room, (size_t)B->combos);
            return 1;
        }
    }
    if (M->size >= M->limit)
        return 0;
    /* No more than the free cells ahead allow: stop searching once every a reaches that
     * (out[0], no capped piece allowed, is the smallest). */
    int most = (B->free_from[k] - __builtin_popcountll(frontier)) / 4;
    if (!room(B, M, k + 1, frontier >> 1, out))
        return 0;
    unsigned char child[ROOM_CAP_COMBOS];
    for (int o = B->option_start[k]; out[0] < most && o < B->option_start[k + 1]; o++) {
        const Option *p = &B->options[o];
        if (p->mask & frontier)
            continue;
        if (!room(B, M, k + 1, (frontier | p->mask) >> 1, child))
            return 0;
        const unsigned char *ok = B->cap_ok[p->type], *less = B->cap_less[p->type];
        for (int a = 0; a < B->combos; a++)
            if (ok[a] && child[less[a]] + 1 > out[a])
                out[a] = (unsigned char)(child[less[a]] + 1);
    }
    return room_store(M, k, frontier, out, B->combos);
}

/* The capped types' counts of a state of B as R's cap vector index (the same types). */
static unsigned room_caps(const Board *B, const Board *R, uint64_t counts)
{
    unsigned caps = 0;
    for (int t = 0; t < B->types; t++)
        if (R->cap_unit[t])
            caps += (unsigned)((counts & B->field_mask[t]) >> B->field_shift[t]) * R->cap_unit[t];
    return caps;
}

/* The pieces of a state of B still to place of R's types (those R has pieces of). */
static int pieces_of(const Board *B, const Board *R, uint64_t counts)
{
    int n = 0;
    for (int t = 0; t < B->types; t++)
        if (R->field_mask[t])
            n += (int)((counts & B->field_mask[t]) >> B->field_shift[t]);
    return n;
}

/* 1 when the layer holds the same state with one cell ahead fewer covered and an attribute
 * no larger: every completion of this state completes that one too (its free cells are a
 * superset), with the same or a smaller target corner, so this state adds nothing. */
static int dominated(const Layer *L, uint64_t covered, uint64_t counts, uint16_t attribute)
{
    uint8_t tag;
    for (uint64_t x = covered; x; x &= x - 1) {
        size_t other = layer_slot(L, covered & ~(x & -x), counts, &tag);
        if (L->tags[other] && L->attributes[other] <= attribute)
            return 1;
    }
    return 0;
}

/* 1 when the line counts (reference/_lines.h) prove that a state has no completion: the
 * scan's lines (rows, or columns: its orientation's) from cell k's on, less the cells the
 * window has taken (covered, or dead: they stay empty). */
static int lines_refute(const Board *B, LineMemo *memo, int k, uint64_t taken, uint64_t counts)
{
    LineQuestion Q = {.X = &B->lines, .memo = memo, .lines = B->side, .axis_tag = B->orientation};
    if (B->side > LINE_MAX_SIDE)
        return 0;
    int line = k / B->side, type_counts[MAX_TYPES];
    for (int l = line; l < B->side; l++)
        Q.free[l] = B->free_from[l * B->side] - B->free_from[(l + 1) * B->side];
    Q.free[line] = B->free_from[k] - B->free_from[(line + 1) * B->side];
    for (uint64_t x = taken; x; x &= x - 1)
        Q.free[(k + __builtin_ctzll(x)) / B->side]--;
    for (int t = 0; t < B->types; t++)
        type_counts[t] = (int)((counts & B->field_mask[t]) >> B->field_shift[t]);
    return line_counts_refute(&Q, type_counts, B->types);
}

/* ---- Archive: a scan's layers kept, to trace its packing back -------------------
 *
 * The layers keep no parents: a state's predecessors are few (the cell taken already, left
 * empty, or one placement from it per type), so once the scan ends with a packing, it is
 * found by reading the layers back from the end state, one predecessor a layer
 * (archive_trace).  The scan adds each state of a layer as it takes it (archive_open):
 * layer k is states layer_start[k] .. layer_start[k + 1] - 1, `layers` of them complete.
 * At most `limit` states (18 bytes each); past that, nothing is kept, and no packing.
 * ARCHIVE_MAX (72 MB) keeps the layers of all but one of the DP's 181 "yes" answers on the
 * 104 restricted files (half of them took under 90 000 states); keeping them costs about
 * 9% of a scan's time (docs/BENCHMARKS.md, "Twenty-fourth pass"). */
#define ARCHIVE_MAX ((size_t)1 << 22)
typedef struct {
    Key *keys;
    uint16_t *attributes;
    size_t size, capacity;
    size_t layer_start[MAX_CELLS + 1];
    size_t limit; /* the most states it keeps (ARCHIVE_MAX unless the caller says) */
    int layers;   /* layers kept so far */
    int dropped;  /* past its limit (or out of memory): none */
} Archive;

#define MAX_PIECES (MAX_CELLS / 4)

/* A scan in progress: the layer of cell k (`current`), and when the budget stopped it,
 * the layer of cell k + 1 already made (`next`, `stalled`): a larger budget resumes it
 * there, and a scan that gave up has lost none of its work. */
typedef struct {
    Layer current, next;
    int k, stalled;
    int with_room;  /* room() pruned the states of `current` that made `next` */
    size_t room_short;  /* and its memo was full then, at this limit (0: it was not) */
    long result;    /* RUNNING, or the answer as scan_advance returns it */
    long long work; /* states taken from a layer so far: the scan's cost */
    int last_start;       /* past this cell no target placement <= last_corner can start */
    uint16_t last_corner; /* a state's attribute past last_start must be at most this */
    Archive archive;      /* the layers before `current`, freed once the scan has answered */
    int packed;           /* the pieces of the packing traced back, -1: none */
    int packing_types[MAX_PIECES], packing_corners[MAX_PIECES];
} ScanRun;

#define RUNNING (-3)  /* a scan not yet answered */
#define GAVE_UP (-1)
#define OUT_OF_MEMORY (-2)

/* Past which cell the states without a `target` placement at a corner <= last_corner are
 * dropped: the last first cell of such a placement (B->cells: never, when last_corner < 0). */
static int last_target_start(const Board *B, int target, int last_corner)
{
    if (target < 0 || last_corner < 0)
        return B->cells;
    int last = -1;
    for (int k = 0; k < B->cells; k++)
        for (int o = B->option_start[k]; o < B->option_start[k + 1]; o++)
            if (B->options[o].type == target && B->options[o].corner <= last_corner)
                last = k;
    return last;
}

static int scan_start(ScanRun *S, const Board *B, uint64_t start_counts, int target, int last_corner, size_t keep)
{
    *S = (ScanRun){.result = RUNNING, .last_start = last_target_start(B, target, last_corner),
                   .last_corner = (uint16_t)(last_corner < 0 ? NO_TARGET : last_corner), .packed = -1,
                   .archive = {.limit = keep}};
    return layer_init(&S->current, 1 << 10) && layer_init(&S->next, 1 << 10)
           && layer_add(&S->current, 0, start_counts, NO_TARGET);
}

static void archive_free(Archive *A)
{
    free(A->keys);
    free(A->attributes);
    A->keys = NULL;
    A->attributes = NULL;
    A->size = A->capacity = 0;
}

static void scan_free(ScanRun *S)
{
    layer_free(&S->current);
    layer_free(&S->next);
    archive_free(&S->archive);
}

/* Makes room in the archive for layer k (`size` states), which the scan then adds as it
 * takes them (a layer made again, after a budget stopped the scan, replaces what it added
 * before); 0 when it keeps nothing (dropped: past its limit, or memory ran out). */
static int archive_open(Archive *A, int k, size_t size)
{
    if (A->dropped)
        return 0;
    A->size = A->layer_start[k];
    if (A->size + size > A->limit) {
        archive_free(A);
        A->dropped = 1;
        return 0;
    }
    if (A->size + size > A->capacity) {
        size_t capacity = A->capacity ? A->capacity : 1 << 12;
        while (capacity < A->size + size)
            capacity *= 2;
        Key *keys = realloc(A->keys, capacity * sizeof(Key));
        if (keys)
            A->keys = keys;
        uint16_t *attributes = realloc(A->attributes, capacity * sizeof(uint16_t));
        if (attributes)
            A->attributes = attributes;
        if (!keys || !attributes) {
            archive_free(A);
            A->dropped = 1;
            return 0;
        }
        A->capacity = capacity;
    }
    return 1;
}

/* The packing of a scan that ended with one (its end state in S->current, the layers
 * before it archived), traced back from the end state: at each cell a predecessor of the
 * state in the archive, through a move the scan makes (the cell taken already, left
 * empty, or a placement from it).  Every archived state was made by such moves from the
 * start, so the predecessors found lead back to it, and the moves form a packing; a
 * state's attribute is the smallest target corner over the paths reaching it, and one of
 * its predecessors made it, so the packing found has its target piece at the scan's
 * answer.  A layer is read once, in order (a state's predecessors differ from it by the
 * one piece placed at the cell, if any: one type per placement), which costs a few
 * percent of the scan.  Keeps it in S->packing_types/corners (S->packed). */
static void archive_trace(const Board *B, ScanRun *S, int target)
{
    const Archive *A = &S->archive;
    uint64_t covered = 0, counts = 0;
    uint16_t attribute = NO_TARGET;
    int found = 0;
    for (size_t i = 0; i < S->current.capacity && !found; i++)
        if (S->current.tags[i] && S->current.keys[i].counts == 0 && S->current.attributes[i] == S->result) {
            covered = S->current.keys[i].covered;
            attribute = S->current.attributes[i];
            found = 1;
        }
    if (!found || A->dropped || A->layers != B->cells)
        return;
    int type_at_shift[64], placed = 0;
    for (int i = 0; i < 64; i++)
        type_at_shift[i] = -1;
    for (int t = 0; t < B->types; t++)
        type_at_shift[B->field_shift[t]] = t;
    for (int k = B->cells - 1; k >= 0; k--) {
        uint64_t shifted = covered << 1, whole = shifted | 1;
        int option_of[MAX_TYPES];  /* the placement of each type from cell k that the state can follow */
        for (int t = 0; t < B->types; t++)
            option_of[t] = -1;
        for (int o = B->option_start[k]; o < B->option_start[k + 1] && !B->occupied[k]; o++)
            if ((B->options[o].mask & whole) == B->options[o].mask)
                option_of[B->options[o].type] = o;
        size_t first = A->layer_start[k], last = A->layer_start[k + 1];
        int step = 0;
        for (size_t i = first; i < last && !step; i++) {
            const Key *e = &A->keys[i];
            uint16_t before = A->attributes[i];
            if (e->counts == counts) {
                /* The cell taken already (covered, or occupied), or left empty. */
                step = before == attribute && (e->covered == shifted || (!B->occupied[k] && e->covered == whole));
            } else {
                uint64_t unit = e->counts - counts - (1ull << 56);
                int t = unit && !(unit & (unit - 1)) ? type_at_shift[__builtin_ctzll(unit)] : -1;
                if (t < 0 || option_of[t] < 0 || (e->counts & B->field_mask[t]) != (counts & B->field_mask[t]) + unit)
                    continue;  /* not one piece more than the state, of a type placed from here */
                const Option *p = &B->options[option_of[t]];
                /* The placement makes the state's attribute min(before, its corner when a target). */
                int at_answer = t == target && p->corner == attribute;
                if (e->covered != (whole & ~p->mask) || (t == target && p->corner < attribute)
                    || !(before == attribute || (at_answer && before > attribute)))
                    continue;
                step = 1;
                S->packing_types[placed] = t;
                S->packing_corners[placed++] = p->corner;
            }
            if (step) {
                covered = e->covered;
                counts = e->counts;
                attribute = before;
            }
        }
        if (!step)
            return;  /* cannot happen (see above): no packing then rather than a wrong one */
    }
    S->packed = placed;
}

/* The bounds a scan applies, and what they need. */
typedef struct {
    const Board *B, *R;  /* R: room()'s board, or NULL */
    RoomMemo *memo;
    LineMemo *line_memo;
    int use_room;
} Bounds;

/* 1 when a bound proves that the state at cell k (window `covered`, `counts`) has no
 * completion. */
static int refuted(const Bounds *X, int k, uint64_t covered, uint64_t counts)
{
    const Board *B = X->B;
    if (k >= B->cells)
        return 0;
    int rem = (int)(counts >> 56);
    /* The uncovered free cells ahead, less those that must stay empty, must hold the
     * pieces still to place. */
    uint64_t dead = dead_cells(B, k, covered, counts);
    if (B->free_from[k] - __builtin_popcountll(covered | dead) < 4 * rem
        || (B->scale > 0 && weights_exclude(B, k, covered | dead, counts, rem))
        || lines_refute(B, X->line_memo, k, covered | dead, counts))
        return 1;
    unsigned char fit[ROOM_CAP_COMBOS];
    if (!X->use_room || !room(X->R, X->memo, k, covered | B->occupied_window[k], fit)
        || fit[room_caps(B, X->R, counts)] >= pieces_of(B, X->R, counts))
        return 0;
    X->memo->cuts++;
    return 1;
}

/* Adds a state made by a choice at cell k - 1 (the cell left empty, or a placement from it):
 * a question that no state of the layer asked before, so the bounds are asked once, when it
 * first enters the layer (a state that only moves past a taken cell asks the same question
 * on, and is not asked again).  0 when memory runs out. */
static int add_new_question(const Bounds *X, Layer *L, int k, uint64_t covered, uint64_t counts, uint16_t attribute)
{
    uint8_t tag;
    size_t i = layer_slot(L, covered, counts, &tag);
    if (L->tags[i]) {
        if (attribute < L->attributes[i])
            L->attributes[i] = attribute;
        return 1;
    }
    if (refuted(X, k, covered, counts))
        return 1;
    return layer_add(L, covered, counts, attribute);
}

/* Runs the scan on until it ends or a layer holds more than `budget` states (0: no limit).
 * Returns the end state's attribute, NO_TARGET + 1 when no packing exists (both final),
 * GAVE_UP (budget) or OUT_OF_MEMORY.  R and memo (or NULL): room()'s board and memo, for a set of
 * types (those it has pieces of): a Room's (the empty square, shared by the scans of one
 * side: B's occupied cells join the window when they lie in it, and those beyond it are
 * taken as free, which only makes room() larger).  A state with more pieces of R's types
 * still to place than room() has no completion.  Every bound is sound wherever it is
 * applied, so a scan may be resumed with a Room it did not have before, or with a larger
 * limit on its memo (the layer it stopped at, made while the memo was full, is made again:
 * side_questions.py grows the memos in turns). */
static long scan_advance(const Board *B, ScanRun *S, int target, long long budget, const Board *R,
                         RoomMemo *memo, LineMemo *line_memo)
{
    if (S->result != RUNNING)
        return S->result;
    if (S->stalled && R && (!S->with_room || (S->room_short && memo->limit > S->room_short))) {
        /* A Room now, or one whose memo may grow further than when it was full: the layer
         * that stopped the scan is made again, room() pruning it. */
        layer_clear(&S->next);
        S->stalled = 0;
    }
    while (S->k < B->cells) {
        Layer *current = &S->current, *next = &S->next;
        int k = S->k;
        if (!S->stalled) {
            /* room() only where a layer has grown: a small layer needs no pruning, and the
             * first lookups of a side build room()'s memo for the whole rest of the square
             * (1.7 s on nhonnnhnohnjnsnjjohjojnjnj, for a question with 4 pieces left). */
            int use_room = R && current->size >= ROOM_MIN_LAYER;
            S->with_room = use_room;
            S->work += (long long)current->size;
            Bounds bounds = {B, R, memo, line_memo, use_room};
            Archive *archive = archive_open(&S->archive, k, current->size) ? &S->archive : NULL;
            for (size_t i = 0; i < current->capacity; i++) {
                if (!current->tags[i])
                    continue;
                const Key *e = &current->keys[i];
                uint16_t attribute = current->attributes[i];
                if (archive) {
                    archive->keys[archive->size] = *e;
                    archive->attributes[archive->size++] = attribute;
                }
                if (k > S->last_start && attribute > S->last_corner)
                    continue;  /* its target piece can no longer lie at a corner <= last_corner */
                if ((e->covered & 1) || B->occupied[k]) {
                    /* Cell k is taken: at k + 1 the state asks the same question (the same
                     * free cells, the same pieces), which the bounds settled when it was made. */
                    if (!layer_add(next, e->covered >> 1, e->counts, attribute))
                        return S->result = OUT_OF_MEMORY;
                    continue;
                }
                if (dominated(current, e->covered, e->counts, attribute))
                    continue;
                /* Left empty, or the first cell of a placement: a new question at k + 1. */
                if (!add_new_question(&bounds, next, k + 1, e->covered >> 1, e->counts, attribute))
                    return S->result = OUT_OF_MEMORY;
                for (int o = B->option_start[k]; o < B->option_start[k + 1]; o++) {
                    const Option *p = &B->options[o];
                    if ((e->counts & B->field_mask[p->type]) == 0 || (p->mask & e->covered))
                        continue;
                    uint64_t counts = e->counts - (1ull << B->field_shift[p->type]) - (1ull << 56);
                    uint16_t placed = attribute;
                    if (p->type == target && p->corner < placed)
                        placed = (uint16_t)p->corner;
                    if (!add_new_question(&bounds, next, k + 1, (e->covered | p->mask) >> 1, counts, placed))
                        return S->result = OUT_OF_MEMORY;
                }
            }
        }
        S->stalled = budget && (long long)next->size > budget;
        if (S->stalled) {
            S->room_short = S->with_room && memo->size >= memo->limit ? memo->limit : 0;
            return GAVE_UP;
        }
        S->archive.layers = k + 1;
        S->archive.layer_start[k + 1] = S->archive.size;
        Layer swap = *current;
        *current = *next;
        *next = swap;
        layer_clear(next);
        S->k++;
        if (current->size == 0) {
            archive_free(&S->archive);
            return S->result = NO_TARGET + 1;
        }
    }
    S->result = NO_TARGET + 1;
    for (size_t i = 0; i < S->current.capacity; i++)
        if (S->current.tags[i] && S->current.keys[i].counts == 0 && S->current.attributes[i] <= S->last_corner
            && S->current.attributes[i] < S->result)
            S->result = S->current.attributes[i];
    if (S->result != NO_TARGET + 1)
        archive_trace(B, S, target);
    archive_free(&S->archive);
    return S->result;
}


/* ---- Beam: the scan cut to its least costly states, a finder of packings ------- */

/* The profile DP keeps every state of a layer, which is what makes its "no" a proof, and
 * what makes it give up on the files whose layers outgrow its budget, T and L/J files
 * above all, whose questions mostly have packings.  The beam makes the same layers (the
 * same choices at each cell, the same bounds) but keeps at most `width` states of each:
 * those of least cost, the first made among equals.  A state's cost (beam_cost) is the
 * cells it has wasted so far (left empty before the cell the layer is at: at one cell,
 * 4 x pieces left + cells ahead covered ranks them alike), each counted BEAM_WASTE_WEIGHT
 * times, plus how far the pieces it has left are from the mix of the free cells ahead
 * (beam_imbalance).  A state that reaches the end with no piece left is a packing, which
 * each state's parent and placement give back; a beam that ends empty proves nothing.
 * Measured on the run questions of the T files the exact DP gave up on and the C core
 * answered after 1.28 million nodes (0.4-0.5 s): a beam of 1 000 found a packing in
 * 15-33 ms (docs/BENCHMARKS.md, "Eleventh pass"). */
typedef struct {
    uint64_t covered, counts;
    uint32_t parent;  /* its index in the layer before */
    int32_t option;   /* the placement made at the cell before (index in B->options), -1: none */
} BeamNode;

/* One layer in the making: its nodes, and a hash of their keys (node index + 1; 0 free). */
typedef struct {
    BeamNode *nodes;
    size_t size, capacity;
    uint32_t *slots;
    size_t slot_mask;
} BeamLayer;

static int beam_layer_grow(BeamLayer *L)
{
    size_t capacity = L->capacity ? 2 * L->capacity : 1024;
    BeamNode *nodes = realloc(L->nodes, capacity * sizeof(BeamNode));
    uint32_t *slots = calloc(2 * capacity, sizeof(uint32_t));
    if (!nodes || !slots) {
        free(slots);
        if (nodes)
            L->nodes = nodes;
        return 0;
    }
    L->nodes = nodes;
    L->capacity = capacity;
    free(L->slots);
    L->slots = slots;
    L->slot_mask = 2 * capacity - 1;
    for (size_t n = 0; n < L->size; n++) {
        size_t i = hash_entry(nodes[n].covered, nodes[n].counts) & L->slot_mask;
        while (slots[i])
            i = (i + 1) & L->slot_mask;
        slots[i] = (uint32_t)n + 1;
    }
    return 1;
}

/* Adds a state unless the layer has it (then the first parent stays); 0: out of memory. */
static int beam_add(BeamLayer *L, uint64_t covered, uint64_t counts, uint32_t parent, int32_t option)
{
    if (L->size == L->capacity && !beam_layer_grow(L))
        return 0;
    size_t i = hash_entry(covered, counts) & L->slot_mask;
    for (; L->slots[i]; i = (i + 1) & L->slot_mask) {
        const BeamNode *other = &L->nodes[L->slots[i] - 1];
        if (other->covered == covered && other->counts == counts)
            return 1;
    }
    L->nodes[L->size] = (BeamNode){covered, counts, parent, option};
    L->slots[i] = (uint32_t)++L->size;
    return 1;
}

/* In a square with few spare cells every state of a layer has wasted about as much, and the
 * first made among them are those that used up the pieces that fit the scan most easily:
 * their layers later die out for want of the others.  So a state also pays for how far its
 * pieces left are from those the free cells ahead would take in proportion, in cells: 4 x
 * the sum over types of |left - start x (free cells ahead) / (free cells)|.  With waste
 * alone, the 256 000-state beam was the first to find a packing of the 24 pieces of
 * homorammamhhoahmhhammaar in its 100 cells; with this, a 64 000-state one finds it
 * (docs/BENCHMARKS.md, "Nineteenth pass").  A wasted cell costs what two pieces out of
 * proportion do: at one, the states of aeegggggedbagadgeeegeee that kept its T pieces in
 * proportion crowded out those that fill their lines, and its side's packing took a beam
 * of 256 000 states (16 000 now); replayed, the 960 beam questions of the restricted files
 * found 323 packings at a weight of 4, 331 at 8 ("Twenty-first pass"). */
#define BEAM_WASTE_WEIGHT 8  /* a wasted cell costs what two pieces out of proportion do */

/* `due[t]`: start x (free cells ahead), the pieces of type t the layer's free cells would
 * take in proportion, scaled by the free cells. */
static int beam_imbalance(const Board *B, uint64_t counts, const int64_t *due)
{
    int64_t free_cells = B->free_from[0], apart = 0;
    if (!free_cells)
        return 0;
    for (int t = 0; t < B->types; t++) {
        int64_t gap = (int64_t)((counts & B->field_mask[t]) >> B->field_shift[t]) * free_cells - due[t];
        apart += gap < 0 ? -gap : gap;
    }
    return (int)(4 * apart / free_cells);
}

/* The state's cost in its layer: what the cut ranks by. */
static int beam_cost(const Board *B, const BeamNode *n, const int64_t *due)
{
    int wasted = 4 * (int)(n->counts >> 56) + __builtin_popcountll(n->covered);
    return BEAM_WASTE_WEIGHT * wasted + beam_imbalance(B, n->counts, due);
}

/* Layer k's `width` least costly states, first made first among equals, into a new array
 * (its size in *kept); NULL when out of memory.  A counting sort over the layer's costs. */
static BeamNode *beam_cut(const Board *B, uint64_t start_counts, int k, const BeamLayer *L, size_t width,
                          size_t *kept)
{
    *kept = L->size < width ? L->size : width;
    int *cost = malloc((L->size ? L->size : 1) * sizeof(int));
    BeamNode *out = malloc((*kept ? *kept : 1) * sizeof(BeamNode));
    size_t *below = NULL;
    int low = INT_MAX, high = 0;
    int64_t due[MAX_TYPES];
    for (int t = 0; t < B->types; t++)
        due[t] = (int64_t)((start_counts & B->field_mask[t]) >> B->field_shift[t]) * B->free_from[k];
    if (!cost || !out)
        goto failed;
    for (size_t n = 0; n < L->size; n++) {
        cost[n] = beam_cost(B, &L->nodes[n], due);
        low = cost[n] < low ? cost[n] : low;
        high = cost[n] > high ? cost[n] : high;
    }
    size_t costs = L->size ? (size_t)(high - low) + 1 : 0;
    /* below[c]: states that cost less than low + c; the cut keeps those ranked under width. */
    if (!(below = calloc(costs + 1, sizeof(size_t))))
        goto failed;
    for (size_t n = 0; n < L->size; n++)
        below[cost[n] - low + 1]++;
    for (size_t c = 0; c < costs; c++)
        below[c + 1] += below[c];
    for (size_t n = 0; n < L->size; n++) {
        size_t rank = below[cost[n] - low]++;
        if (rank < *kept)
            out[rank] = L->nodes[n];
    }
    free(cost);
    free(below);
    return out;
failed:
    free(cost);
    free(out);
    return NULL;
}

/* The beam from the question's start state: 1 with the packing in types/corners (*placed
 * pieces), 0 when the beam ended empty, -1 out of memory.  *work: the states it expanded. */
static int beam_run(const Board *B, uint64_t start_counts, size_t width, LineMemo *line_memo,
                    int *types, int *corners, int *placed, long long *work)
{
    BeamNode **layers = calloc((size_t)B->cells + 1, sizeof(BeamNode *));
    size_t *sizes = calloc((size_t)B->cells + 1, sizeof(size_t));
    BeamLayer next = {0};
    int result = -1;
    *work = 0;
    *placed = 0;
    if (!layers || !sizes || !(layers[0] = malloc(sizeof(BeamNode))))
        goto done;
    layers[0][0] = (BeamNode){0, start_counts, 0, -1};
    sizes[0] = 1;
    Bounds bounds = {B, NULL, NULL, line_memo, 0};
    for (int k = 0; k < B->cells; k++) {
        next.size = 0;
        if (next.slots)
            memset(next.slots, 0, (next.slot_mask + 1) * sizeof(uint32_t));
        *work += (long long)sizes[k];
        for (size_t n = 0; n < sizes[k]; n++) {
            const BeamNode *e = &layers[k][n];
            uint32_t parent = (uint32_t)n;
            if ((e->covered & 1) || B->occupied[k]) {
                if (!beam_add(&next, e->covered >> 1, e->counts, parent, -1))
                    goto done;
                continue;
            }
            if (!refuted(&bounds, k + 1, e->covered >> 1, e->counts)
                && !beam_add(&next, e->covered >> 1, e->counts, parent, -1))
                goto done;
            for (int o = B->option_start[k]; o < B->option_start[k + 1]; o++) {
                const Option *p = &B->options[o];
                if ((e->counts & B->field_mask[p->type]) == 0 || (p->mask & e->covered))
                    continue;
                uint64_t counts = e->counts - (1ull << B->field_shift[p->type]) - (1ull << 56);
                uint64_t covered = (e->covered | p->mask) >> 1;
                if (!refuted(&bounds, k + 1, covered, counts) && !beam_add(&next, covered, counts, parent, o))
                    goto done;
            }
        }
        if (!(layers[k + 1] = beam_cut(B, start_counts, k + 1, &next, width, &sizes[k + 1])))
            goto done;
        if (sizes[k + 1] == 0) {
            result = 0;
            goto done;
        }
    }
    result = 0;
    for (size_t n = 0; n < sizes[B->cells]; n++)
        if (layers[B->cells][n].counts == 0) {
            for (int k = B->cells; k > 0; k--) {
                const BeamNode *e = &layers[k][n];
                if (e->option >= 0) {
                    types[*placed] = B->options[e->option].type;
                    corners[(*placed)++] = B->options[e->option].corner;
                }
                n = e->parent;
            }
            result = 1;
            break;
        }
done:
    for (int k = 0; layers && k <= B->cells; k++)
        free(layers[k]);
    free(layers);
    free(sizes);
    free(next.nodes);
    free(next.slots);
    return result;
}

/* ---- Python glue --------------------------------------------------------- */

static int read_long_sequence(PyObject *obj, long *out, Py_ssize_t max, Py_ssize_t *length, const char *what)
{
    PyObject *seq = PySequence_Fast(obj, what);
    if (!seq)
        return 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int ok = n <= max;
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        out[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        ok = !(out[i] == -1 && PyErr_Occurred());
    }
    Py_DECREF(seq);
    if (!ok && !PyErr_Occurred())
        PyErr_Format(PyExc_ValueError, "%s: too many items", what);
    *length = n;
    return ok;
}

/* The cells of one type as a list of (row, col); 0 with an exception on bad input. */
static int read_cells(PyObject *obj, int rows[4], int cols[4])
{
    PyObject *seq = PySequence_Fast(obj, "a type is a sequence of (row, col) cells");
    if (!seq)
        return 0;
    int ok = PySequence_Fast_GET_SIZE(seq) == 4;
    for (int i = 0; ok && i < 4; i++)
        ok = PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "ii", &rows[i], &cols[i])
             && rows[i] >= 0 && rows[i] < 4 && cols[i] >= 0 && cols[i] < 4;
    Py_DECREF(seq);
    if (!ok && !PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "a type is 4 cells inside a 4x4 box");
    return ok;
}

/* Where a scan runs, `orientation` 0-7: the square turned orientation / 2 quarters clockwise
 * ((row, col) -> (col, side - 1 - row) per quarter), along its rows (orientation even) or
 * its columns (odd); 0 and 1 are the square's own rows and columns.  The index in scan
 * order of the square's cell (row, col).  Only the order of the cells turns: corners,
 * min_corner, last_corner and the packings stay the square's own (row-major). */
static int scan_cell(int orientation, int side, int row, int col)
{
    for (int quarter = orientation / 2; quarter > 0; quarter--) {
        int turned = col;
        col = side - 1 - row;
        row = turned;
    }
    return orientation & 1 ? col * side + row : row * side + col;
}

/* The types' cells as the scan sees them: (line, place along it), box at (0, 0). */
static void scan_shapes(int types, const int rows[][4], const int cols[][4], int orientation,
                        int scan_rows[][4], int scan_cols[][4])
{
    for (int t = 0; t < types; t++) {
        int low_row = 4, low_col = 4;
        for (int i = 0; i < 4; i++) {
            int at = scan_cell(orientation, 4, rows[t][i], cols[t][i]);
            scan_rows[t][i] = at / 4;
            scan_cols[t][i] = at % 4;
            low_row = scan_rows[t][i] < low_row ? scan_rows[t][i] : low_row;
            low_col = scan_cols[t][i] < low_col ? scan_cols[t][i] : low_col;
        }
        for (int i = 0; i < 4; i++) {
            scan_rows[t][i] -= low_row;
            scan_cols[t][i] -= low_col;
        }
    }
}

/* The span of the types (their cells as the scan sees them): the largest distance, in scan
 * order, from a piece's first cell to its last. */
static int scan_span(int types, int side, const int scan_rows[][4], const int scan_cols[][4])
{
    int span = 0;
    for (int t = 0; t < types; t++) {
        int low = 1 << 20, high = -1;
        for (int i = 0; i < 4; i++) {
            int at = scan_rows[t][i] * side + scan_cols[t][i];
            low = at < low ? at : low;
            high = at > high ? at : high;
        }
        span = high - low > span ? high - low : span;
    }
    return span;
}

/* Fills B's options (placements by first cell in scan order) and the dead-cell tables;
 * 0 when the window or the count fields do not fit in 64 bits (the DP cannot answer: the
 * caller gets False).  B->occupied is in scan order already. */
static int build_board(Board *B, int side, int types, const int shape_rows[][4], const int shape_cols[][4],
                       const long *counts, const long *min_corner, int orientation)
{
    int scan_rows[MAX_TYPES][4], scan_cols[MAX_TYPES][4];
    scan_shapes(types, shape_rows, shape_cols, orientation, scan_rows, scan_cols);
    int bits = 0, remaining = 0;
    for (int t = 0; t < types; t++) {
        int width = 0;
        while ((1L << width) <= counts[t])
            width++;
        B->field_shift[t] = bits;
        B->field_mask[t] = ((1ull << width) - 1) << bits;
        bits += width;
        remaining += (int)counts[t];
    }
    /* The capped types of room(): fewest pieces first, while their count vectors number at
     * most ROOM_CAP_COMBOS (each adds a value to every entry of room()'s memo). */
    int order[MAX_TYPES], combos = 1;
    for (int t = 0; t < types; t++)
        order[t] = t;
    for (int i = 1; i < types; i++)
        for (int j = i; j > 0 && counts[order[j]] < counts[order[j - 1]]; j--) {
            int swap = order[j];
            order[j] = order[j - 1];
            order[j - 1] = swap;
        }
    for (int i = 0; i < types; i++) {
        int t = order[i];
        B->cap_unit[t] = 0;
        if (counts[t] > 0 && combos * (counts[t] + 1) <= ROOM_CAP_COMBOS) {
            B->cap_unit[t] = (unsigned)combos;
            combos *= (int)counts[t] + 1;
        }
    }
    B->combos = combos;
    for (int t = 0; t < types; t++)
        for (int a = 0; a < combos; a++) {
            int digit = B->cap_unit[t] ? (int)(a / B->cap_unit[t] % (unsigned)(counts[t] + 1)) : 1;
            B->cap_ok[t][a] = digit > 0;
            B->cap_less[t][a] = (unsigned char)(B->cap_unit[t] && digit > 0 ? a - (int)B->cap_unit[t] : a);
        }
    line_classes_init(&B->lines, types, (const int (*)[4])scan_rows, (const int (*)[4])scan_cols, 0);
    int span = scan_span(types, side, (const int (*)[4])scan_rows, (const int (*)[4])scan_cols);
    if (bits > 56 || remaining > 255 || span >= 64)
        return 0;
    B->judged = span == 0 ? ~0ull : (1ull << (64 - span)) - 1;
    B->options = malloc(sizeof(Option) * (size_t)types * B->cells);
    if (!B->options)
        return 0;
    /* Two passes over the placements: count them by first cell, then file them. */
    memset(B->option_start, 0, sizeof(B->option_start));
    for (int pass = 0; pass < 2; pass++) {
        int filled[MAX_CELLS + 1];
        if (pass == 1) {
            for (int k = 0, total = 0; k <= B->cells; k++) {
                int here = B->option_start[k];
                B->option_start[k] = total;
                filled[k] = total;
                total += here;
            }
        }
        for (int t = 0; t < types; t++)
            for (int corner = 0; corner < B->cells; corner++) {
                int top = corner / side, left = corner % side, scan_cells[4], first = B->cells, ok = counts[t] > 0
                    && corner >= min_corner[t];
                for (int i = 0; ok && i < 4; i++) {
                    int r = top + shape_rows[t][i], c = left + shape_cols[t][i];
                    ok = r < side && c < side;
                    scan_cells[i] = ok ? scan_cell(orientation, side, r, c) : 0;
                    ok = ok && !B->occupied[scan_cells[i]];
                    first = scan_cells[i] < first ? scan_cells[i] : first;
                }
                if (!ok)
                    continue;
                if (pass == 0) {
                    B->option_start[first]++;
                    continue;
                }
                Option *o = &B->options[filled[first]++];
                o->type = t;
                o->corner = corner;
                o->mask = 0;
                for (int i = 0; i < 4; i++)
                    o->mask |= 1ull << (scan_cells[i] - first);
                for (int j = 0; j <= first && j + span < 64; j++)  /* seen from cell first - j, bit j */
                    B->first_window[t][first - j] |= 1ull << j;
            }
    }
    /* Free cells that no placement covers (beside the occupied ones, or before a type's
     * min_corner) stay empty in every completion: they count as occupied.  Otherwise every
     * bound would count them as room for the pieces until the scan reaches them: the line
     * counts per line, the free cells ahead, the LP's weights, room()'s frontier. */
    unsigned char coverable[MAX_CELLS] = {0};
    for (int first = 0; first < B->cells; first++)
        for (int o = B->option_start[first]; o < B->option_start[first + 1]; o++)
            for (uint64_t m = B->options[o].mask; m; m &= m - 1)
                coverable[first + __builtin_ctzll(m)] = 1;
    for (int k = 0; k < B->cells; k++)
        B->occupied[k] |= !coverable[k];
    B->free_from[B->cells] = 0;
    B->weight_from[B->cells] = 0;
    for (int k = B->cells - 1; k >= 0; k--) {
        B->free_from[k] = B->free_from[k + 1] + !B->occupied[k];
        B->weight_from[k] = B->weight_from[k + 1] + (B->occupied[k] ? 0 : B->cell_weight[k]);
    }
    for (int k = 0; k < B->cells; k++)
        for (int i = 0; i < 64 && k + i < B->cells; i++)
            if (!B->occupied[k + i])
                B->free_window[k] |= 1ull << i;
            else
                B->occupied_window[k] |= 1ull << i;
    /* A type's cells relative to its first one, the same wherever it lies. */
    for (int t = 0; t < types; t++) {
        int at[4], low = 1 << 20;
        for (int i = 0; i < 4; i++) {
            at[i] = scan_rows[t][i] * side + scan_cols[t][i];
            low = at[i] < low ? at[i] : low;
        }
        for (int i = 0, j = 1; i < 4; i++)
            if (at[i] != low)
                B->offset[t][j++] = at[i] - low;
        B->offset[t][0] = 0;
    }
    return 1;
}

/* weights = (cell_weights row-major, type_weights, scale), integers >= 0, into B (scan
 * order; build_board then sums the free cells' weights from each k on). */
static int read_weights(PyObject *weights, Board *B, int side, int orientation)
{
    PyObject *cells, *types;
    long long scale;
    if (!PyArg_ParseTuple(weights, "OOL", &cells, &types, &scale))
        return 0;
    long cell_weights[MAX_CELLS], type_weights[MAX_TYPES];
    Py_ssize_t n_cells, n_types;
    if (!read_long_sequence(cells, cell_weights, MAX_CELLS, &n_cells, "cell weights")
        || !read_long_sequence(types, type_weights, MAX_TYPES, &n_types, "type weights"))
        return 0;
    int ok = n_cells == B->cells && n_types == B->types && scale >= 0 && scale < (1ll << 40);
    for (int i = 0; ok && i < B->cells + B->types; i++) {
        long w = i < B->cells ? cell_weights[i] : type_weights[i - B->cells];
        ok = w >= 0 && w < (1l << 40);
    }
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "weights: side*side and ntypes integers in [0, 2**40), scale >= 0");
        return 0;
    }
    for (int i = 0; i < B->cells; i++)
        B->cell_weight[scan_cell(orientation, side, i / side, i % side)] = cell_weights[i];
    for (int t = 0; t < B->types; t++)
        B->type_weight[t] = type_weights[t];
    B->scale = scale;
    return 1;
}

/* The pieces of a call: each type's cells and count. */
typedef struct {
    int types;
    int rows[MAX_TYPES][4], cols[MAX_TYPES][4];
    long counts[MAX_TYPES];
} Pieces;

static int read_pieces(PyObject *types_obj, PyObject *counts_obj, Pieces *P)
{
    PyObject *type_seq = PySequence_Fast(types_obj, "types must be a sequence");
    if (!type_seq)
        return 0;
    Py_ssize_t types = PySequence_Fast_GET_SIZE(type_seq), n_counts;
    int ok = types <= MAX_TYPES;
    if (!ok)
        PyErr_SetString(PyExc_ValueError, "too many types");
    for (Py_ssize_t t = 0; ok && t < types; t++)
        ok = read_cells(PySequence_Fast_GET_ITEM(type_seq, t), P->rows[t], P->cols[t]);
    Py_DECREF(type_seq);
    if (!ok || !read_long_sequence(counts_obj, P->counts, MAX_TYPES, &n_counts, "counts"))
        return 0;
    P->types = (int)types;
    for (Py_ssize_t t = 0; ok && t < n_counts; t++)
        ok = P->counts[t] >= 0;
    if (n_counts != types || !ok) {
        PyErr_SetString(PyExc_ValueError, "one count >= 0 per type");
        return 0;
    }
    return 1;
}

static void free_board(Board *B)
{
    if (B)
        free(B->options);
    free(B);
}

/* The scan's direction when the caller does not choose: whichever keeps the window over
 * fewer lines (vertical bars: columns), else along the rows. */
static int default_direction(const Pieces *P, int side)
{
    int rows[2][MAX_TYPES][4], cols[2][MAX_TYPES][4], span[2];
    for (int orientation = 0; orientation < 2; orientation++) {
        scan_shapes(P->types, P->rows, P->cols, orientation, rows[orientation], cols[orientation]);
        span[orientation] = scan_span(P->types, side, (const int (*)[4])rows[orientation],
                                      (const int (*)[4])cols[orientation]);
    }
    return span[1] / side < span[0] / side;
}

/* A Board for these pieces on the square less `occupied` (row-major indices); NULL with an
 * exception on bad input, NULL without one when the DP cannot scan it (window or count
 * fields beyond 64 bits). */
static Board *new_board(const Pieces *P, int side, const long *occupied, Py_ssize_t n_occupied,
                        const long *min_corner, PyObject *weights, int orientation)
{
    Board *B = calloc(1, sizeof(Board));
    if (!B)
        return (Board *)PyErr_NoMemory();
    B->cells = side * side;
    B->types = P->types;
    B->side = side;
    /* Unless the caller chose (it may try both: on some files one direction is 100 times
     * faster, and the window's length does not tell which), along whichever direction keeps
     * the window over fewer lines (vertical bars: columns), else along the rows. */
    if (orientation > 7) {
        free(B);
        PyErr_SetString(PyExc_ValueError, "orientation: 0-7, or -1 for the default");
        return NULL;
    }
    B->orientation = orientation >= 0 ? orientation : default_direction(P, side);
    for (Py_ssize_t i = 0; i < n_occupied; i++) {
        if (occupied[i] < 0 || occupied[i] >= B->cells) {
            free(B);
            PyErr_SetString(PyExc_ValueError, "occupied cells inside the square");
            return NULL;
        }
        B->occupied[scan_cell(B->orientation, side, (int)(occupied[i] / side), (int)(occupied[i] % side))] = 1;
    }
    if ((weights != Py_None && !read_weights(weights, B, side, B->orientation))
        || !build_board(B, side, P->types, P->rows, P->cols, P->counts, min_corner, B->orientation)) {
        free_board(B);
        return NULL;
    }
    return B;
}

/* ---- Room: room()'s memo kept for the scans of one side ------------------- */

typedef struct {
    PyObject_HEAD
    Pieces pieces;
    Board *board;  /* the empty square; NULL when the DP cannot scan it */
    RoomMemo memo;
} RoomObject;

static PyObject *room_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *types_obj, *counts_obj;
    int side, orientation = -1;
    if (!PyArg_ParseTuple(args, "OOi|i", &types_obj, &counts_obj, &side, &orientation))
        return NULL;
    (void)kwargs;
    RoomObject *self = (RoomObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    self->memo.limit = ROOM_MEMO_MAX;
    if (!read_pieces(types_obj, counts_obj, &self->pieces)) {
        Py_DECREF(self);
        return NULL;
    }
    long no_limit[MAX_TYPES] = {0};
    if (side >= 1 && side <= MAX_SIDE) {
        self->board = new_board(&self->pieces, side, NULL, 0, no_limit, Py_None, orientation);
        if (!self->board && PyErr_Occurred()) {
            Py_DECREF(self);
            return NULL;
        }
    }
    return (PyObject *)self;
}

static void room_dealloc(RoomObject *self)
{
    free_board(self->board);
    room_free(&self->memo);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *room_get_entries(RoomObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromSize_t(self->memo.size);
}

static PyObject *room_get_cuts(RoomObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLongLong(self->memo.cuts);
}

static PyObject *room_get_full(RoomObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->memo.size >= self->memo.limit);
}

static PyObject *room_get_limit(RoomObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromSize_t(self->memo.limit);
}

static int room_set_limit(RoomObject *self, PyObject *value, void *closure)
{
    (void)closure;
    size_t limit = value ? PyLong_AsSize_t(value) : 0;
    if (!value || (limit == (size_t)-1 && PyErr_Occurred()) || limit > ROOM_MEMO_MAX) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "limit must be 0..%zu", ROOM_MEMO_MAX);
        return -1;
    }
    self->memo.limit = limit;
    return 0;
}

static PyGetSetDef room_getset[] = {
    {"entries", (getter)room_get_entries, NULL, "the values its memo holds so far (what building it cost)", NULL},
    {"cuts", (getter)room_get_cuts, NULL, "the states the scans' lookups in it refuted so far (what it was worth)", NULL},
    {"full", (getter)room_get_full, NULL, "its memo stopped growing (its limit): unknown values are not used", NULL},
    {"limit", (getter)room_get_limit, (setter)room_set_limit,
     "the values its memo may hold (at most, and by default, 4 194 304)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject RoomType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "reference._profile.Room",
    .tp_basicsize = sizeof(RoomObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_getset = room_getset,
    .tp_doc = "Room(types, counts, side): the suffix bound's memo, on the empty square, for the\n"
              "scans of one side with the same types and at most these counts.",
    .tp_new = room_new,
    .tp_dealloc = (destructor)room_dealloc,
};

/* 1 when a Room's memo serves these pieces on B (0 with an exception if not): the same
 * types and side, no more pieces of the types it has pieces of (room() on the Room's empty
 * square is then an upper bound on how many of those B's states can still place). */
static int room_matches(const RoomObject *room, const Pieces *P, const Board *B)
{
    const Board *R = room->board;
    int ok = room->pieces.types == P->types && R->side == B->side && R->orientation == B->orientation;
    for (int t = 0; ok && t < P->types; t++)
        ok = (room->pieces.counts[t] == 0 || P->counts[t] <= room->pieces.counts[t])
             && !memcmp(P->rows[t], room->pieces.rows[t], sizeof(P->rows[t]))
             && !memcmp(P->cols[t], room->pieces.cols[t], sizeof(P->cols[t]));
    if (!ok)
        PyErr_SetString(PyExc_ValueError, "room: made for other types, fewer pieces or another side");
    return ok;
}

/* ---- Lines: the line-count bound's memo kept for the scans of one side ---------- */

typedef struct {
    PyObject_HEAD
    LineMemo memo;
    LineClasses classes;  /* of the scans it serves; another set of classes empties it */
    int orientation, used;
} LinesObject;

static void lines_dealloc(LinesObject *self)
{
    line_memo_free(&self->memo);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject LinesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "reference._profile.Lines",
    .tp_basicsize = sizeof(LinesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Lines(): the line-count bound's memo, kept by the caller for the scans of one side\n"
              "(its states are facts about the lines, whatever the scan; scans with other shape\n"
              "profiles empty it).",
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)lines_dealloc,
};

/* The memo of `lines` for questions about these classes along this orientation: emptied
 * first when it served others. */
static LineMemo *lines_memo_for(LinesObject *lines, const LineClasses *classes, int orientation)
{
    if (!lines->used || lines->orientation != orientation || lines->classes.classes != classes->classes
        || memcmp(lines->classes.profile, classes->profile, sizeof(classes->profile))
        || memcmp(lines->classes.extent, classes->extent, sizeof(classes->extent))) {
        line_memo_free(&lines->memo);
        lines->classes = *classes;
        lines->orientation = orientation;
        lines->used = 1;
    }
    return &lines->memo;
}

/* A question's arguments (types, counts, side, occupied, min_corner, target, then the
 * optional weights and lines): its Board (NULL with an exception on bad input, NULL
 * without one when the DP cannot scan it: False) and the start state. */
typedef struct {
    Pieces pieces;
    Board *board;
    int target, orientation, last_corner;
    uint64_t start_counts;
} Question;

static int read_question(PyObject *types_obj, PyObject *counts_obj, int side, PyObject *occupied_obj,
                         PyObject *min_corner_obj, PyObject *weights, PyObject *lines_obj, Question *Q)
{
    Q->board = NULL;
    if (lines_obj != Py_None && !PyObject_TypeCheck(lines_obj, &LinesType)) {
        PyErr_SetString(PyExc_TypeError, "lines must be None or a Lines");
        return 0;
    }
    long min_corner[MAX_TYPES], occupied[MAX_CELLS];
    Py_ssize_t n_min_corner, n_occupied;
    if (!read_pieces(types_obj, counts_obj, &Q->pieces)
        || !read_long_sequence(min_corner_obj, min_corner, MAX_TYPES, &n_min_corner, "min_corner")
        || !read_long_sequence(occupied_obj, occupied, MAX_CELLS, &n_occupied, "occupied"))
        return 0;
    if (n_min_corner != Q->pieces.types || Q->target >= Q->pieces.types) {
        PyErr_SetString(PyExc_ValueError, "one count and one min_corner per type; target < len(types)");
        return 0;
    }
    if (Q->last_corner >= 0 && Q->target < 0) {
        PyErr_SetString(PyExc_ValueError, "last_corner needs a target");
        return 0;
    }
    if (side < 1 || side > MAX_SIDE)
        return 1;  /* beyond the 64-cell window: not this helper's question */
    Q->board = new_board(&Q->pieces, side, occupied, n_occupied, min_corner, weights, Q->orientation);
    if (!Q->board)
        return !PyErr_Occurred();
    int remaining = 0;
    Q->start_counts = 0;
    for (int t = 0; t < Q->pieces.types; t++) {
        Q->start_counts |= (uint64_t)Q->pieces.counts[t] << Q->board->field_shift[t];
        remaining += (int)Q->pieces.counts[t];
    }
    Q->start_counts |= (uint64_t)remaining << 56;
    return 1;
}

/* room(): a Room or Py_None, as the board and memo a scan of B uses (NULL, NULL: none);
 * 0 with an exception when it was made for other pieces. */
static int room_for(PyObject *room_obj, const Pieces *P, const Board *B, const Board **R, RoomMemo **memo)
{
    *R = NULL;
    *memo = NULL;
    if (room_obj == Py_None)
        return 1;
    if (!PyObject_TypeCheck(room_obj, &RoomType)) {
        PyErr_SetString(PyExc_TypeError, "room must be None or a Room");
        return 0;
    }
    RoomObject *room = (RoomObject *)room_obj;
    if (!room->board)
        return 1;  /* a square the DP cannot scan: no bound from it */
    if (!room_matches(room, P, B))
        return 0;
    *R = room->board;
    *memo = &room->memo;
    return 1;
}

/* A scan's answer as Python sees it: the corner (0 for target < 0), None, or False. */
static PyObject *answer(long found, int target)
{
    if (found == OUT_OF_MEMORY)
        return PyErr_NoMemory();
    if (found == GAVE_UP)
        Py_RETURN_FALSE;
    if (found == NO_TARGET + 1)
        Py_RETURN_NONE;
    return PyLong_FromLong(target < 0 ? 0 : found);
}

static PyObject *first_corner(PyObject *self, PyObject *args)
{
    PyObject *types_obj, *counts_obj, *occupied_obj, *min_corner_obj, *weights = Py_None, *room_obj = Py_None;
    PyObject *lines_obj = Py_None;
    int side;
    long long budget;
    Question Q = {.orientation = -1, .last_corner = -1};
    (void)self;
    if (!PyArg_ParseTuple(args, "OOiOOiL|OOOii", &types_obj, &counts_obj, &side, &occupied_obj, &min_corner_obj,
                          &Q.target, &budget, &weights, &room_obj, &lines_obj, &Q.orientation, &Q.last_corner))
        return NULL;
    if (!read_question(types_obj, counts_obj, side, occupied_obj, min_corner_obj, weights, lines_obj, &Q))
        return NULL;
    if (!Q.board)
        Py_RETURN_FALSE;
    const Board *R;
    RoomMemo *memo;
    if (!room_for(room_obj, &Q.pieces, Q.board, &R, &memo)) {
        free_board(Q.board);
        return NULL;
    }
    LineMemo own_lines = {0}, *line_memo = &own_lines;
    if (lines_obj != Py_None)
        line_memo = lines_memo_for((LinesObject *)lines_obj, &Q.board->lines, Q.board->orientation);
    /* No thread switch: the memos of a Room and of a Lines are shared and not locked. */
    ScanRun S;
    long found = scan_start(&S, Q.board, Q.start_counts, Q.target, Q.last_corner, 0)
                 ? scan_advance(Q.board, &S, Q.target, budget, R, memo, line_memo) : OUT_OF_MEMORY;
    scan_free(&S);
    line_memo_free(&own_lines);
    free_board(Q.board);
    return answer(found, Q.target);
}


/* beam(types, counts, side, occupied, min_corner, width, weights=None, lines=None,
 * orientation=-1) -> (((type, corner), ...) or None, work) */
static PyObject *beam(PyObject *self, PyObject *args)
{
    PyObject *types_obj, *counts_obj, *occupied_obj, *min_corner_obj, *weights = Py_None, *lines_obj = Py_None;
    int side;
    long long width;
    Question Q = {.orientation = -1, .target = -1, .last_corner = -1};
    (void)self;
    if (!PyArg_ParseTuple(args, "OOiOOL|OOi", &types_obj, &counts_obj, &side, &occupied_obj, &min_corner_obj,
                          &width, &weights, &lines_obj, &Q.orientation))
        return NULL;
    if (width < 1) {
        PyErr_SetString(PyExc_ValueError, "width must be at least 1");
        return NULL;
    }
    if (!read_question(types_obj, counts_obj, side, occupied_obj, min_corner_obj, weights, lines_obj, &Q))
        return NULL;
    if (!Q.board)
        return Py_BuildValue("(Oi)", Py_None, 0);
    LineMemo own_lines = {0}, *line_memo = &own_lines;
    if (lines_obj != Py_None)
        line_memo = lines_memo_for((LinesObject *)lines_obj, &Q.board->lines, Q.board->orientation);
    int types[MAX_CELLS / 4 + 1], corners[MAX_CELLS / 4 + 1], placed;
    long long work;
    int found = beam_run(Q.board, Q.start_counts, (size_t)width, line_memo, types, corners, &placed, &work);
    line_memo_free(&own_lines);
    free_board(Q.board);
    if (found < 0)
        return PyErr_NoMemory();
    if (!found)
        return Py_BuildValue("(OL)", Py_None, work);
    PyObject *packing = PyTuple_New(placed);
    for (int i = 0; packing && i < placed; i++) {
        PyObject *piece = Py_BuildValue("(ii)", types[i], corners[i]);
        if (!piece) {
            Py_CLEAR(packing);
            break;
        }
        PyTuple_SET_ITEM(packing, i, piece);
    }
    if (!packing)
        return NULL;
    PyObject *result = Py_BuildValue("(OL)", packing, work);
    Py_DECREF(packing);
    return result;
}

/* ---- Scan: one question's scan, resumed with larger budgets ------------------ */

typedef struct {
    PyObject_HEAD
    Question question;  /* its board NULL when the DP cannot scan the square */
    PyObject *lines;    /* a Lines (owned) or NULL: the scan's own memo */
    LineMemo own_lines;
    ScanRun run;
    int started;
} ScanObject;

static PyObject *scan_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *types_obj, *counts_obj, *occupied_obj, *min_corner_obj, *weights = Py_None, *lines_obj = Py_None;
    int side;
    (void)kwargs;
    ScanObject *self = (ScanObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    long long keep = ARCHIVE_MAX;
    self->question.orientation = -1;
    self->question.last_corner = -1;
    if (!PyArg_ParseTuple(args, "OOiOOi|OOiiL", &types_obj, &counts_obj, &side, &occupied_obj, &min_corner_obj,
                          &self->question.target, &weights, &lines_obj, &self->question.orientation,
                          &self->question.last_corner, &keep)
        || !read_question(types_obj, counts_obj, side, occupied_obj, min_corner_obj, weights, lines_obj,
                          &self->question)) {
        Py_DECREF(self);
        return NULL;
    }
    if (lines_obj != Py_None)
        self->lines = Py_NewRef(lines_obj);
    if (self->question.board) {
        self->started = 1;
        if (!scan_start(&self->run, self->question.board, self->question.start_counts, self->question.target,
                        self->question.last_corner, keep < 0 ? 0 : (size_t)keep)) {
            Py_DECREF(self);
            return PyErr_NoMemory();
        }
    }
    return (PyObject *)self;
}

static void scan_dealloc(ScanObject *self)
{
    if (self->started)
        scan_free(&self->run);
    line_memo_free(&self->own_lines);
    free_board(self->question.board);
    Py_XDECREF(self->lines);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* advance(budget, room=None): on until the answer or a layer of more than `budget` states. */
static PyObject *scan_advance_method(ScanObject *self, PyObject *args)
{
    long long budget;
    PyObject *room_obj = Py_None;
    if (!PyArg_ParseTuple(args, "L|O", &budget, &room_obj))
        return NULL;
    Board *B = self->question.board;
    if (!B)
        Py_RETURN_FALSE;
    const Board *R;
    RoomMemo *memo;
    if (!room_for(room_obj, &self->question.pieces, B, &R, &memo))
        return NULL;
    LineMemo *line_memo = self->lines ? lines_memo_for((LinesObject *)self->lines, &B->lines, B->orientation)
                                      : &self->own_lines;
    return answer(scan_advance(B, &self->run, self->question.target, budget, R, memo, line_memo),
                  self->question.target);
}

static PyObject *scan_get_work(ScanObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLongLong(self->started ? self->run.work : 0);
}

static PyObject *scan_get_cell(ScanObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->started ? self->run.k : 0);
}

static PyObject *scan_get_packing(ScanObject *self, void *closure)
{
    (void)closure;
    if (!self->started || self->run.packed < 0)
        Py_RETURN_NONE;
    PyObject *packing = PyTuple_New(self->run.packed);
    for (int i = 0; packing && i < self->run.packed; i++) {
        PyObject *piece = Py_BuildValue("(ii)", self->run.packing_types[i], self->run.packing_corners[i]);
        if (!piece) {
            Py_CLEAR(packing);
            break;
        }
        PyTuple_SET_ITEM(packing, i, piece);
    }
    return packing;
}

static PyMethodDef scan_methods[] = {
    {"advance", (PyCFunction)scan_advance_method, METH_VARARGS,
     "advance(budget, room=None) -> int, None or False: the scan on from where it stopped, until\n"
     "it answers (as first_corner) or a layer holds more than `budget` states (False; a larger\n"
     "budget resumes it).  room: a Room, which prunes the layers from then on."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef scan_getset[] = {
    {"work", (getter)scan_get_work, NULL, "states the scan has taken from its layers so far (its cost)", NULL},
    {"cell", (getter)scan_get_cell, NULL, "the cell (in scan order) whose layer the scan is at", NULL},
    {"packing", (getter)scan_get_packing, NULL,
     "((type, corner), ...): a packing with its target piece at the answer, once the scan has\n"
     "answered with one and its layers were kept (at most ARCHIVE_MAX states); else None", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject ScanType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "reference._profile.Scan",
    .tp_basicsize = sizeof(ScanObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Scan(types, counts, side, occupied, min_corner, target, weights=None, lines=None,\n"
              "     orientation=-1, last_corner=-1, keep=ARCHIVE_MAX): first_corner's question as a scan kept\n"
              "     between budgets; keep: the most states it keeps to trace its packing back.",
    .tp_new = scan_new,
    .tp_dealloc = (destructor)scan_dealloc,
    .tp_methods = scan_methods,
    .tp_getset = scan_getset,
};

/* line_counts(types, counts, side, occupied, vertical): the bound alone, on one board. */
static PyObject *line_counts(PyObject *self, PyObject *args)
{
    PyObject *types_obj, *counts_obj, *occupied_obj, *lines_obj = Py_None;
    int side, vertical;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOiOp|O", &types_obj, &counts_obj, &side, &occupied_obj, &vertical, &lines_obj))
        return NULL;
    if (lines_obj != Py_None && !PyObject_TypeCheck(lines_obj, &LinesType)) {
        PyErr_SetString(PyExc_TypeError, "lines must be None or a Lines");
        return NULL;
    }
    Pieces P;
    long occupied[MAX_CELLS];
    Py_ssize_t n_occupied;
    if (!read_pieces(types_obj, counts_obj, &P)
        || !read_long_sequence(occupied_obj, occupied, MAX_CELLS, &n_occupied, "occupied"))
        return NULL;
    if (side < 1 || side > LINE_MAX_SIDE) {
        PyErr_Format(PyExc_ValueError, "side must be 1..%d", LINE_MAX_SIDE);
        return NULL;
    }
    unsigned char taken[MAX_CELLS] = {0};
    for (Py_ssize_t i = 0; i < n_occupied; i++) {
        if (occupied[i] < 0 || occupied[i] >= side * side) {
            PyErr_SetString(PyExc_ValueError, "occupied cells inside the square");
            return NULL;
        }
        taken[occupied[i]] = 1;
    }
    LineClasses X;
    line_classes_init(&X, P.types, (const int (*)[4])P.rows, (const int (*)[4])P.cols, vertical);
    LineMemo own = {0}, *memo = &own;
    if (lines_obj != Py_None)
        memo = lines_memo_for((LinesObject *)lines_obj, &X, vertical);
    LineQuestion Q = {.X = &X, .memo = memo, .lines = side, .axis_tag = vertical};
    for (int cell = 0; cell < side * side; cell++)
        if (!taken[cell])
            Q.free[vertical ? cell % side : cell / side]++;
    int counts[MAX_TYPES];
    for (int t = 0; t < P.types; t++)
        counts[t] = (int)P.counts[t];
    int refuted = line_counts_refute(&Q, counts, P.types);
    line_memo_free(&own);
    return PyBool_FromLong(!refuted);
}

/* window_direction(types, side): the direction a scan takes by default (orientation -1). */
static PyObject *window_direction(PyObject *self, PyObject *args)
{
    PyObject *types_obj;
    int side;
    (void)self;
    if (!PyArg_ParseTuple(args, "Oi", &types_obj, &side))
        return NULL;
    Pieces P;
    PyObject *seq = PySequence_Fast(types_obj, "types must be a sequence");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    Py_DECREF(seq);
    PyObject *ones = PyList_New(n);  /* read_pieces wants counts; the direction needs none */
    if (!ones)
        return NULL;
    for (Py_ssize_t t = 0; t < n; t++)
        PyList_SET_ITEM(ones, t, PyLong_FromLong(1));
    int ok = read_pieces(types_obj, ones, &P);
    Py_DECREF(ones);
    if (!ok || side < 1)
        return ok ? PyErr_Format(PyExc_ValueError, "side must be positive") : NULL;
    return PyLong_FromLong(default_direction(&P, side));
}

static PyMethodDef methods[] = {
    {"window_direction", window_direction, METH_VARARGS,
     "window_direction(types, side) -> 0 (rows) or 1 (columns): a scan's direction when\n"
     "first_corner is not told one."},
    {"line_counts", line_counts, METH_VARARGS,
     "line_counts(types, counts, side, occupied, vertical, lines=None) -> bool\n\n"
     "The line-count bound (reference/_lines.h) on its own: False when no shifts of the types'\n"
     "row (vertical: column) profiles fit the free cells of each line, so that the pieces\n"
     "cannot be packed in the cells not in `occupied`.  lines: a Lines whose memo to use."},
    {"beam", beam, METH_VARARGS,
     "beam(types, counts, side, occupied, min_corner, width, weights=None, lines=None, orientation=-1)\n"
     "    -> (((type, corner), ...) or None, work)\n\n"
     "The DP's scan with each layer cut to its `width` least costly states (cells wasted,\n"
     "pieces left out of proportion): a packing of counts[t] pieces of each type into the\n"
     "free cells when it finds one, else None (which proves nothing); work: the states it\n"
     "expanded."},
    {"first_corner", first_corner, METH_VARARGS,
     "first_corner(types, counts, side, occupied, min_corner, target, budget, weights=None, room=None,\n"
     "             lines=None, orientation=-1, last_corner=-1)\n"
     "    -> int, None or False\n\n"
     "The smallest corner of a `target` piece over all packings of counts[t] pieces of each\n"
     "type into the free cells (0 for target < 0: packable); None when there is no packing,\n"
     "False when a layer outgrew `budget` states.  last_corner >= 0: over the packings whose\n"
     "`target` piece lies at a corner <= last_corner only."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "reference._profile",
    "Order-free packing questions by a row- or column-major profile DP (see the C file's header).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__profile(void)
{
    if (PyType_Ready(&RoomType) < 0 || PyType_Ready(&LinesType) < 0 || PyType_Ready(&ScanType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m && (PyModule_AddObjectRef(m, "Room", (PyObject *)&RoomType) < 0
              || PyModule_AddObjectRef(m, "Lines", (PyObject *)&LinesType) < 0
              || PyModule_AddObjectRef(m, "Scan", (PyObject *)&ScanType) < 0
              || PyModule_AddIntConstant(m, "ROOM_MEMO_MAX", (long)ROOM_MEMO_MAX) < 0
              || PyModule_AddIntConstant(m, "ARCHIVE_MAX", (long)ARCHIVE_MAX) < 0))
        Py_CLEAR(m);
    return m;
}
