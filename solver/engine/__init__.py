"""The engine: a position as an integer program, solved and read back as a move.

`solve.find_move` is the entry: it runs, in order, the stages of `stages` that the board's
rules call for, until one ends the search, and `assemble` lays its answer out as a move
(`every` lists every best move through the same assembler). `model` builds the program,
group by group, with the allocators of `builder` over the tile rows of `tile_rows` and the
candidate sets of `candidates`; `joker_model` plans its part for the table's jokers and
`joker_rows` builds it; `pinned` and `homes` add to it for their stages. `backends` names
the solvers: our branch-and-bound (`branch`, over `lp`'s protocol) on the LP engines in
`highs` and `clp`, and PuLP's in `via_pulp`. `steps` lays the answer out. Only this
package sees integers and matrices.

The stages. Each takes the search so far (the answers before it, the deadline) and gives
an `Answer`: a legal move or none, whether its model was solved to the end (proved),
whether the search ends there, and a bound (no legal move scores more):

stage      its job; when it runs; why its answer is proved
glance     are the rack's tiles that some set could hold, each joker at 13, worth the
           initial meld? Not opened. They bound any meld's worth: below it, no move.
aside      the best move leaving each set holding a joker as it lies, jokers free on the
           rest. A time limit, and the rules on jokers bind. Never ends the search: a
           legal move at hand should time run out (never a cutoff: a limit never
           changes a proved move).
pinned     the pinned relaxation, its answer with each staying joker put back. STRICT
           binds. A relaxation bounds the rules as written: where the checker passes
           its answer, that is the best move (nothing to play: no move).
homes      the pinned relaxation with homes for freed jokers. STRICT binds, the
           pinned answer refused. As pinned (exact for freed jokers).
looser     the looser reading: STRICT read as REPLACE, else jokers free and sets open.
           The rules on jokers bind, and homes proved no bound. Every legal move is one
           of its moves: where its answer lies legally, that is the best move.
rack-only  the restriction: a joker freed only into a set whose other places are rack
           tiles and jokers. STRICT binds, and homes or looser proved a bound. Each of
           its moves is legal: one reaching the bound is the best.
whole      the whole model, asked only for a better move than the best legal one at
           hand. Always, last. Exact: nothing better, the move at hand is the best.

Out of time (a stage unproved, nothing better found): the best legal move at hand, status
feasible.

Words used here, one meaning each:
- piece: a candidate set of the catalogue, a column of the model (as many copies as laid).
- kept: a set of the table left as it lay.
- stand-in: a joker laid in a piece in place of a tile.
- staying joker: a joker of the table that stays in its set, standing for the same tile;
  freed joker: one a rack tile replaced, free to be laid again.
- host: a set of the new table laid whole with jokers of the table in it
  (`joker_model.Host`).
- pinned: the pinned relaxation (`JokerPart.PINNED`): a staying joker stands for its tile
  in any piece meeting a few stay rows, a freed one anywhere.
- home: a column of the homes model: a set's part holding a freed joker and two places
  played from the rack.
- looser reading: the board's rules on jokers loosened (`stages.looser`).
- bound: a score no legal move exceeds, proved by a relaxation; cutoff: an objective value
  a search must beat; reach: one the homes search seeks first.
- at hand: a legal move an earlier stage found.
"""
