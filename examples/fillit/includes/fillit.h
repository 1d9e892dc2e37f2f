/* ************************************************************************** */
/*                                                                            */
/*                                                        :::      ::::::::   */
/*   fillit.h                                           :+:      :+:    :+:   */
/*                                                    +:+ +:+         +:+     */
/*   By: mlinette <mlinette@student.42.fr>          +#+  +:+       +#+        */
/*                                                +#+#+#+#+#+   +#+           */
/*   Created: 2024/01/08 10:00:00 by mlinette          #+#    #+#             */
/*   Updated: 2024/01/08 10:00:00 by mlinette         ###   ########.fr       */
/*                                                                            */
/* ************************************************************************** */

#ifndef FILLIT_H
# define FILLIT_H

# define MAX_PIECES 26
# define MAX_SIDE 16
# define READ_CAP 600

/*
** mask[k]: row k of the piece, bit c set when column c holds a '#'; the
** bounding box of the '#' starts at (0, 0).  same: index of the previous
** piece with the same shape, or -1.  row, col: where the piece is placed.
*/
typedef struct s_piece
{
	unsigned short	mask[4];
	int				height;
	int				width;
	int				same;
	int				row;
	int				col;
}	t_piece;

/*
** grid[r]: row r of the square, bit c set when the cell is taken.
** slack: cells that stay empty in a full solution (side * side - 4 * count).
*/
typedef struct s_fillit
{
	t_piece			pieces[MAX_PIECES];
	int				count;
	int				side;
	int				slack;
	unsigned short	grid[MAX_SIDE];
}	t_fillit;

int		read_file(char *path, char *buf);
int		parse_file(char *buf, int len, t_fillit *f);
int		make_piece(char *block, t_piece *piece);
void	solve(t_fillit *f);
int		wasted_cells(t_fillit *f);
void	print_square(t_fillit *f);
void	put_str(char *str);

#endif
