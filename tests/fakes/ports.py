"""A port for a test's listener: random, so tests can run side by side, and never one of the
arcade's own, so a test neither hears nor is heard by an arcade running on the same machine."""

from __future__ import annotations

import random

from net.discovery import PORT
from net.link import DEFAULT_PORT

FIRST, COUNT = 46000, 2000


def spare_port(rng: random.Random | None = None) -> int:
    """A port from FIRST on that is not the arcade's discovery or game port."""
    draw = rng or random.Random()
    while True:
        port = FIRST + draw.randrange(COUNT)
        if port not in (PORT, DEFAULT_PORT):
            return port
