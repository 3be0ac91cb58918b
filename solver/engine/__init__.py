"""The engine: a position as an integer program, solved and read back as a move.

`solve.find_move` is the entry; `model` builds the program, `joker_model` its part for
the table's jokers, `backends` names the solvers (our branch-and-bound in `branch` over
the LP engines in `highs` and `clp`, and PuLP's in `via_pulp`), `steps` lays the answer
out. Only this package sees integers and matrices.
"""
