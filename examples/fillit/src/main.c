/* ************************************************************************** */
/*                                                                            */
/*                                                        :::      ::::::::   */
/*   main.c                                             :+:      :+:    :+:   */
/*                                                    +:+ +:+         +:+     */
/*   By: mlinette <mlinette@student.42.fr>          +#+  +:+       +#+        */
/*                                                +#+#+#+#+#+   +#+           */
/*   Created: 2024/01/08 10:00:00 by mlinette          #+#    #+#             */
/*   Updated: 2024/01/08 10:00:00 by mlinette         ###   ########.fr       */
/*                                                                            */
/* ************************************************************************** */

#include <unistd.h>
#include "fillit.h"

void	put_str(char *str)
{
	int	len;

	len = 0;
	while (str[len])
		len++;
	write(1, str, len);
}

int	main(int argc, char **argv)
{
	char		buf[READ_CAP + 1];
	t_fillit	f;
	int			len;

	if (argc != 2)
	{
		put_str("usage: fillit source_file\n");
		return (1);
	}
	len = read_file(argv[1], buf);
	if (len <= 0 || parse_file(buf, len, &f) < 0)
	{
		put_str("error\n");
		return (1);
	}
	solve(&f);
	print_square(&f);
	return (0);
}
