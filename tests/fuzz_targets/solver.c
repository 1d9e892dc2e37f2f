/*
** A small, correct fillit (SPEC.md) used as a fuzzing target by tests/test_fuzz.py.
**
** Built as is, it must agree with the reference on every input.  Built with
** -DBUG_S_PIECE it is wrong only on some inputs: when a valid file holds at
** least 3 pieces and one of them is an S piece, that piece is printed with a
** lowercase letter.  The smallest file that shows the bug is therefore exactly
** 3 pieces, one an S: what the shrinker must find.
*/
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#define MAX_PIECES 26
#define BLOCK 20
#define READ_MAX (MAX_PIECES * (BLOCK + 1) + 1)

typedef struct s_piece
{
	int	rows[4];
	int	cols[4];
	int	height;
	int	width;
}	t_piece;

static t_piece	g_pieces[MAX_PIECES];
static int		g_count;
static char		g_grid[16][16];
static int		g_side;

static int	fail(void)
{
	write(1, "error\n", 6);
	return (0);
}

/* One block of 20 bytes: 4 lines of 4 '#'/'.' then '\n'; 4 '#' that touch. */
static int	read_block(const char *b, t_piece *p)
{
	int	n = 0, i, j, edges = 0, top = 4, left = 4;

	for (i = 0; i < BLOCK; i++)
	{
		if (i % 5 == 4)
		{
			if (b[i] != '\n')
				return (0);
		}
		else if (b[i] == '#')
		{
			if (n == 4)
				return (0);
			p->rows[n] = i / 5;
			p->cols[n] = i % 5;
			n++;
		}
		else if (b[i] != '.')
			return (0);
	}
	if (n != 4)
		return (0);
	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++)
			if ((p->rows[i] == p->rows[j] && (p->cols[i] - p->cols[j] == 1 || p->cols[j] - p->cols[i] == 1))
				|| (p->cols[i] == p->cols[j] && (p->rows[i] - p->rows[j] == 1 || p->rows[j] - p->rows[i] == 1)))
				edges++;
	if (edges < 6)
		return (0);
	for (i = 0; i < 4; i++)
	{
		top = p->rows[i] < top ? p->rows[i] : top;
		left = p->cols[i] < left ? p->cols[i] : left;
	}
	p->height = 0;
	p->width = 0;
	for (i = 0; i < 4; i++)
	{
		p->rows[i] -= top;
		p->cols[i] -= left;
		p->height = p->rows[i] + 1 > p->height ? p->rows[i] + 1 : p->height;
		p->width = p->cols[i] + 1 > p->width ? p->cols[i] + 1 : p->width;
	}
	return (1);
}

static int	parse(const char *buf, int size)
{
	int	i;

	if (size < BLOCK || (size + 1) % (BLOCK + 1) != 0)
		return (0);
	g_count = (size + 1) / (BLOCK + 1);
	if (g_count > MAX_PIECES)
		return (0);
	for (i = 0; i < g_count; i++)
	{
		if (!read_block(buf + i * (BLOCK + 1), &g_pieces[i]))
			return (0);
		if (i + 1 < g_count && buf[i * (BLOCK + 1) + BLOCK] != '\n')
			return (0);
	}
	return (1);
}

static int	fits(const t_piece *p, int r, int c)
{
	int	k;

	for (k = 0; k < 4; k++)
		if (g_grid[r + p->rows[k]][c + p->cols[k]] != '.')
			return (0);
	return (1);
}

static void	put(const t_piece *p, int r, int c, char ch)
{
	int	k;

	for (k = 0; k < 4; k++)
		g_grid[r + p->rows[k]][c + p->cols[k]] = ch;
}

static int	solve(int index)
{
	const t_piece	*p;
	int				r, c;

	if (index == g_count)
		return (1);
	p = &g_pieces[index];
	for (r = 0; r + p->height <= g_side; r++)
		for (c = 0; c + p->width <= g_side; c++)
			if (fits(p, r, c))
			{
				put(p, r, c, 'A' + index);
				if (solve(index + 1))
					return (1);
				put(p, r, c, '.');
			}
	return (0);
}

#ifdef BUG_S_PIECE
static int	is_s(const t_piece *p)
{
	/* S_horizontal .##/##.  and  S_vertical #./##/.# */
	int	h = 0, v = 0, k;

	for (k = 0; k < 4; k++)
	{
		int r = p->rows[k], c = p->cols[k];
		h += (r == 0 && (c == 1 || c == 2)) || (r == 1 && (c == 0 || c == 1));
		v += (c == 0 && (r == 0 || r == 1)) || (c == 1 && (r == 1 || r == 2));
	}
	return (h == 4 || v == 4);
}
#endif

int	main(int argc, char **argv)
{
	static char	buf[READ_MAX + 1];
	int			fd, size = 0, got, r, c;
	char		line[17];

	if (argc != 2)
	{
		write(1, "usage: fillit input_file\n", 25);
		return (1);
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		return (fail());
	while ((got = read(fd, buf + size, READ_MAX - size)) > 0)
		size += got;
	close(fd);
	if (got < 0 || size >= READ_MAX || !parse(buf, size))
		return (fail());
	g_side = 2;
	while (g_side * g_side < 4 * g_count)
		g_side++;
	for (;;)
	{
		for (r = 0; r < 16; r++)
			for (c = 0; c < 16; c++)
				g_grid[r][c] = '.';
		if (solve(0))
			break ;
		g_side++;
	}
#ifdef BUG_S_PIECE
	if (g_count >= 3)
		for (got = 0; got < g_count; got++)
			if (is_s(&g_pieces[got]))
				for (r = 0; r < g_side; r++)
					for (c = 0; c < g_side; c++)
						if (g_grid[r][c] == 'A' + got)
							g_grid[r][c] = 'a' + got;
#endif
	for (r = 0; r < g_side; r++)
	{
		for (c = 0; c < g_side; c++)
			line[c] = g_grid[r][c];
		line[g_side] = '\n';
		write(1, line, g_side + 1);
	}
	return (0);
}
