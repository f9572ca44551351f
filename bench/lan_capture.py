"""Frame capture: complete planes, Banqi and fog-of-war Banqi games between two bots over
loopback, every frame each side receives recorded and checked for hidden information.

    python bench/lan_capture.py [--games 3] [--level easy]

Each bot sees only its seat's view (a fog guest: the views the host sent). For every frame it
checks and prints that nothing hidden crossed before it was legitimately shown:
- planes: no frame carries a layout (or a cell of one beyond the shots answered) before the
  reveal at the end; the commitments are 64 hex digits;
- Banqi: a piece crosses only as the `piece` of a flip's echo, of the square just flipped; and
  neither program's match holds the face-down pieces (matches against the real deal, which
  only both keys together open, are at chance level);
- fog Banqi: besides, every view sent is the rules' own view for the guest's seat, every square
  out of its sight is "~", a host move out of sight crosses as "~", and the whole game crosses
  only once it is over.
Exit status 1 if any check fails.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import threading
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ai.base import Budget, decide, decide_setup  # noqa: E402
from net.secrets import banqi  # noqa: E402
from net.session import Host, Session, join, start_hosted, start_joined  # noqa: E402

PIECES = set("KAERNCP" + "kaerncp")


def pair(game: str, options: dict, seed: int) -> tuple[Host, Session, Session]:
    host = Host(game, options, 0, "127.0.0.1")
    got: dict = {}
    t = threading.Thread(target=lambda: got.update(
        r=join(("127.0.0.1", host.port), game, host.options, "guest bot")))
    t.start()
    while (arrival := host.next_arrival()) is None:
        time.sleep(0.005)
    h = start_hosted(arrival[0], game, host.options, "host bot", "guest bot", seed=seed)
    t.join(10)
    g = start_joined(*got["r"])
    h.link.record_sent = g.link.record_sent = True
    # the welcome went before recording began: keep it in the guest's capture too
    g.link.sent.clear()
    h.link.sent.append({"type": "welcome", **{k: v for k, v in got["r"][1].items()
                                              if k != "type"}})
    return host, h, g


def bot_move(s: Session, level: str, rng: random.Random) -> Any:
    m = s.match
    view = m.view(s.seat)  # the seat's view only, as every bot gets it
    if m.setup_pending():
        return decide_setup(m.game_id, view, level, Budget(0.05), rng)
    return decide(m.game_id, view, m.legal_moves(), level, Budget(0.05), rng)


def play(h: Session, g: Session, level: str, rng: random.Random, limit: float = 120.0) -> None:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        for s in (h, g):
            s.events()
        if h.match.over and g.match.over and (h.verdict or not h.secret_expected()) \
                and (g.verdict or not g.secret_expected()):
            return
        for s in (h, g):
            if not s.match.over and s.match.to_move() == s.seat and not s.waiting:
                s.submit(bot_move(s, level, rng))
        time.sleep(0.001)
    raise SystemExit("a game did not finish in time")


def _flat(value: Any, key: str = ""):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _flat(v, k)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _flat(v, key)
    else:
        yield key, value


def check_planes(h: Session, g: Session) -> list[str]:
    problems = []
    for side, frames in ((h, g.link.sent), (g, h.link.sent)):  # what `side` received
        peer = g if side is h else h
        secret = peer.hidden.own_layout
        for f in frames:
            if f.get("type") == "reveal":
                continue
            if "layout" in f or "own_layout" in f and f["own_layout"] is not None:
                problems.append(f"{f['type']} carried a layout before the reveal")
            if secret is not None and f.get("move") == secret:
                problems.append("a move carried the peer's layout")
            commit = f.get("commit")
            if commit is not None and (not isinstance(commit, str) or len(commit) != 64):
                problems.append("a commitment that is not 64 hex digits")
    return problems


def _truth(h: Session, g: Session) -> list[str]:
    d = h.hidden.inverse * g.hidden.inverse
    cards = [banqi._CARD_OF[pow(x, d % (banqi.P - 1), banqi.P)] for x in h.hidden.deck]
    pieces = sorted(h.match.rules.new_game(h.match.options, 0).under)
    return [pieces[c] for c in cards]


def check_banqi(h: Session, g: Session, truth: list[str], held: list[int]) -> list[str]:
    problems = []
    rules = h.match.rules
    for frames in (g.link.sent, h.link.sent):
        for f in frames:
            for key, value in _flat({k: v for k, v in f.items() if k not in ("view", "moves")}):
                if isinstance(value, str) and len(value) == 1 and value in PIECES:
                    if key != "piece" or f.get("type") != "move" or len(f.get("move", "")) != 2:
                        problems.append(f"a piece crossed outside a flip: {f.get('type')}")
                    elif truth[rules.parse_square(f["move"])] != value:
                        problems.append("a flip's piece is not the one dealt there")
    if held[1] and held[0] * 4 > held[1]:  # far above chance (about 1 in 14)
        problems.append(f"a program's face-down pieces matched the deal {held[0]}/{held[1]}")
    return problems


def check_fog(h: Session) -> list[str]:
    problems = []
    rules, guest = h.match.rules, 1 - h.seat
    for f in h.link.sent:
        if f.get("type") == "reveal" and not h.match.over:
            problems.append("the whole game crossed before the end")
        if f.get("type") != "move":
            continue
        ply = f["ply"]
        state, before = h.match.states[ply + 1], h.match.states[ply]
        over = rules.outcome(state) is not None
        seen = set(range(32)) if over else rules.visible(state, guest)
        if f.get("view") != rules.view(state, guest):
            problems.append(f"ply {ply}: the view is not the guest's")
        board = rules.parse_board(f["view"]["board"])
        if any(board[sq] != "~" for sq in range(32) if sq not in seen):
            problems.append(f"ply {ply}: a square out of sight was shown")
        move = f["move"]
        if rules.to_move(before) == h.seat and isinstance(move, str) and len(move) == 4:
            if not {rules.parse_square(move[:2]), rules.parse_square(move[2:])} <= seen:
                problems.append(f"ply {ply}: a move out of sight was shown")
        if ("moves" in f) != over:
            problems.append(f"ply {ply}: the whole game crossed before the end")
    return problems


def held_count(s: Session, truth: list[str]) -> tuple[int, int]:
    """Face-down squares whose piece this program's match holds right, of those face down."""
    right = total = 0
    for state in s.match.states:
        for sq in range(32):
            if state.board[sq] == "?":
                total += 1
                right += state.under[sq] == truth[sq]
    return right, total


def run(name: str, game: str, options: dict, games: int, level: str) -> bool:
    frames = [0, 0]
    size = [0, 0]
    plies = 0
    problems: list[str] = []
    held = [0, 0]
    unseen = 0
    for i in range(games):
        host, h, g = pair(game, options, seed=100 + i)
        try:
            rng = random.Random(i)
            truth: list[str] = []
            if game == "banqi":
                while not h.hidden.ready() or not g.hidden.ready():
                    h.events(), g.events()
                    time.sleep(0.002)
                truth = _truth(h, g)
                for s in (h, g):  # what each program's match holds before the first flip
                    r, t = held_count(s, truth)
                    held[0] += r
                    held[1] += t
            play(h, g, level, rng)
            plies += len(h.match.moves)
            frames[0] += len(g.link.sent)
            frames[1] += len(h.link.sent)
            size[0] += sum(len(repr(f)) for f in g.link.sent)
            size[1] += sum(len(repr(f)) for f in h.link.sent)
            if game == "planes":
                problems += check_planes(h, g)
            else:
                problems += check_banqi(h, g, truth, held)
            if options.get("fog"):
                problems += check_fog(h)
                unseen += sum(f.get("move") == banqi.UNSEEN for f in h.link.sent)
                if not g.match.whole or g.match.moves != h.match.moves:
                    problems.append("the guest did not take in the whole game at the end")
            for s in (h, g):
                if s.violation or (s.verdict and not s.verdict.ok):
                    problems.append(f"{s.violation or s.verdict}")
        finally:
            h.close(), g.close(), host.stop()
    print(f"{name:9s} {games} games, {plies} plies; frames received: host {frames[0]}, "
          f"guest {frames[1]} (~{size[1] // max(frames[1], 1)} chars each)")
    if game == "banqi":
        print(f"{'':9s} face-down pieces a program's match held right before any flip: "
              f"{held[0]}/{held[1]} (chance: about 1 in 14)")
    if options.get("fog"):
        print(f"{'':9s} host moves out of the guest's sight, sent as '~': {unseen}")
    for p in problems[:10]:
        print(f"{'':9s} FAIL: {p}")
    verdict = "no hidden piece or layout crossed before it was shown" if not problems \
        else "FAILED"
    print(f"{'':9s} {verdict}")
    return not problems


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--level", default="easy")
    args = p.parse_args()
    ok = all([run("planes", "planes", {}, args.games, args.level),
              run("banqi", "banqi", {}, args.games, args.level),
              run("fog banqi", "banqi", {"fog": True}, args.games, args.level)])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
