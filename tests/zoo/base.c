/*
 * base.c -- a correct fillit, the base of the mutant zoo.
 *
 * Every mutant in mutants.toml is this file with a few exact-text replacements
 * (each replaced text occurs exactly once here), so edit with care: changing a
 * line a mutant replaces breaks that mutant's build (tests/test_zoo_build.py).
 *
 * Behaviour (SPEC.md): argc != 2 -> usage on stdout; missing, unreadable,
 * directory or invalid file -> "error\n" on stdout; valid -> the smallest square,
 * upper-left-first placement.  A trailing empty line is an error (42 behaviour).
 *
 * Search: rows are bitmasks (bit c = column c) with walls: the bits right of the
 * square and the rows below it are set, so a fit test needs no bounds.  A piece
 * identical in shape to an earlier piece is tried only after that piece's
 * position (sound for the first solution: swapping two identical pieces that
 * are out of order gives a smaller answer).  Dead-cell prune (sound): an empty
 * region of k cells holds at most k / 4 pieces, so at least k % 4 of its cells
 * stay empty; when the sum over the regions exceeds the slack (side * side -
 * 4 * pieces), no solution extends the current placement.
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_PIECES 26
#define MAX_SIDE 16
#define READ_CAP 600
#define ROWS 20

typedef struct s_piece
{
	uint32_t	mask[4];
	int			same;
	int			row;
	int			col;
}	t_piece;

static t_piece	g_pieces[32];
static uint32_t	g_grid[ROWS];
static int		g_slack;

static void	print_error(void)
{
	fputs("error\n", stdout);
}

/* Length read, or -1 when the file cannot be read or is too big to be valid.
 * An empty file (or a directory, which reads as nothing) gives 0 and no buffer. */
static int	read_file(const char *path, char **out)
{
	FILE	*f;
	char	*buf;
	size_t	got;

	*out = NULL;
	f = fopen(path, "rb");
	if (!f)
		return (-1);
	buf = malloc(READ_CAP + 1);
	if (!buf)
	{
		fclose(f);
		return (-1);
	}
	got = fread(buf, 1, READ_CAP + 1, f);
	fclose(f);
	if (got == 0 || got > READ_CAP)
	{
		free(buf);
		return (got == 0 ? 0 : -1);
	}
	*out = buf;
	return ((int)got);
}

static int	make_piece(char block[][4], t_piece *p)
{
	int	r;
	int	c;
	int	count = 0;
	int	links = 0;
	int	top = 4;
	int	left = 4;

	for (r = 0; r < 4; r++)
		for (c = 0; c < 4; c++)
		{
			if (block[r][c] != '#')
				continue ;
			count++;
			top = r < top ? r : top;
			left = c < left ? c : left;
			if (r > 0 && block[r - 1][c] == '#')
				links++;
			if (c > 0 && block[r][c - 1] == '#')
				links++;
		}
	if (count != 4)
		return (-1);
	if (links < 3)
		return (-1);
	memset(p->mask, 0, sizeof(p->mask));
	for (r = 0; r < 4; r++)
		for (c = 0; c < 4; c++)
			if (block[r][c] == '#')
				p->mask[r - top] |= 1u << (c - left);
	return (0);
}

static int	same_shape(const t_piece *a, const t_piece *b)
{
	return (a->mask[0] == b->mask[0] && a->mask[1] == b->mask[1]
		&& a->mask[2] == b->mask[2] && a->mask[3] == b->mask[3]);
}

/* Number of pieces, or -1 when the file breaks a rule. */
static int	parse(char *buf, int len, t_piece *pieces)
{
	char	block[8][4];
	int		i = 0;
	int		n = 0;
	int		rows;
	int		w;

	if (buf[len - 1] != '\n')
		return (-1);
	while (i < len)
	{
		rows = 0;
		while (i < len && buf[i] != '\n')
		{
			w = 0;
			while (buf[i + w] != '\n')
			{
				if (buf[i + w] != '#' && buf[i + w] != '.')
					return (-1);
				w++;
			}
			if (w != 4 || rows == 4)
				return (-1);
			memcpy(block[rows], buf + i, 4);
			rows++;
			i += w + 1;
		}
		if (rows != 4 || n == MAX_PIECES)
			return (-1);
		if (make_piece(block, &pieces[n]))
			return (-1);
		n++;
		if (i < len && ++i == len)
			return (-1);
	}
	return (n);
}

static void	init_grid(int side, int n)
{
	int	r;

	g_slack = side * side - 4 * n;
	for (r = 0; r < ROWS; r++)
		g_grid[r] = r < side ? ~0u << side : ~0u;
}

static int	fits(const t_piece *p, int r, int c)
{
	return (!(g_grid[r] & p->mask[0] << c)
		&& !(g_grid[r + 1] & p->mask[1] << c)
		&& !(g_grid[r + 2] & p->mask[2] << c)
		&& !(g_grid[r + 3] & p->mask[3] << c));
}

static void	toggle(const t_piece *p, int r, int c)
{
	int	k;

	for (k = 0; k < 4; k++)
		g_grid[r + k] ^= p->mask[k] << c;
}

/* Cells that no placement can fill any more, counted until more than budget. */
static int	wasted_cells(int side, int budget)
{
	uint32_t	empty[ROWS];
	uint32_t	seed[ROWS];
	uint32_t	grow;
	int			r;
	int			top;
	int			changed;
	int			size;
	int			waste = 0;

	for (r = 0; r < side; r++)
		empty[r] = ~g_grid[r];
	for (top = 0; top < side; top++)
		while (empty[top])
		{
			memset(seed + top, 0, (side - top) * sizeof(*seed));
			seed[top] = empty[top] & -empty[top];
			do
			{
				changed = 0;
				for (r = top; r < side; r++)
				{
					grow = seed[r] | seed[r] << 1 | seed[r] >> 1;
					if (r > top)
						grow |= seed[r - 1];
					if (r + 1 < side)
						grow |= seed[r + 1];
					grow &= empty[r];
					changed |= grow != seed[r];
					seed[r] = grow;
				}
			} while (changed);
			size = 0;
			for (r = top; r < side; r++)
			{
				size += __builtin_popcount(seed[r]);
				empty[r] &= ~seed[r];
			}
			waste += size % 4;
			if (waste > budget)
				return (waste);
		}
	return (waste);
}

static int	place(int i, int n, int side)
{
	t_piece	*p;
	int		r = 0;
	int		c = 0;

	if (i == n)
		return (1);
	p = &g_pieces[i];
	if (p->same >= 0)
	{
		r = g_pieces[p->same].row;
		c = g_pieces[p->same].col + 1;
	}
	while (r < side)
	{
		while (c < side)
		{
			if (fits(p, r, c))
			{
				toggle(p, r, c);
				p->row = r;
				p->col = c;
				if (wasted_cells(side, g_slack) <= g_slack
					&& place(i + 1, n, side))
					return (1);
				toggle(p, r, c);
			}
			c++;
		}
		c = 0;
		r++;
	}
	return (0);
}

static void	print_square(int count, int side)
{
	char	out[ROWS][ROWS + 1];
	int		i;
	int		k;
	int		c;
	int		r;

	memset(out, '.', sizeof(out));
	for (i = 0; i < count; i++)
		for (k = 0; k < 4; k++)
			for (c = 0; c < 4; c++)
				if (g_pieces[i].mask[k] >> c & 1)
					out[g_pieces[i].row + k][g_pieces[i].col + c] = 'A' + i;
	for (r = 0; r < side; r++)
	{
		fwrite(out[r], 1, side, stdout);
		putchar('\n');
	}
}

static void	solve(int n)
{
	int	side;
	int	i;
	int	j;

	for (i = 0; i < n; i++)
	{
		g_pieces[i].same = -1;
		for (j = 0; j < i; j++)
			if (same_shape(&g_pieces[i], &g_pieces[j]))
				g_pieces[i].same = j;
	}
	side = 2;
	while (side * side < 4 * n)
		side++;
	init_grid(side, n);
	while (!place(0, n, side))
	{
		if (++side > MAX_SIDE)
		{
			print_error();
			return ;
		}
		init_grid(side, n);
	}
	print_square(n, side);
}

int	main(int argc, char **argv)
{
	char	*buf;
	int		len;
	int		n;

	if (argc != 2)
	{
		fputs("usage: fillit source_file\n", stdout);
		return (0);
	}
	len = read_file(argv[1], &buf);
	if (len <= 0)
	{
		print_error();
		return (0);
	}
	n = parse(buf, len, g_pieces);
	free(buf);
	if (n < 0)
	{
		print_error();
		return (0);
	}
	solve(n);
	return (0);
}
