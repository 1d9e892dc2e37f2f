/*
 * correct_plain.c -- a correct fillit written differently from base.c, for the zoo's
 * [[correct]] list: the seed's char grid (one char per cell), pieces as 4 cell offsets,
 * read(2) in a loop, a recursive flood fill for the dead-cell prune, and the
 * identical-piece rule.  Same contract as base.c (SPEC.md, 42 behaviour).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CAP 600

typedef struct
{
	int	r[4];
	int	c[4];
	int	h;
	int	w;
	int	same;
	int	row;
	int	col;
}	t_tetri;

static t_tetri	g_t[26];
static int		g_n;
static int		g_side;
static char		g_map[16][16];
static char		g_seen[16][16];

static int	load(const char *path, char *buf)
{
	int	fd = open(path, O_RDONLY);
	int	len = 0;
	int	got = 1;

	if (fd < 0)
		return (-1);
	while (got > 0 && len <= CAP)
	{
		got = read(fd, buf + len, CAP + 1 - len);
		if (got > 0)
			len += got;
	}
	close(fd);
	return (got < 0 || len > CAP ? -1 : len);
}

/* A block is 20 bytes at fixed places; blocks are 21 bytes apart. */
static int	block(const char *b, t_tetri *t)
{
	int	i;
	int	k = 0;
	int	links = 0;
	int	top = 4;
	int	left = 4;

	for (i = 0; i < 20; i++)
	{
		if (i % 5 == 4 ? b[i] != '\n' : (b[i] != '#' && b[i] != '.'))
			return (0);
		if (b[i] != '#')
			continue ;
		if (k == 4)
			return (0);
		t->r[k] = i / 5;
		t->c[k++] = i % 5;
		links += (i >= 5 && b[i - 5] == '#') + (i % 5 && b[i - 1] == '#');
	}
	if (k != 4 || links < 3)
		return (0);
	for (i = 0; i < 4; i++)
	{
		top = t->r[i] < top ? t->r[i] : top;
		left = t->c[i] < left ? t->c[i] : left;
	}
	t->h = 0;
	t->w = 0;
	for (i = 0; i < 4; i++)
	{
		t->r[i] -= top;
		t->c[i] -= left;
		t->h = t->r[i] + 1 > t->h ? t->r[i] + 1 : t->h;
		t->w = t->c[i] + 1 > t->w ? t->c[i] + 1 : t->w;
	}
	return (1);
}

static int	parse(const char *buf, int len)
{
	int	i;
	int	j;

	if ((len + 1) % 21 || len < 20 || len > 26 * 21 - 1)
		return (0);
	g_n = (len + 1) / 21;
	for (i = 0; i < g_n; i++)
	{
		if (!block(buf + 21 * i, &g_t[i]))
			return (0);
		if (i + 1 < g_n && buf[21 * i + 20] != '\n')
			return (0);
		g_t[i].same = -1;
		for (j = 0; j < i; j++)
			if (!memcmp(g_t[i].r, g_t[j].r, sizeof(g_t[i].r))
				&& !memcmp(g_t[i].c, g_t[j].c, sizeof(g_t[i].c)))
				g_t[i].same = j;
	}
	return (1);
}

static int	flood(int r, int c)
{
	if (r < 0 || c < 0 || r >= g_side || c >= g_side
		|| g_map[r][c] != '.' || g_seen[r][c])
		return (0);
	g_seen[r][c] = 1;
	return (1 + flood(r + 1, c) + flood(r - 1, c)
		+ flood(r, c + 1) + flood(r, c - 1));
}

/* Empty cells that must stay empty: k % 4 per empty region of k cells. */
static int	dead_cells(int budget)
{
	int	r;
	int	c;
	int	dead = 0;

	memset(g_seen, 0, sizeof(g_seen));
	for (r = 0; r < g_side; r++)
		for (c = 0; c < g_side; c++)
			if (g_map[r][c] == '.' && !g_seen[r][c])
			{
				dead += flood(r, c) % 4;
				if (dead > budget)
					return (dead);
			}
	return (dead);
}

static void	put(const t_tetri *t, int r, int c, char ch)
{
	int	k;

	for (k = 0; k < 4; k++)
		g_map[r + t->r[k]][c + t->c[k]] = ch;
}

static int	free_at(const t_tetri *t, int r, int c)
{
	int	k;

	for (k = 0; k < 4; k++)
		if (g_map[r + t->r[k]][c + t->c[k]] != '.')
			return (0);
	return (1);
}

static int	solve(int i)
{
	t_tetri	*t = &g_t[i];
	int		pos;
	int		slack = g_side * g_side - 4 * g_n;

	if (i == g_n)
		return (1);
	pos = t->same < 0 ? 0 : g_t[t->same].row * g_side + g_t[t->same].col + 1;
	for (; pos < g_side * g_side; pos++)
	{
		t->row = pos / g_side;
		t->col = pos % g_side;
		if (t->row + t->h > g_side || t->col + t->w > g_side
			|| !free_at(t, t->row, t->col))
			continue ;
		put(t, t->row, t->col, 'A' + i);
		if (dead_cells(slack) <= slack && solve(i + 1))
			return (1);
		put(t, t->row, t->col, '.');
	}
	return (0);
}

int	main(int argc, char **argv)
{
	char	buf[CAP + 1];
	int		len;
	int		r;

	if (argc != 2)
		return (write(1, "usage: fillit source_file\n", 26) < 0);
	len = load(argv[1], buf);
	if (len <= 0 || !parse(buf, len))
		return (write(1, "error\n", 6) < 0 ? 1 : 1);
	for (g_side = 2; g_side * g_side < 4 * g_n; g_side++)
		;
	while (1)
	{
		memset(g_map, '.', sizeof(g_map));
		if (solve(0))
			break ;
		g_side++;
	}
	for (r = 0; r < g_side; r++)
	{
		fwrite(g_map[r], 1, g_side, stdout);
		fputc('\n', stdout);
	}
	return (0);
}
