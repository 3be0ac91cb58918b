"""Game review: every logged turn against the best move of its position, per player
figures, and puzzles mined from the turns that missed the most (issue 32).

`read_logs` rebuilds the positions through the game state, `review` solves them (in
worker processes with `jobs`), `summarize` gives each player's figures, `mine_puzzles`
the positions whose best move is the only one.
"""

from .positions import LogProblem, Position, read_log
from .run import read_logs, review, review_game
from .summary import MEASURE, Miss, PlayerSummary, summarize, summary_json
from .turns import Best, Mark, Solving, TurnReview, best_on, board_text

__all__ = [
    "MEASURE",
    "Best",
    "LogProblem",
    "Mark",
    "Miss",
    "PlayerSummary",
    "Position",
    "Solving",
    "TurnReview",
    "best_on",
    "board_text",
    "read_log",
    "read_logs",
    "review",
    "review_game",
    "summarize",
    "summary_json",
]
