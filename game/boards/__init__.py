"""Per-game drawing and input: one module per game, each defining `Board(BoardBase)`."""
