/* ************************************************************************** */
/*                                                                            */
/*                                                        :::      ::::::::   */
/*   piece.c                                            :+:      :+:    :+:   */
/*                                                    +:+ +:+         +:+     */
/*   By: mlinette <mlinette@student.42.fr>          +#+  +:+       +#+        */
/*                                                +#+#+#+#+#+   +#+           */
/*   Created: 2024/01/08 10:00:00 by mlinette          #+#    #+#             */
/*   Updated: 2024/01/08 10:00:00 by mlinette         ###   ########.fr       */
/*                                                                            */
/* ************************************************************************** */

#include "fillit.h"

/*
** block[5 * r + c] is the cell (r, c) of a checked block.
** Four cells are edge-connected exactly when they have at least 3 edges
** between them (a grid has no triangle, so 2 edges leave a part apart).
*/

static int	count_links(char *block, int *count)
{
	int	i;
	int	links;

	i = 0;
	links = 0;
	*count = 0;
	while (i < 20)
	{
		if (block[i] == '#')
		{
			(*count)++;
			if (i >= 5 && block[i - 5] == '#')
				links++;
			if (i % 5 > 0 && block[i - 1] == '#')
				links++;
		}
		i++;
	}
	return (links);
}

static void	bounding_box(char *block, int *box)
{
	int	i;

	box[0] = 4;
	box[1] = 4;
	box[2] = 0;
	box[3] = 0;
	i = 0;
	while (i < 20)
	{
		if (block[i] == '#' && i / 5 < box[0])
			box[0] = i / 5;
		if (block[i] == '#' && i % 5 < box[1])
			box[1] = i % 5;
		if (block[i] == '#' && i / 5 > box[2])
			box[2] = i / 5;
		if (block[i] == '#' && i % 5 > box[3])
			box[3] = i % 5;
		i++;
	}
}

int	make_piece(char *block, t_piece *piece)
{
	int	count;
	int	box[4];
	int	i;

	if (count_links(block, &count) < 3 || count != 4)
		return (-1);
	bounding_box(block, box);
	piece->height = box[2] - box[0] + 1;
	piece->width = box[3] - box[1] + 1;
	i = 0;
	while (i < 4)
		piece->mask[i++] = 0;
	i = 0;
	while (i < 20)
	{
		if (block[i] == '#')
			piece->mask[i / 5 - box[0]] |= 1 << (i % 5 - box[1]);
		i++;
	}
	return (0);
}
