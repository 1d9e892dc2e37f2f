/*
 * reference/_lines.h -- the line-count bound, shared by the C core (_fastsolve.c) and the
 * profile DP (_profile.c), which include it after defining MAX_TYPES.
 *
 * Project a packing onto one axis.  Lines are the rows (or the columns) of the square; a
 * piece whose box starts at line s puts profile[j] of its four cells in line s + j
 * (J_180 "## / #. / #." has the row profile 2, 1, 1 and the column profile 3, 1).  So if
 * the remaining pieces fit in the free cells, their profiles, each shifted to some line,
 * add up to at most the free cells of every line, and together leave exactly the spare
 * cells empty.  When no such shifts exist, no packing exists.
 *
 * This one-dimensional question is answered exactly: a depth-first search over the lines
 * (how many pieces of each profile start at this line, then the next line), with a memo
 * of the states between lines.  A state's future depends only on the free cells of the
 * lines from the current one on, the cells already given to the next three lines, the
 * empty cells still allowed, and the pieces left per profile, so one memo serves every
 * question asked at a side, whatever cells the earlier lines had.  Types with the same
 * profile are one class here (the 19 shapes have 8 row profiles and 8 column profiles).
 *
 * Why it is worth its cost: on files drawn from the L and J shapes, the order-free
 * searches spend most of their nodes on boards with 0-2 spare cells whose free cells are
 * split between rows in a way no shifts of the profiles match (sampled on the hard corner
 * question of docs/BENCHMARKS.md, "Sixth pass": 99.7% of those nodes with 0 spare cells,
 * 97% with 2).  Neither the colourings (2-periodic), nor the stripes (4-periodic classes
 * of lines), nor room() (which caps only the rarest types) see the exact counts per line.
 *
 * The memo's key packs a line's free cells in 4 bits, so the bound answers for squares of
 * at most LINE_MAX_SIDE lines; beyond, line_counts_refute says nothing (no proof).
 */
#ifndef REFERENCE_LINES_H
#define REFERENCE_LINES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define LINE_CLASSES 8     /* distinct profiles along one axis among the 19 shapes */
#define LINE_MAX_SIDE 15   /* a line's free cells in 4 bits */
#define LINE_MEMO_MAX ((size_t)1 << 21)  /* memo slots at most (17 bytes each) */

/* The profile classes of a set of types along one axis. */
typedef struct {
    int classes, class_of[MAX_TYPES];
    int profile[LINE_CLASSES][4], extent[LINE_CLASSES];  /* extent: lines the box spans */
} LineClasses;

/* Types given by their cells (row, col), inside a 4x4 box; vertical: project on columns. */
static void line_classes_init(LineClasses *X, int ntypes, const int (*rows)[4], const int (*cols)[4], int vertical)
{
    X->classes = 0;
    for (int t = 0; t < ntypes; t++) {
        int profile[4] = {0, 0, 0, 0}, extent = 0;
        for (int i = 0; i < 4; i++) {
            int along = vertical ? cols[t][i] : rows[t][i];
            profile[along]++;
            extent = along + 1 > extent ? along + 1 : extent;
        }
        int c = 0;
        while (c < X->classes && memcmp(X->profile[c], profile, sizeof(profile)))
            c++;
        if (c == X->classes) {
            memcpy(X->profile[c], profile, sizeof(profile));
            X->extent[c] = extent;
            X->classes++;
        }
        X->class_of[t] = c;
    }
}

/* States between lines with their answers: open addressing, a one-byte tag per slot read
 * first (0: empty; bit 0: the answer), grown on demand up to LINE_MEMO_MAX slots, then
 * emptied when full (forgetting only costs time). */
typedef struct {
    uint64_t (*keys)[2];
    uint8_t *tags;
    size_t used, capacity;
} LineMemo;

static void line_memo_free(LineMemo *M)
{
    free(M->keys);
    free(M->tags);
    memset(M, 0, sizeof(*M));
}

static uint64_t line_hash(const uint64_t *key)
{
    uint64_t h = (key[0] * 0x9E3779B97F4A7C15ull) ^ (key[1] * 0xC2B2AE3D27D4EB4Full);
    return h ^ (h >> 29);
}

static uint8_t line_tag(uint64_t hash)
{
    return (uint8_t)(((hash >> 56) | 2) & 0xFE);
}

/* The state's answer (1 fits, 0 does not) when known, -1 when not. */
static int line_memo_get(const LineMemo *M, const uint64_t *key)
{
    if (!M->capacity)
        return -1;
    uint64_t h = line_hash(key);
    uint8_t tag = line_tag(h);
    for (size_t mask = M->capacity - 1, i = h & mask; M->tags[i]; i = (i + 1) & mask)
        if ((M->tags[i] & 0xFE) == tag && M->keys[i][0] == key[0] && M->keys[i][1] == key[1])
            return M->tags[i] & 1;
    return -1;
}

static void line_memo_place(LineMemo *M, const uint64_t *key, uint8_t tag)
{
    size_t mask = M->capacity - 1, i = line_hash(key) & mask;
    while (M->tags[i])
        i = (i + 1) & mask;
    M->tags[i] = tag;
    M->keys[i][0] = key[0];
    M->keys[i][1] = key[1];
    M->used++;
}

static void line_memo_put(LineMemo *M, const uint64_t *key, int answer)
{
    if (2 * (M->used + 1) > M->capacity) {
        size_t bigger = M->capacity ? 2 * M->capacity : (size_t)1 << 12;
        LineMemo grown = {NULL, NULL, 0, bigger};
        if (bigger <= LINE_MEMO_MAX) {
            grown.keys = malloc(bigger * sizeof(*grown.keys));
            grown.tags = calloc(bigger, 1);
        }
        if (grown.keys && grown.tags) {
            for (size_t i = 0; i < M->capacity; i++)
                if (M->tags[i])
                    line_memo_place(&grown, M->keys[i], M->tags[i]);
            line_memo_free(M);
            *M = grown;
        } else {
            free(grown.keys);
            free(grown.tags);
            if (!M->capacity)
                return;  /* no memory at all: nothing remembered */
            memset(M->tags, 0, M->capacity);
            M->used = 0;
        }
    }
    line_memo_place(M, key, (uint8_t)(line_tag(line_hash(key)) | (answer != 0)));
}

/* One question: the free cells of each line, the pieces left per class, the empty cells
 * allowed.  axis_tag tells apart the questions of different axes sharing a memo. */
typedef struct {
    const LineClasses *X;
    LineMemo *memo;
    int lines, spare, axis_tag;
    int free[LINE_MAX_SIDE + 4], counts[LINE_CLASSES];
    long long states;  /* new states searched (the caller's measure of work) */
} LineQuestion;

/* key[0]: the free cells of the lines from `line` on, 4 bits each; key[1]: the pieces left
 * per class (5 bits each), the line, the cells given to the next three lines and the axis
 * tag.  (The empty cells still allowed follow from these: the free cells from `line` on,
 * less those given, less 4 per piece left.) */
static void line_key(const LineQuestion *Q, int line, const int *given, uint64_t *key)
{
    uint64_t lines = 0, rest = 0;
    for (int l = Q->lines - 1; l >= line; l--)
        lines = lines << 4 | (uint64_t)Q->free[l];
    for (int c = 0; c < Q->X->classes; c++)
        rest |= (uint64_t)Q->counts[c] << (5 * c);
    rest |= (uint64_t)line << 40 | (uint64_t)given[0] << 44 | (uint64_t)given[1] << 48 | (uint64_t)given[2] << 52
            | (uint64_t)Q->axis_tag << 56;
    key[0] = lines;
    key[1] = rest;
}

/* Pieces of classes c.. get their starts at `line` (given: the cells already given to
 * lines line .. line + 3), then the next lines.  1 when every piece finds a start. */
static int line_fill(LineQuestion *Q, int line, int c, int *given, int waste, int left)
{
    const LineClasses *X = Q->X;
    uint64_t key[2];
    if (c == 0) {
        if (left == 0)
            return 1;  /* the lines left hold the spare cells not yet counted as waste */
        if (line >= Q->lines)
            return 0;
        line_key(Q, line, given, key);
        int known = line_memo_get(Q->memo, key);
        if (known >= 0)
            return known;
        Q->states++;
    }
    if (c == X->classes) {
        /* (More empty cells than spare ones so far: the later lines would have to hold more
         * than their free cells, so this only cuts a search that cannot succeed.) */
        int empty = Q->free[line] - given[0];
        if (empty < 0 || waste + empty > Q->spare)
            return 0;
        int next[4] = {given[1], given[2], given[3], 0};
        return line_fill(Q, line + 1, 0, next, waste + empty, left);
    }
    int fits = 0;
    if (!Q->counts[c] || line + X->extent[c] > Q->lines) {
        fits = line_fill(Q, line, c + 1, given, waste, left);
    } else {
        /* k pieces of class c start here: as many as the lines' free cells allow first
         * (the line must end nearly full), then fewer */
        const int *p = X->profile[c];
        int most = Q->counts[c];
        for (int j = 0; j < 4; j++)
            if (p[j] && (Q->free[line + j] - given[j]) / p[j] < most)
                most = (Q->free[line + j] - given[j]) / p[j];
        for (int k = most; k >= 0 && !fits; k--) {
            for (int j = 0; j < 4; j++)
                given[j] += k * p[j];
            Q->counts[c] -= k;
            fits = line_fill(Q, line, c + 1, given, waste, left - k);
            Q->counts[c] += k;
            for (int j = 0; j < 4; j++)
                given[j] -= k * p[j];
        }
    }
    if (c == 0)
        line_memo_put(Q->memo, key, fits);
    return fits;
}

/* 1 when the line counts prove that the pieces cannot fit: Q->free (the free cells of
 * each of the Q->lines lines) set, type_counts the pieces left per type. */
static int line_counts_refute(LineQuestion *Q, const int *type_counts, int ntypes)
{
    if (Q->lines > LINE_MAX_SIDE)
        return 0;
    int left = 0, spare = 0;
    memset(Q->counts, 0, sizeof(Q->counts));
    for (int t = 0; t < ntypes; t++) {
        Q->counts[Q->X->class_of[t]] += type_counts[t];
        left += type_counts[t];
    }
    for (int c = 0; c < Q->X->classes; c++)
        if (Q->counts[c] > 31)
            return 0;  /* beyond the key's 5 bits: no proof */
    for (int l = 0; l < LINE_MAX_SIDE + 4; l++)
        spare += l < Q->lines ? Q->free[l] : (Q->free[l] = 0);
    spare -= 4 * left;
    if (spare < 0)
        return 1;
    if (spare > 63)
        return 0;
    Q->spare = spare;
    int given[4] = {0, 0, 0, 0}, first = 0;
    while (first < Q->lines && Q->free[first] == 0)
        first++;
    return !line_fill(Q, first, 0, given, 0, left);
}

#endif
