/*
 * reference._plaincount -- the seed's plain backtracking, counting its placement tries.
 *
 *     plain_tries(pieces, budget) -> int, None or False
 *
 * pieces: a sequence of shapes, each a sequence of 4 (row, col) cells whose bounding box
 *         starts at (0, 0);
 * budget: the most tries worth counting;
 * returns the tries (placements attempted, fitting or not) the plain search makes over
 *         every side from ceil(sqrt(4n)) up to its first solution; None when that is more
 *         than `budget`; False when the file is beyond this board (then the caller counts
 *         in Python).
 *
 * The count and the budget rule are exactly those of generators.valid.plain_tries_python,
 * which this must equal (tests/test_generators.py compares them): the suites keep a file
 * only when that count is small, so any difference would change the generated cases.  Why
 * a C copy: building the standard suite asks it hundreds of times, a second of Python in
 * every `grade` that starts.
 *
 * Board: one uint64 per row, bit c = column c; the square's walls are not on the board,
 * a placement simply stays inside it (rows 0..side-height, columns 0..side-width).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define MAX_SIDE 64
#define MAX_PIECES 64

typedef struct {
    int height, width;
    uint64_t rows[4]; /* bit c of rows[i] = cell (i, c) of the shape */
} Shape;

typedef struct {
    const Shape *shapes;
    int count, side;
    uint64_t grid[MAX_SIDE];
    long long tries, spent, budget;
    int over_budget;
} Search;

static int fits(const Search *s, const Shape *shape, int row, int col)
{
    for (int r = 0; r < shape->height; r++)
        if (s->grid[row + r] & (shape->rows[r] << col))
            return 0;
    return 1;
}

static void toggle(Search *s, const Shape *shape, int row, int col)
{
    for (int r = 0; r < shape->height; r++)
        s->grid[row + r] ^= shape->rows[r] << col;
}

/* 1: the pieces from `index` on are placed; 0: they cannot be; over_budget set: stopped. */
static int place(Search *s, int index)
{
    if (index == s->count)
        return 1;
    const Shape *shape = &s->shapes[index];
    for (int row = 0; row + shape->height <= s->side; row++)
        for (int col = 0; col + shape->width <= s->side; col++) {
            s->tries++;
            if (!fits(s, shape, row, col))
                continue;
            toggle(s, shape, row, col);
            int placed = place(s, index + 1);
            toggle(s, shape, row, col);
            if (placed || s->over_budget)
                return placed;
            /* As the Python search: the budget is checked after a fitting try failed. */
            if (s->spent + s->tries > s->budget) {
                s->over_budget = 1;
                return 0;
            }
        }
    return 0;
}

static int read_shape(PyObject *cells, Shape *shape)
{
    PyObject *seq = PySequence_Fast(cells, "a shape must be a sequence of (row, col) cells");
    if (!seq)
        return -1;
    memset(shape, 0, sizeof *shape);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < n; i++) {
        int row, col;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "ii", &row, &col)) {
            Py_DECREF(seq);
            return -1;
        }
        if (row < 0 || row > 3 || col < 0 || col > 3) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "a cell must lie in the 4x4 box");
            return -1;
        }
        shape->rows[row] |= 1ull << col;
        if (row + 1 > shape->height)
            shape->height = row + 1;
        if (col + 1 > shape->width)
            shape->width = col + 1;
    }
    Py_DECREF(seq);
    return 0;
}

static PyObject *plain_tries(PyObject *self, PyObject *args)
{
    PyObject *pieces;
    long long budget;
    if (!PyArg_ParseTuple(args, "OL", &pieces, &budget))
        return NULL;
    PyObject *seq = PySequence_Fast(pieces, "pieces must be a sequence of shapes");
    if (!seq)
        return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    if (count > MAX_PIECES) {
        Py_DECREF(seq);
        Py_RETURN_FALSE;
    }
    Shape shapes[MAX_PIECES];
    for (Py_ssize_t i = 0; i < count; i++)
        if (read_shape(PySequence_Fast_GET_ITEM(seq, i), &shapes[i]) < 0) {
            Py_DECREF(seq);
            return NULL;
        }
    Py_DECREF(seq);

    Search s = {.shapes = shapes, .count = (int)count, .budget = budget};
    s.side = 2;
    while (s.side * s.side < 4 * s.count)
        s.side++;
    for (;; s.side++) {
        if (s.side > MAX_SIDE)
            Py_RETURN_FALSE;
        memset(s.grid, 0, sizeof s.grid);
        s.tries = 0;
        int found = place(&s, 0);
        if (s.over_budget)
            Py_RETURN_NONE;
        s.spent += s.tries;
        if (s.spent > s.budget)
            Py_RETURN_NONE;
        if (found)
            return PyLong_FromLongLong(s.spent);
    }
}

static PyMethodDef methods[] = {
    {"plain_tries", plain_tries, METH_VARARGS,
     "plain_tries(pieces, budget) -> the plain search's tries until its first solution, "
     "None over budget, False beyond this board"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_plaincount", NULL, -1, methods};

PyMODINIT_FUNC PyInit__plaincount(void) { return PyModule_Create(&module); }
