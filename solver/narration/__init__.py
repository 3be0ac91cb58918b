"""A move as a person carries it out at the table: which tiles to take from which set,
which run to split, what to add where and what to lay new, in that order, moving as few
tiles as the new table allows.

The sets that change are read from the move's steps alone (which old set gave which
tiles), so that every JSON answer of a move can carry its actions. Where a tile stays:
each new set is built on at most one old set (or, a run, on one piece of an old run cut
where it lies), and keeps the tiles the two have in common; every other tile moves once
(`bases`), as the rules on the table's jokers ask (`built`). `plan` makes the actions,
`order` puts them in an order a player can follow; the jokers are read as the table
reads them (`table_reading`).
"""

from .actions import Do, Freeing, TableAction
from .plan import TablePlan, plan_move, plan_table

__all__ = ["Do", "Freeing", "TableAction", "TablePlan", "plan_move", "plan_table"]
