"""The Ataxx engine over UAI: `python -m ai.uai` (PROTOCOL.md).

Commands: uai, isready, uainewgame, position startpos|fen FEN [moves M...], go movetime N |
depth D | wtime W btime B [winc I binc J] | infinite, stop, quit, and perft D after position
(answered with one line "perft D N"). The search runs on a thread, so stop and quit work while
it thinks. A line the engine cannot use gets "info string error: ..." and changes nothing.
"""

from __future__ import annotations

import sys
import threading
from typing import TextIO

from ai import ataxx as bot
from ai.base import Budget
from game.rules import RulesError
from game.rules import ataxx as rules

NAME = "Paper Arcade Ataxx"
AUTHOR = "Paper Arcade"
FOREVER = 10**9


class Engine:
    def __init__(self, out: TextIO = sys.stdout):
        self.out = out
        self.pos = rules.from_fen(rules.START_FEN)
        self.thread: threading.Thread | None = None
        self.cancel = threading.Event()
        self.lock = threading.Lock()

    def say(self, line: str) -> None:
        with self.lock:
            self.out.write(line + "\n")
            self.out.flush()

    def error(self, message: str) -> None:
        self.say(f"info string error: {message}")

    # --- commands
    def handle(self, line: str) -> bool:
        """Act on one line; returns False on quit."""
        words = line.split()
        if not words:
            return True
        cmd, args = words[0], words[1:]
        if cmd == "quit":
            self.stop()
            return False
        handler = getattr(self, f"cmd_{cmd}", None)
        if handler is None:
            self.error(f"unknown command {cmd!r}")
            return True
        try:
            handler(args)
        except (RulesError, ValueError, IndexError) as exc:
            self.error(f"{cmd}: {exc}")
        return True

    def cmd_uai(self, args: list[str]) -> None:
        self.say(f"id name {NAME}")
        self.say(f"id author {AUTHOR}")
        self.say("uaiok")

    def cmd_isready(self, args: list[str]) -> None:
        self.say("readyok")

    def cmd_uainewgame(self, args: list[str]) -> None:
        self.stop()
        bot._TABLE.clear()
        self.pos = rules.from_fen(rules.START_FEN)

    def cmd_position(self, args: list[str]) -> None:
        if not args:
            raise ValueError("position needs startpos or fen")
        if args[0] == "startpos":
            pos, rest = rules.from_fen(rules.START_FEN), args[1:]
        elif args[0] == "fen":
            end = args.index("moves") if "moves" in args else len(args)
            pos, rest = rules.from_fen(" ".join(args[1:end])), args[end:]
        else:
            raise ValueError(f"expected startpos or fen, not {args[0]!r}")
        if rest:
            if rest[0] != "moves":
                raise ValueError(f"unexpected {rest[0]!r}")
            for move in rest[1:]:
                pos = rules.apply(pos, move)
        self.pos = pos  # only once every part was good

    def cmd_perft(self, args: list[str]) -> None:
        depth = int(args[0])
        if not 0 <= depth <= 8:
            raise ValueError("perft depth must be 0..8")
        self.say(f"perft {depth} {rules.perft(self.pos, depth)}")

    def cmd_go(self, args: list[str]) -> None:
        if self.thread is not None and self.thread.is_alive():
            raise ValueError("already searching (send stop first)")
        opts: dict[str, int] = {}
        i = 0
        while i < len(args):
            key = args[i]
            if key == "infinite":
                opts["infinite"] = 1
                i += 1
                continue
            if key not in ("movetime", "depth", "wtime", "btime", "winc", "binc", "nodes"):
                raise ValueError(f"unknown go option {key!r}")
            opts[key] = int(args[i + 1])
            i += 2
        seconds, depth = self._limits(opts)
        self.cancel = threading.Event()
        self.thread = threading.Thread(target=self._search, args=(self.pos, seconds, depth),
                                       daemon=True)
        self.thread.start()

    def _limits(self, opts: dict[str, int]) -> tuple[float, int]:
        depth = opts.get("depth", 64)
        if "movetime" in opts:
            return max(0.01, opts["movetime"] / 1000 - 0.02), depth
        side = "wtime" if self.pos.turn == 0 else "btime"
        inc = "winc" if self.pos.turn == 0 else "binc"
        if side in opts:
            left, extra = opts[side], opts.get(inc, 0)
            return max(0.01, min(left / 1000 / 2, left / 1000 / 30 + extra / 1000 * 0.8)), depth
        return FOREVER, depth  # depth D alone, or infinite: until the depth, or stop

    def _search(self, pos: rules.Position, seconds: float, depth: int) -> None:
        if rules.game_over(pos):
            self.say("bestmove 0000")
            return
        search = bot.Search(Budget(seconds, self.cancel), bot._TABLE, max_depth=depth)

        def info(d: int, score: int, move: tuple[int, int], nodes: int) -> None:
            self.say(f"info depth {d} score cp {score} nodes {nodes} "
                     f"pv {rules.move_text(*move)}")

        move, _, _ = search.best_move(pos, on_depth=info)
        self.say(f"bestmove {rules.move_text(*move)}")

    def cmd_stop(self, args: list[str]) -> None:
        self.stop()

    def stop(self) -> None:
        self.cancel.set()
        if self.thread is not None:
            self.thread.join(5)
            self.thread = None


def main() -> None:
    engine = Engine()
    for line in sys.stdin:
        if not engine.handle(line.strip()):
            break
    engine.stop()


if __name__ == "__main__":
    main()
