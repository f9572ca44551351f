"""Issue 30's smaller findings: the planes salt's length, matches of other than two players,
and cancelling one bot search without cancelling another's."""

import random
from types import SimpleNamespace

import pytest

from ai.base import Budget, decide_setup
from game.match import Match
from net.secrets import SALT_BYTES, commitment
from net.secrets.planes import PlaneLayouts


def _layout() -> tuple[Match, list]:
    m = Match("planes", None, 5)
    layout = decide_setup("planes", m.view(0), "random", Budget(0.0), random.Random(1))
    return m, layout


@pytest.mark.parametrize("salt", [b"", b"x", bytes(SALT_BYTES - 1), bytes(SALT_BYTES + 1),
                                  bytes(1 << 20)], ids=lambda s: f"{len(s)}-bytes")
def test_a_reveal_with_a_salt_of_the_wrong_length_does_not_check(salt):
    m, layout = _layout()
    side = SimpleNamespace(match=m, peer_commit=commitment(salt, layout), peer_name="Peer",
                           is_host=True)
    verdict = PlaneLayouts(side).check_reveal(salt, {"layout": layout})
    assert not verdict.ok and "salt" in verdict


def test_a_reveal_with_a_salt_of_the_right_length_checks():
    m, layout = _layout()
    salt = bytes(range(SALT_BYTES))
    side = SimpleNamespace(match=m, peer_commit=commitment(salt, layout), peer_name="Peer",
                           is_host=True)
    assert PlaneLayouts(side).check_reveal(salt, {"layout": layout}).ok
