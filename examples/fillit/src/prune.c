/* ************************************************************************** */
/*                                                                            */
/*                                                        :::      ::::::::   */
/*   prune.c                                            :+:      :+:    :+:   */
/*                                                    +:+ +:+         +:+     */
/*   By: mlinette <mlinette@student.42.fr>          +#+  +:+       +#+        */
/*                                                +#+#+#+#+#+   +#+           */
/*   Created: 2024/01/08 10:00:00 by mlinette          #+#    #+#             */
/*   Updated: 2024/01/08 10:00:00 by mlinette         ###   ########.fr       */
/*                                                                            */
/* ************************************************************************** */

#include "fillit.h"

/*
** Dead cells (a sound cut): an empty region of k cells can hold at most k / 4
** pieces, so at least k % 4 of its cells stay empty.  When the sum over all
** empty regions is more than the slack (side * side - 4 * count), the pieces
** placed so far cannot be completed.  Regions are grown row-wise on bitmasks.
*/

static int	popcount(unsigned int x)
{
	int	n;

	n = 0;
	while (x)
	{
		x &= x - 1;
		n++;
	}
	return (n);
}

static int	spread(unsigned int *seed, unsigned int *empty, int top, int side)
{
	unsigned int	grow;
	int				r;
	int				changed;

	changed = 0;
	r = top;
	while (r < side)
	{
		grow = seed[r] | (seed[r] << 1) | (seed[r] >> 1);
		if (r > top)
			grow |= seed[r - 1];
		if (r + 1 < side)
			grow |= seed[r + 1];
		grow &= empty[r];
		if (grow != seed[r])
			changed = 1;
		seed[r] = grow;
		r++;
	}
	return (changed);
}

static int	take_region(unsigned int *empty, int top, int side)
{
	unsigned int	seed[MAX_SIDE];
	int				r;
	int				size;
	int				changed;

	r = top;
	while (r < side)
		seed[r++] = 0;
	seed[top] = empty[top] & (~empty[top] + 1);
	changed = 1;
	while (changed)
		changed = spread(seed, empty, top, side);
	size = 0;
	r = top;
	while (r < side)
	{
		size += popcount(seed[r]);
		empty[r] &= ~seed[r];
		r++;
	}
	return (size);
}

int	wasted_cells(t_fillit *f)
{
	unsigned int	empty[MAX_SIDE];
	int				r;
	int				waste;

	r = 0;
	while (r < f->side)
	{
		empty[r] = ~(unsigned int)f->grid[r] & ((1u << f->side) - 1);
		r++;
	}
	waste = 0;
	r = 0;
	while (r < f->side && waste <= f->slack)
	{
		if (empty[r])
			waste += take_region(empty, r, f->side) % 4;
		else
			r++;
	}
	return (waste);
}
