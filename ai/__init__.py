"""Bots: one module per game (ai/<id>.py), plus what they share (ai/base.py).

Every bot module keeps the contract `ai.base.Bot`:

    choose(view, legal, budget, level, rng) -> move
    choose_setup(view, budget, level, rng) -> setup   (ai.base.no_setup without a setup phase)
    OPENING_OPTION, OPENING_PLIES                     (how the arena varies openings)
    KERNELS                                           (its compiled searches; NO_KERNELS: none)

A bot sees the view of its own seat (docs/protocol.md) and the legal moves, never the state. It
returns the best move found before budget.expired(); a search that runs out of time raises
ai.base.Deadline (from Budget.check()) and falls back to the best it has. Once the budget is
cancelled its answer is thrown away, so it may return anything legal at once.
"""
