"""Tests' listeners never take the arcade's own ports (an arcade running beside the tests would
hear their beacons, and they its)."""

import random

from hypothesis import given
from hypothesis import strategies as st

from net.discovery import PORT
from net.link import DEFAULT_PORT
from tests.fakes.ports import COUNT, FIRST, spare_port


class Draws(random.Random):
    """Draws given offsets first: the arcade's own ports, then what the test says."""

    def __init__(self, offsets: list[int]):
        super().__init__(0)
        self.offsets = offsets

    def randrange(self, *args, **kwargs) -> int:
        return self.offsets.pop(0) if self.offsets else super().randrange(*args, **kwargs)


@given(st.lists(st.sampled_from([PORT - FIRST, DEFAULT_PORT - FIRST]), max_size=6),
       st.integers(0, COUNT - 1))
def test_a_spare_port_is_never_the_arcades_own(own, other):
    port = spare_port(Draws(own + [other]))
    assert port not in (PORT, DEFAULT_PORT)
    assert FIRST <= port < FIRST + COUNT
    if other + FIRST not in (PORT, DEFAULT_PORT):
        assert port == FIRST + other
