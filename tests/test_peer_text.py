"""Text from the other arcade (a guest's hello name, chat, error texts) is cleaned where it
arrives. The helpers are net/peer_text.py; net/session.py and net/hosting.py call them."""

import socket

import pytest

from game.text import NAME_MAX
from net.peer_text import CHAT_MAX, clean_hello, peer_line, peer_name

HOSTILE_NAMES = ["Ev\x00il", "\ud800", "\x1b[2J" + "n" * 60_000, "\x00\x00", 12, None, ["x"]]


def drawable(s: str, limit: int) -> bool:
    return (isinstance(s, str) and len(s) <= limit and "\x00" not in s
            and not any("\ud800" <= c <= "\udfff" or ord(c) < 32 for c in s))


@pytest.mark.parametrize("name", HOSTILE_NAMES, ids=lambda v: ascii(v)[:16])
def test_a_hello_name_is_made_fit(name):
    hello = clean_hello({"type": "hello", "name": name, "token": "t"})
    assert drawable(hello["name"], NAME_MAX) and hello["name"]
    assert hello["token"] == "t"
    assert peer_name("Ann") == "Ann" and peer_name("\x00") == "Guest"


def test_a_chat_or_error_line_is_made_fit():
    assert peer_line("hi\x00 there\n" + "x" * 5000, CHAT_MAX) == ("hi there " + "x" * 5000)[
        :CHAT_MAX]
    assert drawable(peer_line("\ud800" * 900), 200)
    assert peer_line(None) == "" and peer_line({"a": 1}) == ""


def _pair():
    from tests.test_lan import pair
    return pair("dots")


def test_chat_and_error_texts_from_the_peer_reach_the_screen_clean():
    from tests.test_lan import pump_until
    host, h, g = _pair()
    try:
        g.send({"type": "chat", "text": "Ev\x00il\x1b[2J" + "c" * 150})
        g.send({"type": "error", "text": "bad\x00" + "e" * 10_000})
        notes = []
        pump_until([g], lambda: notes.extend(h.events()) or len(
            [n for n in notes if n.text is not None]) >= 2)
        said = [n.text.say() for n in notes if n.text is not None]
        assert all(drawable(s, 300) for s in said), [ascii(s)[:80] for s in said]
    finally:
        h.close(), g.close(), host.stop()


def test_a_guest_hello_name_is_clean_when_it_arrives():
    from net import session as lan
    from net.link import encode
    from tests.test_lan import pump_until
    host = lan.Host("dots", {}, 0, "127.0.0.1")
    try:
        hello = lan.hello("dots", host.options, "x")
        hello["name"] = "Ev\x00il" + "n" * 60_000
        sock = socket.create_connection(("127.0.0.1", host.port), timeout=5)
        sock.sendall(encode(hello))
        got = []
        pump_until([], lambda: got or got.extend(a for a in [host.next_arrival()] if a) or got)
        _link, message = got[0]
        assert drawable(message["name"], NAME_MAX), ascii(message["name"])[:60]
        _link.close()
        sock.close()
    finally:
        host.stop()
