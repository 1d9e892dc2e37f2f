/* ************************************************************************** */
/*                                                                            */
/*                                                        :::      ::::::::   */
/*   print.c                                            :+:      :+:    :+:   */
/*                                                    +:+ +:+         +:+     */
/*   By: mlinette <mlinette@student.42.fr>          +#+  +:+       +#+        */
/*                                                +#+#+#+#+#+   +#+           */
/*   Created: 2024/01/08 10:00:00 by mlinette          #+#    #+#             */
/*   Updated: 2024/01/08 10:00:00 by mlinette         ###   ########.fr       */
/*                                                                            */
/* ************************************************************************** */

#include <unistd.h>
#include "fillit.h"

static void	draw_piece(char *out, t_piece *p, int side, char letter)
{
	int	k;
	int	c;

	k = 0;
	while (k < p->height)
	{
		c = 0;
		while (c < p->width)
		{
			if ((p->mask[k] >> c) & 1)
				out[(p->row + k) * (side + 1) + p->col + c] = letter;
			c++;
		}
		k++;
	}
}

void	print_square(t_fillit *f)
{
	char	out[MAX_SIDE * (MAX_SIDE + 1)];
	int		i;

	i = 0;
	while (i < f->side * (f->side + 1))
	{
		out[i] = '.';
		if (i % (f->side + 1) == f->side)
			out[i] = '\n';
		i++;
	}
	i = 0;
	while (i < f->count)
	{
		draw_piece(out, &f->pieces[i], f->side, 'A' + i);
		i++;
	}
	write(1, out, f->side * (f->side + 1));
}
