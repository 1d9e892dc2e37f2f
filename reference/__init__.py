"""The reference: an exact validator and solver for fillit input files.

    >>> from reference import parse, solve_text
    >>> solve_text(b"....\\n.##.\\n.##.\\n....\\n")
    'AA\\nAA\\n'
"""
from reference.shapes import SHAPES, Shape, shape_of
from reference.parser import Parsed, Rejection, parse
from reference.solver import Solution, render, solve, solve_text

__all__ = [
    "SHAPES", "Shape", "shape_of", "Parsed", "Rejection", "parse",
    "Solution", "render", "solve", "solve_text",
]
