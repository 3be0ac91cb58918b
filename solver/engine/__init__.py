"""The engine: a position as an integer program, solved and read back as a move.

`solve.find_move` is the entry. `model` builds the program, group by group, with the
allocators of `builder` over the tile rows of `tile_rows` and the candidate sets of
`candidates`; `joker_model` plans its part for the table's jokers and `joker_rows` builds
it. `backends` names the solvers: our branch-and-bound (`branch`, over `lp`'s protocol)
on the LP engines in `highs` and `clp`, and PuLP's in `via_pulp`. `steps` lays the answer
out. Only this package sees integers and matrices.
"""
