"""The Ataxx engine over UAI: `python -m ai.uai` (docs/protocol.md, UAI).

Commands: uai, isready, uainewgame, position startpos|fen FEN [moves M...], go movetime N |
depth D | wtime W btime B [winc I binc J] | infinite, stop, quit, and perft D after position
(answered with one line "perft D N"). Searches and perfts are jobs run in order on one thread,
so isready, stop and quit are answered at once while one works, and a go sent right after a
bestmove waits behind the search that is winding down, never refused. stop and quit end every
job (a search still answers with its best move so far); at the end of input every job answers
as asked (a search without a limit ends at once).
A line the engine cannot use gets "info string error: ..." and changes nothing.
"""

from __future__ import annotations

import queue
import sys
import threading
from collections.abc import Callable
from typing import TextIO

from ai import ataxx as bot
from ai.base import Budget, answer_reserve
from game.rules import RulesError
from game.rules import ataxx as rules

NAME = "Paper Arcade Ataxx"
AUTHOR = "Paper Arcade"
FOREVER = 10**9
# isready waits at most this for the compiled search: hosts give the handshake about 10 s (the
# arcade's own STARTUP_MS), and a machine's first compile takes longer (it goes on meanwhile).
READY_WAIT_S = 5.0
Job = Callable[[threading.Event], "str | None"]  # work(cancel) -> the answer line, or None


class Engine:
    """The engine: handle() acts on one command line at once; searches and perfts are jobs run
    in order on one job thread, each answered by one line when it ends."""

    def __init__(self, out: TextIO = sys.stdout):
        self.out = out
        self.pos = rules.from_fen(rules.START_FEN)
        self.lock = threading.Lock()  # one line at a time on out, and the job bookkeeping
        self.jobs: queue.Queue[tuple[str, threading.Event, Job] | None] = queue.Queue()
        self.thread: threading.Thread | None = None
        self.pending: list[tuple[str, threading.Event]] = []  # jobs not yet answered, in order

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
            self.stop()  # every job ends within moments (see perft); each still answers
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
        """readyok; when idle, once the compiled search is loaded (UAI lets isready wait for
        set-up), so the first go is not played by the pure search, but at most READY_WAIT_S.
        While a job runs, at once."""
        with self.lock:
            idle = not self.pending
        if idle:
            bot.KERNEL.get()
            bot.KERNEL.wait(READY_WAIT_S)
        self.say("readyok")

    def cmd_uainewgame(self, args: list[str]) -> None:
        self.stop()
        self._queue("clear", lambda cancel: bot._TABLE.clear())  # after the jobs using it
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
        pos = self.pos

        def count(cancel: threading.Event) -> str:
            try:
                return f"perft {depth} {perft(pos, depth, cancel)}"
            except Stopped:
                return f"info string perft {depth} stopped"

        self._queue("perft", count)

    def cmd_go(self, args: list[str]) -> None:
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
        pos = self.pos
        kind = "infinite" if seconds == FOREVER and "depth" not in opts else "go"
        # A go sent right after a bestmove waits in the queue for the search that is winding
        # down; it is never refused.
        self._queue(kind, lambda cancel: self._search(pos, seconds, depth, cancel))

    def _queue(self, kind: str, work: Job) -> None:
        cancel = threading.Event()
        with self.lock:
            self.pending.append((kind, cancel))
        self.jobs.put((kind, cancel, work))
        if self.thread is None:
            self.thread = threading.Thread(target=self._run_jobs, daemon=True, name="uai-jobs")
            self.thread.start()

    def _run_jobs(self) -> None:
        while (job := self.jobs.get()) is not None:
            kind, cancel, work = job
            try:
                line = work(cancel)
            except Exception as exc:  # an engine bug must still answer, or the GUI waits forever
                line = f"info string error: {kind}: {exc}"
            with self.lock:  # the answer and the end of the job together
                if line is not None:
                    self.out.write(line + "\n")
                    self.out.flush()
                self.pending.pop(0)

    def _limits(self, opts: dict[str, int]) -> tuple[float, int]:
        depth = opts.get("depth", 64)
        if "movetime" in opts:
            # the arcade's reserve: 20 ms gave this engine 80 of 100 ms, its opponents ~90
            seconds = opts["movetime"] / 1000
            return max(0.01, seconds - answer_reserve(seconds)), depth
        side = "wtime" if self.pos.turn == 0 else "btime"
        inc = "winc" if self.pos.turn == 0 else "binc"
        if side in opts:
            left, extra = opts[side], opts.get(inc, 0)
            return max(0.01, min(left / 1000 / 2, left / 1000 / 30 + extra / 1000 * 0.8)), depth
        return FOREVER, depth  # depth D alone, or infinite: until the depth, or stop

    def _search(self, pos: rules.Position, seconds: float, depth: int,
                cancel: threading.Event) -> str:
        """The bestmove line, after an info line for each finished depth."""
        if rules.game_over(pos):
            return "bestmove 0000"
        search = bot.Search(Budget(seconds, cancel), bot._TABLE, max_depth=depth)

        def info(d: int, score: int, move: tuple[int, int], nodes: int) -> None:
            self.say(f"info depth {d} score cp {score} nodes {nodes} "
                     f"pv {rules.move_text(*move)}")

        move, _, _ = search.best_move(pos, on_depth=info)
        return f"bestmove {rules.move_text(*move)}"

    def cmd_stop(self, args: list[str]) -> None:
        self.stop()

    def stop(self, kinds: tuple[str, ...] = ("go", "infinite", "perft")) -> None:
        """End the jobs of these kinds, running or queued, now: a search still answers with
        its best move so far, a perft with a line saying it stopped."""
        with self.lock:
            for kind, cancel in self.pending:
                if kind in kinds:
                    cancel.set()

    def finish(self, timeout: float | None = 5.0) -> None:
        """Wait until the job thread has given every answer still due (None: however long)."""
        if self.thread is not None:
            self.jobs.put(None)
            self.thread.join(timeout)


class Stopped(Exception):
    """A perft was stopped."""


PERFT_UNIT = 3  # perfts this deep run whole (milliseconds); deeper ones check for stop


def perft(pos: rules.Position, depth: int, cancel: threading.Event) -> int:
    """rules.perft, stopped (Stopped) soon after cancel is set."""
    if depth <= PERFT_UNIT:
        return rules.perft(pos, depth)
    total = 0
    for frm, to in rules.moves_of(pos):
        if cancel.is_set():
            raise Stopped
        total += perft(rules.make(pos, frm, to), depth - 1, cancel)
    return total


def main() -> None:
    bot.KERNEL.get()  # starts loading the compiled search in the background now
    engine = Engine()
    for line in sys.stdin:
        if not engine.handle(line.strip()):
            engine.finish()
            return
    # The end of input (a script piped in): every answer asked for is given, but a search
    # without a limit has nothing to wait for.
    engine.stop(("infinite",))
    engine.finish(None)



if __name__ == "__main__":
    main()
