"""A plug-in strategy: holds its tiles (as a hoarder does) until an opponent is down to
four tiles, then lays all it can. Play it: --strategies docs/examples/wary.py:Wary,greedy"""

from rummisolve import Finder, Move, Objective, PlayerView, no_move


class Wary:
    name = "wary"

    def choose(self, view: PlayerView, find: Finder) -> Move:
        best = find(view.board, Objective.TILES)
        danger = min(view.racks[p] for p in view.opponents) <= 4
        if not best.rack or danger or not view.opened[view.player]:
            return best
        return no_move(view.board)
