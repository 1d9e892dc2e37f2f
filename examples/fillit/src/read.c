/* ************************************************************************** */
/*                                                                            */
/*                                                        :::      ::::::::   */
/*   read.c                                             :+:      :+:    :+:   */
/*                                                    +:+ +:+         +:+     */
/*   By: mlinette <mlinette@student.42.fr>          +#+  +:+       +#+        */
/*                                                +#+#+#+#+#+   +#+           */
/*   Created: 2024/01/08 10:00:00 by mlinette          #+#    #+#             */
/*   Updated: 2024/01/08 10:00:00 by mlinette         ###   ########.fr       */
/*                                                                            */
/* ************************************************************************** */

#include <fcntl.h>
#include <unistd.h>
#include "fillit.h"

/*
** Reads at most READ_CAP + 1 bytes into buf (which holds READ_CAP + 1).
** A valid file is at most 26 * 21 - 1 = 545 bytes, so reading more than
** READ_CAP bytes means the file is invalid, whatever follows.
** Returns the length, or -1 (cannot open, read error such as a directory,
** too big).
*/

int	read_file(char *path, char *buf)
{
	int	fd;
	int	len;
	int	got;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return (-1);
	len = 0;
	got = 1;
	while (got > 0 && len <= READ_CAP)
	{
		got = read(fd, buf + len, READ_CAP + 1 - len);
		if (got > 0)
			len += got;
	}
	close(fd);
	if (got < 0 || len > READ_CAP)
		return (-1);
	return (len);
}
