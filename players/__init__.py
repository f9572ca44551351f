"""Seat controllers (who chooses a seat's moves) and the one seat driver that asks them.

Layer 3 of docs/architecture.md: imports the core (game.rules, game.match, ...) and ai/, and is
imported by the client (client.app, client.scenes) and net/.
"""
