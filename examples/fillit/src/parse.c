/* ************************************************************************** */
/*                                                                            */
/*                                                        :::      ::::::::   */
/*   parse.c                                            :+:      :+:    :+:   */
/*                                                    +:+ +:+         +:+     */
/*   By: mlinette <mlinette@student.42.fr>          +#+  +:+       +#+        */
/*                                                +#+#+#+#+#+   +#+           */
/*   Created: 2024/01/08 10:00:00 by mlinette          #+#    #+#             */
/*   Updated: 2024/01/08 10:00:00 by mlinette         ###   ########.fr       */
/*                                                                            */
/* ************************************************************************** */

#include "fillit.h"

/*
** A block is 4 lines of 4 characters from '#' and '.', each ending with '\n':
** 20 bytes.  Blocks are separated by one '\n', so n blocks take 21 * n - 1
** bytes and nothing else is allowed (not even a trailing empty line).
*/

static int	check_block(char *block)
{
	int	i;

	i = 0;
	while (i < 20)
	{
		if (i % 5 == 4 && block[i] != '\n')
			return (-1);
		if (i % 5 != 4 && block[i] != '#' && block[i] != '.')
			return (-1);
		i++;
	}
	return (0);
}

static int	same_shape(t_piece *a, t_piece *b)
{
	int	k;

	k = 0;
	while (k < 4)
	{
		if (a->mask[k] != b->mask[k])
			return (0);
		k++;
	}
	return (1);
}

static void	link_same(t_fillit *f)
{
	int	i;
	int	j;

	i = 0;
	while (i < f->count)
	{
		f->pieces[i].same = -1;
		j = 0;
		while (j < i)
		{
			if (same_shape(&f->pieces[i], &f->pieces[j]))
				f->pieces[i].same = j;
			j++;
		}
		i++;
	}
}

int	parse_file(char *buf, int len, t_fillit *f)
{
	int	i;

	if ((len + 1) % 21 != 0)
		return (-1);
	f->count = (len + 1) / 21;
	if (f->count < 1 || f->count > MAX_PIECES)
		return (-1);
	i = 0;
	while (i < f->count)
	{
		if (check_block(buf + 21 * i) < 0)
			return (-1);
		if (i + 1 < f->count && buf[21 * i + 20] != '\n')
			return (-1);
		if (make_piece(buf + 21 * i, &f->pieces[i]) < 0)
			return (-1);
		i++;
	}
	link_same(f);
	return (f->count);
}
