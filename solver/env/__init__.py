"""Rummikub as a PettingZoo environment (the `rl` extra), made as PettingZoo's classic
environments are: `env()` wrapped, `raw_env` bare. The exact engine is the referee, and
each action is a choice among moves the solver proposes.

    from rummisolve.env import env
    table = env(players=4, rules="official")
"""

from .rummikub import ACTIONS, OBSERVATION, Proposal, env, raw_env

# The name it had until the glossary gave "action" one meaning; scripts import it still.
Action = Proposal

__all__ = ["ACTIONS", "OBSERVATION", "Action", "Proposal", "env", "raw_env"]
