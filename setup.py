"""The packages, found: every package under solver/, installed as `rummisolve.*`.

pyproject.toml says the rest; `packages.find` there cannot rename solver/ to rummisolve.
"""

from setuptools import find_packages, setup

setup(packages=["rummisolve", *(f"rummisolve.{name}" for name in find_packages("solver"))])
