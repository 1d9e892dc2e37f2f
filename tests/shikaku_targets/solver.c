/*
 * A Shikaku solver graded by tests/test_shikaku_grading.py (docs/exercises/shikaku.md):
 * reads the puzzle on stdin, prints the number of solutions and the first one in sorted
 * order, or "error".  Written apart from the Python reference, in the seed's way: scan
 * for the first cell without a letter, try every rectangle of every clue not yet placed
 * that has that cell as its top-left corner, recurse, take it back.
 *
 * Correct by default: before each step it checks that every clue not yet placed still
 * has some rectangle that fits (the seed: detect dead ends early), so a doomed puzzle
 * is answered at once.  -DPLAIN leaves that check out: the seed's plain search, for
 * counting its tries (-DCOUNT_TRIES prints them on stderr).
 *
 * Deliberately wrong builds, one defect each:
 *   -DBUG_FIRST_ONLY  stops at the first solution found (count 1, not the sorted first)
 *   -DBUG_LAST        prints the last solution in sorted order instead of the first
 *   -DBUG_OVERLAP     "enough space" looks for other clues only, not for letters, so a
 *                     rectangle may be drawn over one placed before; and a grid counts as
 *                     solved once every clue is placed (cells left empty print '.')
 *   -DBUG_NO_NEWLINE  no '\n' after the last line of the grid
 *   -DBUG_NONDET      prints a stray number taken from /dev/urandom after the count
 *   -DBUG_NO_SUM      never checks that the areas add up to W x H
 *   -DBUG_CLUE_ORDER  letters in the order of the clues, not of the top-left corners
 *   -DBUG_NO_SOLUTION_CRASH  prints "the first solution" even when there is none (SIGSEGV),
 *                     as the seed's `answer` would (solutions[0] of an empty list)
 *   -DBUG_FLOOD       prints "error" forever on an invalid input
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_SIDE 30
#define MAX_CLUES 52
#define MAX_TOKEN_VALUE 1000000000L

static const char LETTERS[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

static int width, height, clue_count;
static int clue_row[MAX_CLUES], clue_col[MAX_CLUES], clue_area[MAX_CLUES], placed[MAX_CLUES];
static int clue_at[MAX_SIDE][MAX_SIDE];  /* clue index + 1, or 0 */
static int owner[MAX_SIDE][MAX_SIDE];    /* letter index + 1, or 0 */
static char best[MAX_SIDE * MAX_SIDE], last[MAX_SIDE * MAX_SIDE];
static unsigned long long solutions, tries;
static int stop;
#ifdef BUG_NO_SOLUTION_CRASH
static const char *volatile null_grid; /* NULL: "solutions[0]" of none */
#endif

/* ---- input ------------------------------------------------------------------------- */

static char *read_all(size_t *length)
{
    size_t size = 4096, used = 0;
    char *data = malloc(size);
    ssize_t got;

    while (data && (got = read(0, data + used, size - used)) > 0) {
        used += (size_t)got;
        if (used == size)
            data = realloc(data, size *= 2);
    }
    *length = used;
    return data;
}

/* The next line of the input (its '\r' before '\n' left out); NULL at the end. */
static char *next_line(char **cursor, char *end, size_t *length)
{
    char *line = *cursor, *stop_at;

    if (line >= end)
        return NULL;
    stop_at = memchr(line, '\n', (size_t)(end - line));
    if (!stop_at)
        stop_at = end;
    *cursor = stop_at + 1;
    *length = (size_t)(stop_at - line);
    if (*length && line[*length - 1] == '\r')
        (*length)--;
    return line;
}

/* The numbers of a line (blanks: spaces and tabs); -1 when a token is not [0-9]+. */
static int numbers_of(const char *line, size_t length, long *out, int capacity)
{
    int count = 0;
    size_t i = 0;

    while (i < length) {
        if (line[i] == ' ' || line[i] == '\t') {
            i++;
            continue;
        }
        long value = 0;
        size_t start = i;
        while (i < length && line[i] != ' ' && line[i] != '\t') {
            if (line[i] < '0' || line[i] > '9')
                return -1;
            if (value < MAX_TOKEN_VALUE)
                value = value * 10 + (line[i] - '0');
            i++;
        }
        if (i == start)
            return -1;
        if (count < capacity)
            out[count] = value;
        count++;
    }
    return count;
}

static int blank(const char *line, size_t length)
{
    for (size_t i = 0; i < length; i++)
        if (line[i] != ' ' && line[i] != '\t')
            return 0;
    return 1;
}

static int load(void)
{
    size_t size, length;
    char *data = read_all(&size), *cursor = data, *end, *line;
    long numbers[MAX_SIDE + 1], total = 0;

    if (!data)
        return 0;
    end = data + size;
    line = next_line(&cursor, end, &length);
    if (!line || numbers_of(line, length, numbers, 3) != 2)
        return 0;
    width = (int)numbers[0];
    height = (int)numbers[1];
    if (width < 1 || width > MAX_SIDE || height < 1 || height > MAX_SIDE)
        return 0;
    for (int r = 0; r < height; r++) {
        line = next_line(&cursor, end, &length);
        if (!line || numbers_of(line, length, numbers, MAX_SIDE + 1) != width)
            return 0;
        for (int c = 0; c < width; c++) {
            if (!numbers[c])
                continue;
            if (clue_count == MAX_CLUES)
                return 0;
            clue_row[clue_count] = r;
            clue_col[clue_count] = c;
            clue_area[clue_count] = (int)numbers[c];
            total += numbers[c];
            clue_at[r][c] = ++clue_count;
        }
    }
    while ((line = next_line(&cursor, end, &length)))
        if (!blank(line, length))
            return 0;
    free(data);
#ifndef BUG_NO_SUM
    if (total != (long)width * height)
        return 0;
#endif
    return 1;
}

/* ---- search ------------------------------------------------------------------------ */

/* Inside the grid, holds clue k's cell, no other clue's, and (but for BUG_OVERLAP) no letter. */
static int fits(int k, int top, int left, int h, int w)
{
    if (top < 0 || left < 0 || top + h > height || left + w > width)
        return 0;
    if (clue_row[k] < top || clue_row[k] >= top + h || clue_col[k] < left || clue_col[k] >= left + w)
        return 0;
    for (int r = top; r < top + h; r++)
        for (int c = left; c < left + w; c++) {
            if (clue_at[r][c] && clue_at[r][c] != k + 1)
                return 0;
#ifndef BUG_OVERLAP
            if (owner[r][c])
                return 0;
#endif
        }
    return 1;
}

static void paint(int top, int left, int h, int w, int value)
{
    for (int r = top; r < top + h; r++)
        for (int c = left; c < left + w; c++)
            owner[r][c] = value;
}

#ifndef PLAIN
/* Some rectangle of clue k still fits: its area is not doomed. */
static int can_fit(int k)
{
    int area = clue_area[k];

    for (int h = 1; h <= area; h++) {
        if (area % h)
            continue;
        int w = area / h;
        for (int top = clue_row[k] - h + 1; top <= clue_row[k]; top++)
            for (int left = clue_col[k] - w + 1; left <= clue_col[k]; left++)
                if (fits(k, top, left, h, w))
                    return 1;
    }
    return 0;
}

static int all_can_fit(void)
{
    for (int k = 0; k < clue_count; k++)
        if (!placed[k] && !can_fit(k))
            return 0;
    return 1;
}
#endif

static void record(void)
{
    char grid[MAX_SIDE * MAX_SIDE];
    int cells = width * height;

    for (int r = 0; r < height; r++)
        for (int c = 0; c < width; c++)
            grid[r * width + c] = owner[r][c] ? LETTERS[owner[r][c] - 1] : '.';
    if (!solutions || memcmp(grid, best, (size_t)cells) < 0)
        memcpy(best, grid, (size_t)cells);
    if (!solutions || memcmp(grid, last, (size_t)cells) > 0)
        memcpy(last, grid, (size_t)cells);
    solutions++;
#ifdef BUG_FIRST_ONLY
    stop = 1;
#endif
}

static void solve(int cell, int letter)
{
#ifdef BUG_OVERLAP
    if (letter == clue_count) {
        record();
        return;
    }
#endif
    while (cell < width * height && owner[cell / width][cell % width])
        cell++;
    if (cell == width * height) {
        record();
        return;
    }
#ifndef PLAIN
    if (!all_can_fit())
        return;
#endif
    int top = cell / width, left = cell % width;
    for (int k = 0; k < clue_count && !stop; k++) {
        if (placed[k])
            continue;
        for (int h = 1; h <= clue_area[k] && !stop; h++) {
            if (clue_area[k] % h || !fits(k, top, left, h, clue_area[k] / h))
                continue;
            int w = clue_area[k] / h;
            tries++;
#ifdef BUG_CLUE_ORDER
            int label = k + 1;
#else
            int label = letter + 1;
#endif
#ifdef BUG_OVERLAP
            int saved[MAX_SIDE][MAX_SIDE]; /* taking back must restore what was drawn over */
            memcpy(saved, owner, sizeof owner);
#endif
            paint(top, left, h, w, label);
            placed[k] = 1;
            solve(cell + 1, letter + 1);
            placed[k] = 0;
#ifdef BUG_OVERLAP
            memcpy(owner, saved, sizeof owner);
#else
            paint(top, left, h, w, 0);
#endif
        }
    }
}

int main(void)
{
    if (!load()) {
#ifdef BUG_FLOOD
        for (;;)
#endif
        fputs("error\n", stdout);
        return 0;
    }
    solve(0, 0);
#ifdef COUNT_TRIES
    fprintf(stderr, "tries %llu\n", tries);
#endif
    printf("%llu", solutions);
#ifdef BUG_NONDET
    unsigned int noise = 0;
    int fd = open("/dev/urandom", O_RDONLY);
    if (fd >= 0 && read(fd, &noise, sizeof noise) == (ssize_t)sizeof noise)
        printf(" %u", noise);
    if (fd >= 0)
        close(fd);
#endif
    printf("\n");
#ifdef BUG_LAST
    const char *shown = last;
#else
    const char *shown = best;
#endif
#ifdef BUG_NO_SOLUTION_CRASH
    if (!solutions)
        shown = null_grid;
#else
    if (!solutions)
        return 0;
#endif
    for (int r = 0; r < height; r++) {
        fwrite(shown + r * width, 1, (size_t)width, stdout);
#ifdef BUG_NO_NEWLINE
        if (r + 1 < height)
#endif
        putchar('\n');
    }
    return 0;
}
