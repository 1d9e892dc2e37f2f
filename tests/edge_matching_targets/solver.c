/*
 * An edge-matching solver graded by tests/test_edge_matching_grading.py and
 * tests/test_edge_matching_grade.py (docs/exercises/edge-matching.md): `./solver puzzle.txt`
 * prints a board (PIECE/ROTATION per cell, one line per row), "none" or "error".
 * Written apart from the Python reference, in the seed's way: cells row by row from
 * piece 1 at the top left unrotated, pieces tried by number, rotations 0 to 3.
 *
 * Correct by default: a backtracking search (first solution in that order) that skips a
 * piece identical to an unused lower one and a rotation equal to an earlier one, after two
 * quick proofs of impossibility (piece 1 does not fit the corner; an inner colour on an
 * odd number of sides of a framed puzzle).
 *
 *   -DHEURISTIC        the seed's heuristic: no going back; where nothing fits, the unused
 *                      piece and rotation meeting the most conditions (exercises/
 *                      edge_matching/heuristic.py)
 * Deliberately wrong builds, one defect each:
 *   -DBUG_NO_ROTATION  searches with rotations but prints every rotation as 0
 *   -DBUG_REUSE        never marks a piece used: a piece may be placed twice
 *   -DBUG_BORDER       treats the border colour 0 as any colour: 0 matches 0 inside, and
 *                      sides facing out may be anything
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_SIDE 16
#define MAX_PIECES (MAX_SIDE * MAX_SIDE)
#define MAX_FILE (1 << 20)

static int g_rows, g_cols, g_count, g_framed;
static int g_piece[MAX_PIECES + 1][4]; /* top, right, bottom, left; pieces from 1 */
static int g_twin_of[MAX_PIECES + 1][MAX_PIECES]; /* lower identical pieces */
static int g_twins[MAX_PIECES + 1];
static int g_used[MAX_PIECES + 1];
static int g_board_piece[MAX_PIECES], g_board_rot[MAX_PIECES];
static int g_side[MAX_PIECES][4]; /* the placed cells' oriented sides */
/* Candidates by the colour of their left side (index 100: every one), pieces by number,
   then rotations: the search's order, without a look at pieces that cannot fit. */
static int g_by_left[101][4 * MAX_PIECES][2];
static int g_by_left_count[101];

static void fail(void) {
    fputs("error\n", stdout);
    exit(0);
}

static int side_of(int piece, int rot, int side) {
    return g_piece[piece][(side - rot + 4) % 4];
}

/* One line of `count` numbers, single spaces; returns the count read, -1 when malformed. */
static int read_numbers(const char *line, size_t len, int *out, int max) {
    int n = 0;
    size_t i = 0;
    if (len == 0)
        return -1;
    while (i < len) {
        size_t start = i;
        long value = 0;
        while (i < len && line[i] >= '0' && line[i] <= '9') {
            if (value < 100000)
                value = value * 10 + (line[i] - '0');
            i++;
        }
        if (i == start || (line[start] == '0' && i - start > 1))
            return -1;
        if (n < max)
            out[n] = (int)value;
        n++;
        if (i < len) {
            if (line[i] != ' ' || i + 1 == len)
                return -1;
            i++;
        }
    }
    return n;
}

static void parse(const char *data, size_t size) {
    size_t pos = 0;
    int line_no = 0, numbers[5], zeros = 0;
    if (size == 0 || data[size - 1] != '\n')
        fail();
    while (pos < size) {
        const char *nl = memchr(data + pos, '\n', size - pos);
        size_t len = (size_t)(nl - (data + pos));
        int n = read_numbers(data + pos, len, numbers, 5);
        if (n < 0)
            fail();
        if (line_no == 0) {
            if (n != 2 || numbers[0] < 1 || numbers[0] > MAX_SIDE || numbers[1] < 1 || numbers[1] > MAX_SIDE)
                fail();
            g_rows = numbers[0];
            g_cols = numbers[1];
        } else {
            if (line_no > g_rows * g_cols || n != 4)
                fail();
            for (int s = 0; s < 4; s++) {
                if (numbers[s] > 99)
                    fail();
                g_piece[line_no][s] = numbers[s];
                zeros += numbers[s] == 0;
            }
        }
        line_no++;
        pos += len + 1;
    }
    g_count = line_no - 1;
    if (line_no == 0 || g_count != g_rows * g_cols)
        fail();
    if (zeros != 0 && zeros != 2 * (g_rows + g_cols))
        fail();
    g_framed = zeros > 0;
}

static int colour_match(int a, int b) {
#ifdef BUG_BORDER
    return a == b;
#else
    return a == b && a != 0;
#endif
}

/* How many of the cell's conditions the oriented piece meets; `*all` says whether all. */
static int conditions(int cell, int piece, int rot, int *all) {
    int row = cell / g_cols, col = cell % g_cols, met = 0, wanted = 2;
    int outer[4] = {row == 0, col == g_cols - 1, row == g_rows - 1, col == 0};
    met += row == 0 || colour_match(side_of(piece, rot, 0), g_side[cell - g_cols][2]);
    met += col == 0 || colour_match(side_of(piece, rot, 3), g_side[cell - 1][1]);
#ifndef BUG_BORDER
    if (g_framed) {
        wanted += 4;
        for (int s = 0; s < 4; s++)
            met += (side_of(piece, rot, s) == 0) == outer[s];
    }
#else
    (void)outer;
#endif
    *all = met == wanted;
    return met;
}

static void place(int cell, int piece, int rot) {
    g_board_piece[cell] = piece;
    g_board_rot[cell] = rot;
    for (int s = 0; s < 4; s++)
        g_side[cell][s] = side_of(piece, rot, s);
}

static int same_rotation_before(int piece, int rot) {
    for (int r = 0; r < rot; r++) {
        int same = 1;
        for (int s = 0; s < 4; s++)
            same &= side_of(piece, r, s) == side_of(piece, rot, s);
        if (same)
            return 1;
    }
    return 0;
}

static int skipped_twin(int piece) {
#ifdef BUG_REUSE
    (void)piece;
    return 0;
#else
    for (int k = 0; k < g_twins[piece]; k++)
        if (!g_used[g_twin_of[piece][k]])
            return 1;
    return 0;
#endif
}

static void index_candidates(void) {
    for (int piece = 2; piece <= g_count; piece++)
        for (int rot = 0; rot < 4; rot++) {
            int left = side_of(piece, rot, 3);
            if (same_rotation_before(piece, rot))
                continue;
            g_by_left[left][g_by_left_count[left]][0] = piece;
            g_by_left[left][g_by_left_count[left]++][1] = rot;
            g_by_left[100][g_by_left_count[100]][0] = piece;
            g_by_left[100][g_by_left_count[100]++][1] = rot;
        }
}

static int search(int cell) {
    int all, key;
    if (cell == g_count)
        return 1;
    key = cell % g_cols ? g_side[cell - 1][1] : 100;
#ifndef BUG_BORDER
    if (cell % g_cols == 0 && g_framed)
        key = 0;
#endif
    for (int k = 0; k < g_by_left_count[key]; k++) {
        int piece = g_by_left[key][k][0], rot = g_by_left[key][k][1];
#ifndef BUG_REUSE
        if (g_used[piece])
            continue;
#endif
        if (skipped_twin(piece))
            continue;
        conditions(cell, piece, rot, &all);
        if (!all)
            continue;
        place(cell, piece, rot);
        g_used[piece] = 1;
        if (search(cell + 1))
            return 1;
        g_used[piece] = 0;
    }
    return 0;
}

static void heuristic(void) {
    for (int cell = 1; cell < g_count; cell++) {
        int best = -1, best_piece = 0, best_rot = 0, all = 0;
        for (int piece = 2; piece <= g_count && !all; piece++) {
            if (g_used[piece])
                continue;
            for (int rot = 0; rot < 4; rot++) {
                int met = conditions(cell, piece, rot, &all);
                if (met > best) {
                    best = met;
                    best_piece = piece;
                    best_rot = rot;
                }
                if (all)
                    break;
            }
        }
        place(cell, best_piece, best_rot);
        g_used[best_piece] = 1;
    }
}

static int impossible(void) {
    int counts[100] = {0};
#ifndef BUG_BORDER
    if (g_framed && !(g_piece[1][0] == 0 && g_piece[1][3] == 0 && (g_piece[1][1] == 0) == (g_cols == 1)
                      && (g_piece[1][2] == 0) == (g_rows == 1)))
        return 1;
#endif
    if (!g_framed)
        return 0;
    for (int p = 1; p <= g_count; p++)
        for (int s = 0; s < 4; s++)
            counts[g_piece[p][s]]++;
    for (int c = 1; c < 100; c++)
        if (counts[c] % 2)
            return 1;
    return 0;
}

static void find_twins(void) {
    for (int p = 1; p <= g_count; p++)
        for (int q = 1; q < p; q++)
            for (int r = 0; r < 4; r++) {
                int same = 1;
                for (int s = 0; s < 4; s++)
                    same &= side_of(q, 0, s) == side_of(p, r, s);
                if (same) {
                    g_twin_of[p][g_twins[p]++] = q;
                    break;
                }
            }
}

static void print_board(void) {
    for (int cell = 0; cell < g_count; cell++) {
#ifdef BUG_NO_ROTATION
        printf("%d/0", g_board_piece[cell]);
#else
        printf("%d/%d", g_board_piece[cell], g_board_rot[cell]);
#endif
        putchar(cell % g_cols == g_cols - 1 ? '\n' : ' ');
    }
}

int main(int argc, char **argv) {
    static char data[MAX_FILE + 1];
    size_t size = 0;
    ssize_t got;
    int fd;
    if (argc != 2) {
        fputs("usage: ./solver puzzle.txt\n", stdout);
        return 1;
    }
    fd = open(argv[1], O_RDONLY);
    if (fd < 0)
        fail();
    while (size < MAX_FILE && (got = read(fd, data + size, MAX_FILE - size)) > 0)
        size += (size_t)got;
    close(fd);
    parse(data, size);
    place(0, 1, 0);
    g_used[1] = 1;
#ifdef HEURISTIC
    (void)find_twins;
    (void)impossible;
    (void)search;
    (void)index_candidates;
    heuristic();
    print_board();
#else
    (void)heuristic;
    find_twins();
    index_candidates();
    if (impossible() || !search(1))
        fputs("none\n", stdout);
    else
        print_board();
#endif
    return 0;
}
