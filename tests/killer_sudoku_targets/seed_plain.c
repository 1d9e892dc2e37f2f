/* The seed's plain algorithm (seeds/004), as a student writes it for CodinGame: the first
 * empty cell in reading order takes 1..9; a digit goes in when its row, column and box do
 * not hold it and its cage can still reach its sum (larger digits are not tried once the
 * cage passes its sum). It prints the first full grid, and nothing when there is none. It
 * checks no input rule.
 *
 * Like the seed, it does not check rule 4 (no digit twice in a cage): built with -DRULE4
 * it does. Test target of tests/test_killer_sudoku_solvers.py: correct on easy puzzles,
 * far too slow on puzzles with few givens, blind to invalid input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int grid[81];
static char cage_of[81];
static int total_of[128];

static int fits(int cell, int digit)
{
    int row = cell / 9, col = cell % 9;
    int top = row / 3 * 3, left = col / 3 * 3;
    for (int k = 0; k < 9; k++)
        if (grid[row * 9 + k] == digit || grid[k * 9 + col] == digit
            || grid[(top + k / 3) * 9 + left + k % 3] == digit)
            return 0;
#ifdef RULE4
    for (int other = 0; other < 81; other++)
        if (cage_of[other] == cage_of[cell] && grid[other] == digit)
            return 0;
#endif
    return 1;
}

/* -1: the cage's filled cells pass its sum; 1: it may still add up; 0: full, and misses it */
static int cage_allows(int cell, int digit)
{
    int sum = digit;
    for (int other = 0; other < 81; other++) {
        if (cage_of[other] != cage_of[cell])
            continue;
        if (grid[other]) {
            sum += grid[other];
            if (sum > total_of[(int)cage_of[cell]])
                return -1;
        } else if (other != cell)
            return 1;
    }
    return sum == total_of[(int)cage_of[cell]];
}

static void solve(void)
{
    int cell = 0;
    while (cell < 81 && grid[cell])
        cell++;
    if (cell == 81) {
        for (int row = 0; row < 9; row++) {
            for (int col = 0; col < 9; col++)
                putchar('0' + grid[row * 9 + col]);
            putchar('\n');
        }
        exit(0);
    }
    for (int digit = 1; digit <= 9; digit++) {
        int allowed = cage_allows(cell, digit);
        if (fits(cell, digit) && allowed == 1) {
            grid[cell] = digit;
            solve();
            grid[cell] = 0;
        } else if (fits(cell, digit) && allowed == -1)
            break;
    }
}

int main(void)
{
    char digits[64], letters[64], line[4096];
    for (int row = 0; row < 9; row++) {
        if (scanf("%63s %63s", digits, letters) != 2)
            return 0;
        for (int col = 0; col < 9; col++) {
            grid[row * 9 + col] = digits[col] == '.' ? 0 : digits[col] - '0';
            cage_of[row * 9 + col] = letters[col];
        }
    }
    getchar();
    if (!fgets(line, sizeof line, stdin))
        return 0;
    for (char *entry = strtok(line, " \n"); entry; entry = strtok(NULL, " \n"))
        if (strlen(entry) > 2 && entry[1] == '=')
            total_of[(unsigned char)entry[0] & 127] = atoi(entry + 2);
    solve();
    return 0;
}
