/*
 * The seed's plain backtracking as a C program: `plain_fillit FILE`. The harness times it on a
 * file a program timed out on (harness/followup.py), the benchmarks race it against the reference.
 * Pieces in file order, each tried at rows top to bottom, columns left to right; the
 * first complete placement wins; otherwise the square grows.  No pruning at all, like a
 * typical student fillit.  The input is assumed valid (callers only pass valid files).
 */
#include <stdio.h>
#include <string.h>

#define MAX_PIECES 26
#define MAX_SIDE 32

static int count, side;
static int cell_row[MAX_PIECES][4], cell_col[MAX_PIECES][4], height[MAX_PIECES], width[MAX_PIECES];
static char grid[MAX_SIDE][MAX_SIDE];

static int read_pieces(FILE *file)
{
    char line[16];
    int row = 0, cells = 0;
    while (fgets(line, sizeof line, file)) {
        if (line[0] == '\n')
            continue;
        for (int col = 0; col < 4; col++)
            if (line[col] == '#') {
                cell_row[count][cells] = row;
                cell_col[count][cells++] = col;
            }
        if (++row == 4) {
            int top = 4, left = 4;
            for (int k = 0; k < 4; k++) {
                if (cell_row[count][k] < top) top = cell_row[count][k];
                if (cell_col[count][k] < left) left = cell_col[count][k];
            }
            height[count] = width[count] = 0;
            for (int k = 0; k < 4; k++) {
                cell_row[count][k] -= top;
                cell_col[count][k] -= left;
                if (cell_row[count][k] >= height[count]) height[count] = cell_row[count][k] + 1;
                if (cell_col[count][k] >= width[count]) width[count] = cell_col[count][k] + 1;
            }
            count++;
            row = cells = 0;
        }
    }
    return count;
}

static int fits(int piece, int row, int col)
{
    for (int k = 0; k < 4; k++)
        if (grid[row + cell_row[piece][k]][col + cell_col[piece][k]] != '.')
            return 0;
    return 1;
}

static void put(int piece, int row, int col, char letter)
{
    for (int k = 0; k < 4; k++)
        grid[row + cell_row[piece][k]][col + cell_col[piece][k]] = letter;
}

static int place(int piece)
{
    if (piece == count)
        return 1;
    for (int row = 0; row + height[piece] <= side; row++)
        for (int col = 0; col + width[piece] <= side; col++)
            if (fits(piece, row, col)) {
                put(piece, row, col, (char)('A' + piece));
                if (place(piece + 1))
                    return 1;
                put(piece, row, col, '.');
            }
    return 0;
}

int main(int argc, char **argv)
{
    FILE *file = argc == 2 ? fopen(argv[1], "r") : NULL;
    if (!file || !read_pieces(file)) {
        puts("error");
        return 1;
    }
    for (side = 2; side * side < 4 * count; side++)
        ;
    for (;; side++) {
        memset(grid, '.', sizeof grid);
        if (place(0))
            break;
    }
    for (int row = 0; row < side; row++)
        printf("%.*s\n", side, grid[row]);
    return 0;
}
