/* ************************************************************************** */
/*                                                                            */
/*                                                        :::      ::::::::   */
/*   solve.c                                            :+:      :+:    :+:   */
/*                                                    +:+ +:+         +:+     */
/*   By: mlinette <mlinette@student.42.fr>          +#+  +:+       +#+        */
/*                                                +#+#+#+#+#+   +#+           */
/*   Created: 2024/01/08 10:00:00 by mlinette          #+#    #+#             */
/*   Updated: 2024/01/08 10:00:00 by mlinette         ###   ########.fr       */
/*                                                                            */
/* ************************************************************************** */

#include "fillit.h"

/*
** The classic backtracking: pieces in file order, each tried at every
** position, rows top to bottom, columns left to right; the first complete
** placement is the answer.  Two sound cuts keep that first answer:
** - a piece identical to an earlier one goes after that one's position
**   (two identical pieces out of order can be swapped: a smaller answer);
** - dead cells: see prune.c.
*/

static int	place(t_fillit *f, int i);

static int	fits(t_fillit *f, t_piece *p, int r, int c)
{
	int	k;

	k = 0;
	while (k < p->height)
	{
		if (f->grid[r + k] & (p->mask[k] << c))
			return (0);
		k++;
	}
	return (1);
}

static void	toggle(t_fillit *f, t_piece *p, int r, int c)
{
	int	k;

	k = 0;
	while (k < p->height)
	{
		f->grid[r + k] ^= p->mask[k] << c;
		k++;
	}
}

static int	try_at(t_fillit *f, int i, int r, int c)
{
	t_piece	*p;

	p = &f->pieces[i];
	if (!fits(f, p, r, c))
		return (0);
	toggle(f, p, r, c);
	p->row = r;
	p->col = c;
	if (wasted_cells(f) <= f->slack && place(f, i + 1))
		return (1);
	toggle(f, p, r, c);
	return (0);
}

static int	place(t_fillit *f, int i)
{
	t_piece	*p;
	int		r;
	int		c;

	if (i == f->count)
		return (1);
	p = &f->pieces[i];
	r = 0;
	c = 0;
	if (p->same >= 0)
		r = f->pieces[p->same].row;
	if (p->same >= 0)
		c = f->pieces[p->same].col + 1;
	while (r + p->height <= f->side)
	{
		while (c + p->width <= f->side)
		{
			if (try_at(f, i, r, c))
				return (1);
			c++;
		}
		c = 0;
		r++;
	}
	return (0);
}

void	solve(t_fillit *f)
{
	int	r;

	f->side = 2;
	while (f->side * f->side < 4 * f->count)
		f->side++;
	while (f->side <= MAX_SIDE)
	{
		f->slack = f->side * f->side - 4 * f->count;
		r = 0;
		while (r < MAX_SIDE)
			f->grid[r++] = 0;
		if (place(f, 0))
			return ;
		f->side++;
	}
}
