"""Move round trip over the LAN link on loopback: the host sends a move, the guest (another
process) plays its reply at once, and the host has it back.

    python bench/lan_roundtrip.py [--game ataxx] [--moves 2000]

Prints the median and 99th percentile round trip in milliseconds. Games restart as they end
(a rematch offered and accepted). With --game banqi the round trips of the host's flips (each
opened by both sides' keys) are reported on their own line. The per-peer frame rate limit
(net.link.RATE), which a game played by people or bots never nears, is lifted here.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from net import link as net_link  # noqa: E402
from net.session import Host, join, start_hosted, start_joined  # noqa: E402

net_link.RATE, net_link.BURST = 1e9, 1e9


def guest(port: int) -> None:
    """Reply to every move with the first legal move, until the host closes."""
    link, welcome = join(("127.0.0.1", port), None, None, "bench guest")
    s = start_joined(link, welcome)
    while s.connected:
        for note in s.events():
            if note["type"] == "ask":
                note["on_yes"]()
        m = s.match
        if m.over:
            time.sleep(0.0005)
            continue
        if m.to_move() == s.seat and not s.waiting:
            s.submit(m.legal_moves()[0])
        time.sleep(0.00005)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--game", default="ataxx")
    p.add_argument("--moves", type=int, default=2000)
    p.add_argument("--guest", type=int, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.guest:
        guest(args.guest)
        return
    host = Host(args.game, {}, 0, "127.0.0.1")
    child = subprocess.Popen([sys.executable, __file__, "--guest", str(host.port)])
    while (arrival := host.next_arrival()) is None:
        time.sleep(0.01)
    s = start_hosted(arrival[0], args.game, host.options, "bench host", "guest", seed=1)
    trips: list[float] = []
    flips: list[float] = []
    try:
        while len(trips) < args.moves:
            m = s.match
            if m.over:
                s.offer_rematch()
                while s.connected and s.match is m:
                    s.events()
                    time.sleep(0.0005)
                continue
            if m.to_move() != s.seat or s.waiting:
                s.events()
                continue
            before = len(m.moves)
            start = time.perf_counter()
            move = m.legal_moves()[0]
            s.submit(move)
            while s.connected and s.match is m and not m.over \
                    and (len(m.moves) == before or m.to_move() != s.seat):
                s.pump()
                time.sleep(0.00005)  # lets the reader thread take the GIL, as the loop's tick does
            if s.match is m and len(m.moves) >= before + 2:
                trips.append(time.perf_counter() - start)
                wire = m.rules.move_to_wire(move)
                if args.game == "banqi" and isinstance(wire, str) and len(wire) == 2:
                    flips.append(trips[-1])
    finally:
        s.close()
        child.wait(10)
        host.stop()
    report(f"{args.game}: {len(trips)} round trips", trips)
    if flips:
        report(f"{args.game}: {len(flips)} of them the host's flips", flips)


def report(what: str, trips: list[float]) -> None:
    ms = sorted(t * 1000 for t in trips)
    print(f"{what} on loopback: median {statistics.median(ms):.2f} ms"
          f"  p99 {ms[int(0.99 * (len(ms) - 1))]:.2f} ms  max {ms[-1]:.2f} ms")


if __name__ == "__main__":
    main()
