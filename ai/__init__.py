"""Bots: one module per game (ai/<id>.py), plus what they share.

A bot module defines

    choose(view: dict, legal: list, budget: Budget, level: str, rng: random.Random) -> move

and, for games with a setup phase, choose_setup(view, budget, level, rng) -> setup. A bot sees
the view of its own seat (PROTOCOL.md VIEW) and the legal moves, never the state. It returns
the best move found before budget.expired(); once the budget is cancelled its answer is thrown
away, so it may return anything legal at once.
"""
