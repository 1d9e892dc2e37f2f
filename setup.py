"""Build the optional C core of the reference solver (and its count of plain tries).

The extension is optional: when no C compiler is available the install still
succeeds and `reference.solver` falls back to the pure-Python search.  Built with -O3:
the restricted-shape files 6% faster than with -O2, 31 of the 33 over 0.5 s faster
(docs/BENCHMARKS.md, "Seventeenth pass").
"""
from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "reference._fastsolve",
            sources=["reference/_fastsolve.c"],
            depends=["reference/_lines.h"],
            extra_compile_args=["-O3"],
            optional=True,
        ),
        Extension(
            "reference._profile",
            sources=["reference/_profile.c"],
            depends=["reference/_lines.h"],
            extra_compile_args=["-O3"],
            optional=True,
        ),
        Extension(
            "reference._plaincount",
            sources=["reference/_plaincount.c"],
            extra_compile_args=["-O3"],
            optional=True,
        ),
    ]
)
