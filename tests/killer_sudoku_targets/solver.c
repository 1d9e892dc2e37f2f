/* A correct Killer Sudoku solver (docs/exercises/killer-sudoku.md), written apart from the
 * reference: it checks every rule of the input, then searches the cell with the fewest
 * candidates first, a digit being a candidate when its row, column, box and cage do not
 * hold it and the cage's other empty cells can still reach its sum with distinct unused
 * digits. It counts solutions up to two; with two, it searches again cell by cell in
 * reading order, which finds the first solution in reading order.
 *
 * Deliberate bugs for tests/test_killer_sudoku_solvers.py, one per -D flag:
 *   NO_CAGE_SUMS     ignores cage sums (and rule 4): a plain sudoku solver
 *   IGNORE_BOXES     forgets that a 3x3 box holds each digit once
 *   NO_BACKTRACK     keeps the first candidate of each cell and never goes back: when a
 *                    cell has none left it prints the grid as it is (0 for an empty cell)
 *   IGNORE_GIVENS    solves as if no cell were given
 *   EIGHT_ROWS       prints the first 8 rows only
 *   SPACED           prints a space between cells
 *   TRUST_INPUT      checks no rule of the input; prints nothing when no grid fits
 *   CRASH_BIG_CAGES  crashes (SIGSEGV) on a cage of more than 6 cells
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALL 0x3FE /* digits 1..9 as bits 1..9 */
#ifdef EIGHT_ROWS
#define ROWS_PRINTED 8
#else
#define ROWS_PRINTED 9
#endif
#ifdef SPACED
#define CELL_FORMAT(col) ((col) ? " %d" : "%d")
#else
#define CELL_FORMAT(col) "%d"
#endif

static int grid[81], given[81], cage_of[81];
static int cage_total[52], cage_size[52], cage_count;
static int row_used[9], col_used[9], box_used[9], cage_used[52], cage_left[52], cage_open[52];
static int min_sum[512][10], max_sum[512][10];
static int solutions, first[81], reading_order;
static char text[1 << 16];

static int letter_index(int ch)
{
    if (ch >= 'a' && ch <= 'z')
        return ch - 'a';
    if (ch >= 'A' && ch <= 'Z')
        return 26 + ch - 'A';
    return -1;
}

static int box(int cell) { return cell / 27 * 3 + cell % 9 / 3; }

static void bounds(void)
{
    for (int mask = 0; mask < 512; mask++)
        for (int k = 0; k <= 9; k++) {
            int low = 0, high = 0, taken = 0;
            for (int d = 1; d <= 9 && taken < k; d++)
                if (mask >> (d - 1) & 1) { low += d; taken++; }
            if (taken < k) { min_sum[mask][k] = 1000; max_sum[mask][k] = -1; continue; }
            taken = 0;
            for (int d = 9; d >= 1 && taken < k; d--)
                if (mask >> (d - 1) & 1) { high += d; taken++; }
            min_sum[mask][k] = low;
            max_sum[mask][k] = high;
        }
}

static int candidates(int cell)
{
#ifdef IGNORE_BOXES
    int free = ALL & ~(row_used[cell / 9] | col_used[cell % 9]);
#else
    int free = ALL & ~(row_used[cell / 9] | col_used[cell % 9] | box_used[box(cell)]);
#endif
#ifndef NO_CAGE_SUMS
    int cage = cage_of[cell], result = 0;
    free &= ~cage_used[cage];
    for (int d = 1; d <= 9; d++) {
        if (!(free >> d & 1))
            continue;
        int rest = cage_left[cage] - d, others = cage_open[cage] - 1;
        if (others < 0)
            return 0; /* TRUST_INPUT: a cage never read */
        int unused = (ALL & ~cage_used[cage] & ~(1 << d)) >> 1;
        if (others == 0 ? rest == 0 : rest >= min_sum[unused][others] && rest <= max_sum[unused][others])
            result |= 1 << d;
    }
    return result;
#else
    return free;
#endif
}

static void place(int cell, int d, int sign)
{
    int bit = 1 << d, cage = cage_of[cell];
    row_used[cell / 9] ^= bit;
    col_used[cell % 9] ^= bit;
    box_used[box(cell)] ^= bit;
    cage_used[cage] ^= bit;
    cage_left[cage] -= sign * d;
    cage_open[cage] -= sign;
    grid[cell] = sign > 0 ? d : 0;
}

static void search(int limit)
{
    int best = -1, best_count = 10, best_mask = 0;
    for (int cell = 0; cell < 81; cell++) {
        if (grid[cell])
            continue;
        int mask = candidates(cell), count = __builtin_popcount(mask);
        if (count < best_count) {
            best = cell, best_count = count, best_mask = mask;
            if (count == 0 || reading_order)
                break;
        }
    }
#ifdef NO_BACKTRACK
    if (best >= 0 && best_count == 0)
        best = -1; /* stuck: this grid, holes and all, is the answer */
#endif
    if (best < 0) {
        if (solutions++ == 0)
            memcpy(first, grid, sizeof grid);
        return;
    }
    for (int d = 1; d <= 9 && solutions < limit; d++)
        if (best_mask >> d & 1) {
            place(best, d, 1);
            search(limit);
            place(best, d, -1);
#ifdef NO_BACKTRACK
            break;
#endif
        }
}

/* 1 when the input follows every rule of the contract (all but "no_solution") */
static int read_puzzle(char *input, size_t length)
{
    char *lines[11];
    int count = 0;
    if (length == 0)
        return 0;
    if (input[length - 1] == '\n')
        input[--length] = '\0';
    for (char *start = input;; ) {
        if (count == 11)
            return 0;
        lines[count++] = start;
        char *end = memchr(start, '\n', input + length - start);
        if (!end)
            break;
        *end = '\0';
        start = end + 1;
    }
    if (count != 10 || strlen(lines[9]) != (size_t)(input + length - lines[9]))
        return 0; /* a NUL byte inside the input */
    int seen[52] = {0}, has_sum[52] = {0};
    for (int row = 0; row < 9; row++) {
        char *line = lines[row];
        if (strlen(line) != 19 || line[9] != ' ')
            return 0;
        for (int col = 0; col < 9; col++) {
            char digit = line[col];
            int cage = letter_index((unsigned char)line[10 + col]);
            if (!((digit >= '1' && digit <= '9') || digit == '.') || cage < 0)
                return 0;
            given[row * 9 + col] = digit == '.' ? 0 : digit - '0';
            cage_of[row * 9 + col] = cage;
            seen[cage] = 1;
        }
    }
    for (char *entry = lines[9];; ) {
        char *space = strchr(entry, ' ');
        if (space)
            *space = '\0';
        int cage = letter_index((unsigned char)entry[0]);
        if (cage < 0 || entry[1] != '=' || entry[2] == '\0' || has_sum[cage] || !seen[cage])
            return 0;
        long total = 0;
        for (char *p = entry + 2; *p; p++) {
            if (*p < '0' || *p > '9' || total > 1000)
                return 0;
            total = total * 10 + *p - '0';
        }
        has_sum[cage] = 1;
        cage_total[cage] = (int)total;
        if (!space)
            break;
        entry = space + 1;
    }
    int sum_of_sums = 0;
    for (int cage = 0; cage < 52; cage++) {
        if (seen[cage] && !has_sum[cage])
            return 0;
        if (!seen[cage])
            continue;
        int stack[81], reached[81] = {0}, top = 0, size = 0, start = -1;
        for (int cell = 0; cell < 81; cell++)
            if (cage_of[cell] == cage)
                size++, start = start < 0 ? cell : start;
        stack[top++] = start;
        reached[start] = 1;
        int found = 0;
        while (top) {
            int cell = stack[--top], around[4] = {cell - 9, cell + 9, cell % 9 ? cell - 1 : -1,
                                                  cell % 9 < 8 ? cell + 1 : -1};
            found++;
            for (int k = 0; k < 4; k++)
                if (around[k] >= 0 && around[k] < 81 && !reached[around[k]] && cage_of[around[k]] == cage) {
                    reached[around[k]] = 1;
                    stack[top++] = around[k];
                }
        }
#ifdef CRASH_BIG_CAGES
        if (size > 6)
            *(volatile int *)0 = size;
#endif
        if (found != size || size > 9 || cage_total[cage] < size * (size + 1) / 2
            || cage_total[cage] > size * (19 - size) / 2)
            return 0;
        cage_size[cage] = size;
        sum_of_sums += cage_total[cage];
    }
    if (sum_of_sums != 405)
        return 0;
    for (int cell = 0; cell < 81; cell++) {
        int d = given[cell], cage = cage_of[cell];
        if (!d)
            continue;
        if ((row_used[cell / 9] | col_used[cell % 9] | box_used[box(cell)] | cage_used[cage]) >> d & 1)
            return 0;
        row_used[cell / 9] |= 1 << d, col_used[cell % 9] |= 1 << d, box_used[box(cell)] |= 1 << d;
        cage_used[cage] |= 1 << d;
    }
    for (int cage = 0; cage < 52; cage++) {
        if (!seen[cage])
            continue;
        int fits = 0;
        for (int set = 0; set < 512 && !fits; set++) {
            int total = 0;
            for (int d = 1; d <= 9; d++)
                total += (set >> (d - 1) & 1) * d;
            fits = __builtin_popcount(set) == cage_size[cage] && total == cage_total[cage]
                && ((set << 1) & cage_used[cage]) == cage_used[cage];
        }
        if (!fits)
            return 0;
    }
    cage_count = 52;
    return 1;
}

static void reset(void)
{
    memset(row_used, 0, sizeof row_used), memset(col_used, 0, sizeof col_used);
    memset(box_used, 0, sizeof box_used), memset(cage_used, 0, sizeof cage_used);
    memset(grid, 0, sizeof grid);
    for (int cage = 0; cage < cage_count; cage++)
        cage_left[cage] = cage_total[cage], cage_open[cage] = cage_size[cage];
#ifndef IGNORE_GIVENS
    for (int cell = 0; cell < 81; cell++)
        if (given[cell])
            place(cell, given[cell], 1);
#endif
}

int main(void)
{
    size_t length = fread(text, 1, sizeof text - 1, stdin);
    int valid = read_puzzle(text, length) && length < sizeof text - 1;
#ifdef TRUST_INPUT
    valid = 1;
    cage_count = 52;
#endif
    if (!valid) {
        printf("error\n");
        return 0;
    }
    bounds();
    reset();
    search(2);
    if (solutions == 0) {
#ifndef TRUST_INPUT
        printf("error\n");
#endif
        return 0;
    }
    if (solutions == 2) {
        reset();
        solutions = 0;
        reading_order = 1;
        search(1);
    }
    for (int row = 0; row < ROWS_PRINTED; row++) {
        for (int col = 0; col < 9; col++)
            printf(CELL_FORMAT(col), first[row * 9 + col]);
        printf("\n");
    }
    return 0;
}
