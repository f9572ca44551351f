"""The arena: two players meet over many games, played in parallel processes.

    python -m players.arena --game GAME --a SPEC --b SPEC --games N --jobs J --time-ms T
                       [--seed S] [--out DIR] [--options JSON]

SPEC is builtin:LEVEL (a built-in bot), cmd:"COMMAND" (a program speaking the agent protocol)
or uai:"COMMAND" (a UAI engine, Ataxx only). Games come in pairs that share an opening and a
seed, with the seats swapped; the openings vary as the game's bot module declares
(ai.base.opening_plan: for Ataxx every layout, then the same layouts after two random
plies). Every game is saved as a replay. The last line reads
`A vs B: W-D-L = w-d-l, score s%, Elo +e ± m (95%)` from A's side.

Single-player games (2048) have no W-D-L: A and B each play the same N seeds, and the last line
compares their mean scores: `A vs B: mean score a vs b over N seeds (A higher h, equal e,
lower l)`.
"""

from __future__ import annotations

import argparse
import enum
import json
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from ai import elo
from ai.agent import budget_seconds
from ai.base import check_level, opening_plan
from ai.worker import die_with_parent
from game import registry
from game.match import Level, Match, Seat, SeatKind
from players.base import Controller
from players.bot import AIController
from players.program import AgentController, UAIController, sweep_programs, uai_games
from players.table import play_out


class PlayerKind(str, enum.Enum):
    """Who a command-line player is: a built-in bot's level, an agent's or a UAI engine's
    command line. The value is the prefix before the colon."""

    BUILTIN = "builtin"
    CMD = "cmd"
    UAI = "uai"

    def __str__(self) -> str:
        return self.value


KINDS = tuple(PlayerKind)


@dataclass(frozen=True)
class Spec:
    kind: PlayerKind
    value: str

    @property
    def text(self) -> str:
        return f"{self.kind}:{self.value}"


def parse_spec(text: str) -> Spec:
    """builtin:LEVEL | cmd:COMMAND | uai:COMMAND; ValueError if it is none of them."""
    kind, sep, value = text.partition(":")
    value = value.strip()
    if not sep or kind not in KINDS or not value:
        raise ValueError(f"bad player {text!r}: use builtin:LEVEL, cmd:\"COMMAND\" or "
                         "uai:\"COMMAND\"")
    if kind == PlayerKind.BUILTIN:
        check_level(value)
    return Spec(PlayerKind(kind), value)


def _builtin(spec: Spec, time_ms: int, seed: int) -> Controller:
    level = check_level(spec.value)
    return AIController(level, 0.0 if level is Level.RANDOM else budget_seconds(time_ms), seed)


# The controller of each kind of player: (spec, milliseconds a move, seed).
CONTROLLERS: dict[PlayerKind, Callable[[Spec, int, int], Controller]] = {
    PlayerKind.BUILTIN: _builtin,
    PlayerKind.CMD: lambda spec, time_ms, seed: AgentController(spec.value, time_ms),
    PlayerKind.UAI: lambda spec, time_ms, seed: UAIController(spec.value, time_ms),
}
# The seat each kind of player takes in the match record: (spec, name).
SEATS: dict[PlayerKind, Callable[[Spec, str], Seat]] = {
    PlayerKind.BUILTIN: lambda spec, name: Seat(SeatKind.AI, name, check_level(spec.value)),
    PlayerKind.CMD: lambda spec, name: Seat(SeatKind.AGENT, name, command=spec.value),
    PlayerKind.UAI: lambda spec, name: Seat(SeatKind.AGENT, name, command=f"uai:{spec.value}"),
}


def controller_for(spec: Spec, time_ms: int, seed: int) -> Controller:
    """The controller that plays spec with time_ms a move."""
    return CONTROLLERS[spec.kind](spec, time_ms, seed)


def seat_for(spec: Spec, label: str) -> Seat:
    return SEATS[spec.kind](spec, f"{label}: {spec.text}"[:40])


@dataclass
class Job:
    """One game: who plays which seat, from which opening."""

    index: int
    game: str
    options: dict
    opening: list
    seed: int
    seats: list[str]  # "a" / "b" per seat
    a: str
    b: str
    time_ms: int
    out: str
    register: tuple[str, ...] | None = None  # a game added at run time (tests), added here too


@dataclass
class GameResult:
    index: int
    seats: list[str]
    winner: int | None = None
    score: list = field(default_factory=list)
    plies: int = 0
    reason: str = ""
    termination: str = ""  # the Termination's value, "" while unfinished
    replay: str = ""
    error: str = ""
    seconds: float = 0.0
    opening: str = ""
    pid: int = 0  # the process that played it

    def points(self, who: str = "a") -> float | None:
        """1, 0.5 or 0 for the side `who` in a two-player game; None if it has no result."""
        if self.error:
            return None
        if self.winner is None:
            return 0.5
        return 1.0 if self.seats[self.winner] == who else 0.0


def play_game(job: Job) -> GameResult:
    """Play one game to the end and save its replay (runs in a worker process)."""
    result = GameResult(job.index, job.seats, opening=" ".join(map(str, job.opening)),
                        pid=os.getpid())
    started = time.monotonic()
    try:
        if job.register and job.game not in registry.available():
            registry.register(*job.register)
        specs = {"a": parse_spec(job.a), "b": parse_spec(job.b)}
        seats = [seat_for(specs[w], w.upper()) for w in job.seats]
        match = Match(job.game, job.options, job.seed, seats)
        for move in job.opening:
            match.play(move)
        # each side's randomness follows the side, not the seat, so swapped games differ
        ctrls = [controller_for(specs[w], job.time_ms, job.seed * 7 + (w == "b"))
                 for w in job.seats]
        play_out(match, ctrls)
        for c in ctrls:
            c.wait_closed(3.0)
        _fill(result, match)
        from game.replay import save_replay
        result.replay = str(save_replay(match, time.monotonic() - started,
                                        Path(job.out) if job.out else None))
    except Exception as exc:  # one broken game must not end the run: it is reported
        result.error = f"{type(exc).__name__}: {exc}"
    result.seconds = time.monotonic() - started
    return result


def _fill(result: GameResult, match: Match) -> None:
    out = match.outcome()
    result.plies = len(match.moves)
    if out is None:
        result.score = list(match.score())
        result.reason = "unfinished"
        if match.rules.PLAYERS == 2:
            result.error = result.reason
        return
    result.winner, result.score, result.reason = out.winner, list(out.score), out.reason
    result.termination = out.termination.value


def openings(game: str, options: dict, pairs: int, seed: int) -> list[tuple[dict, list]]:
    """(options, opening moves) for each pair of games, as the game's bot module declares
    (ai.base.opening_plan): every value of its opening option (unless the options fix it),
    then the same again after its opening plies of random moves; else the given options."""
    key, plies = opening_plan(game)
    variants = [dict(options)]
    if key is not None and key not in options:
        option = next(o for o in registry.rules(game).OPTIONS if o.key == key)
        variants = [{**options, key: value} for value, _ in option.choices]
    rng = random.Random(seed)
    result = []
    for k in range(pairs):
        opts = variants[k % len(variants)]
        moves: list = []
        if plies and k >= len(variants):
            moves = _random_opening(game, opts, plies, rng)
        result.append((opts, moves))
    return result


def _random_opening(game: str, options: dict, plies: int, rng: random.Random) -> list:
    match = Match(game, options, 0)
    for _ in range(plies):
        legal = match.legal_moves()
        if not legal:
            break
        match.play(rng.choice(legal))
    return list(match.moves)


def schedule(game: str, a: str, b: str, games: int, time_ms: int, seed: int, out: str,
             options: dict | None = None) -> list[Job]:
    """The jobs of a run: pairs with seats swapped (two players), or each seed played by A
    and by B (one player)."""
    info = registry.get(game)
    register = registry.registration(game)
    options = info.rules.normalize_options(options or {})
    pairs = (games + 1) // 2 if info.players == 2 else games
    rng = random.Random(seed)
    jobs: list[Job] = []
    for opts, moves in openings(game, options, pairs, seed):
        match_seed = rng.randrange(2**31)
        orders = [["a", "b"], ["b", "a"]] if info.players == 2 else [["a"], ["b"]]
        for order in orders:
            if info.players == 2 and len(jobs) >= games:
                break
            jobs.append(Job(len(jobs), game, opts, moves, match_seed, order, a, b, time_ms,
                            out, register))
    return jobs


@dataclass
class ArenaRun:
    game: str
    a: str
    b: str
    results: list[GameResult]
    players: int

    def wdl(self) -> tuple[int, int, int]:
        """A's wins, draws and losses (two players), or seeds where A scored higher, equal,
        lower (one player)."""
        if self.players == 1:
            return self._paired()
        pts = [r.points("a") for r in self.results]
        return pts.count(1.0), pts.count(0.5), pts.count(0.0)

    def _scores(self, who: str) -> dict[int, int]:
        return {r.index // 2: r.score[0] for r in self.results
                if r.seats == [who] and not r.error and r.score}

    def _paired(self) -> tuple[int, int, int]:
        a, b = self._scores("a"), self._scores("b")
        both = sorted(set(a) & set(b))
        return (sum(a[k] > b[k] for k in both), sum(a[k] == b[k] for k in both),
                sum(a[k] < b[k] for k in both))

    def means(self) -> tuple[float, float, int]:
        a, b = self._scores("a"), self._scores("b")
        both = sorted(set(a) & set(b))
        if not both:
            return float("nan"), float("nan"), 0
        return (sum(a[k] for k in both) / len(both), sum(b[k] for k in both) / len(both),
                len(both))

    def last_line(self) -> str:
        w, d, l = self.wdl()
        if self.players == 1:
            ma, mb, n = self.means()
            return (f"{self.a} vs {self.b}: mean score {ma:.1f} vs {mb:.1f} over {n} seeds "
                    f"(A higher {w}, equal {d}, lower {l})")
        return elo.summary_line(self.a, self.b, w, d, l)


def run(game: str, a: str, b: str, games: int, jobs: int, time_ms: int, seed: int = 1,
        out: str = "", options: dict | None = None, progress: IO[str] | None = None) -> ArenaRun:
    """Play the games (in `jobs` processes when jobs > 1) and collect their results."""
    parse_spec(a), parse_spec(b)
    todo = schedule(game, a, b, games, time_ms, seed, out, options)
    players = registry.get(game).players
    results: list[GameResult] = []
    bar = Progress(len(todo), progress)
    if jobs <= 1:
        for job in todo:
            results.append(play_game(job))
            bar.update(results)
    else:
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(min(jobs, len(todo)), mp_context=ctx, initializer=_init_worker,
                                 initargs=(os.getpid(),)) as pool:
            futures = {pool.submit(play_game, job): job for job in todo}
            for fut in as_completed(futures):
                results.append(_collect(fut, futures[fut]))
                bar.update(results)
    bar.done()
    results.sort(key=lambda r: r.index)
    return ArenaRun(game, a, b, results, players)


def _init_worker(arena_pid: int) -> None:
    """A worker ends with its arena, however the arena ends (kill -9 too), and ends the
    programs it runs and what they started first: its own death would spare their children.
    The watchdog is the arena's pipe, not a death signal, which would leave it no time."""
    die_with_parent(arena_pid, before_exit=sweep_programs)


def _collect(fut: Future, job: Job) -> GameResult:
    """The game's result, or an error result if its worker process broke."""
    try:
        return fut.result()
    except Exception as exc:  # BrokenProcessPool and the like: the run goes on and says so
        return GameResult(job.index, job.seats, error=f"worker failed: {exc!r}")


class Progress:
    """A one-line progress bar on stderr: done/total and A's results so far."""

    def __init__(self, total: int, stream: IO[str] | None, width: int = 30):
        self.total, self.stream, self.width = total, stream, width

    def update(self, results: list[GameResult]) -> None:
        if self.stream is None:
            return
        n = len(results)
        filled = self.width * n // max(1, self.total)
        pts = [r.points("a") for r in results if len(r.seats) == 2]
        tally = f" A +{pts.count(1.0)} ={pts.count(0.5)} -{pts.count(0.0)}" if pts else ""
        errors = sum(1 for r in results if r.error)
        bad = f" errors {errors}" if errors else ""
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r[{bar}] {n}/{self.total}{tally}{bad}")
        self.stream.flush()

    def done(self) -> None:
        if self.stream is not None:
            self.stream.write("\n")
            self.stream.flush()


def table(arena: ArenaRun) -> str:
    """The per-game table and the per-seat summary."""
    rules = registry.rules(arena.game)
    lines = []
    if arena.players == 1:
        lines.append(f"{'game':>4}  {'player':6}  {'score':>7}  {'moves':>5}  {'end':12}  result")
        for r in arena.results:
            who = r.seats[0].upper()
            score = r.score[0] if r.score else "-"
            lines.append(f"{r.index + 1:>4}  {who:6}  {score:>7}  {r.plies:>5}  "
                         f"{r.termination or '-':12}  {r.error or r.reason}")
        return "\n".join(lines)
    lines.append(f"{'game':>4}  {'A plays':8}  {'A':4}  {'score':>7}  {'moves':>5}  "
                 f"{'opening':10}  {'end':12}  reason")
    per_seat = {s: [0, 0, 0] for s in range(2)}
    for r in arena.results:
        seat_a = r.seats.index("a")
        pts = r.points("a")
        mark = {1.0: "win", 0.5: "draw", 0.0: "loss", None: "err"}[pts]
        if pts is not None:
            per_seat[seat_a][{1.0: 0, 0.5: 1, 0.0: 2}[pts]] += 1
        score = "-".join(str(s) for s in r.score) or "-"
        lines.append(f"{r.index + 1:>4}  {rules.SEAT_NAMES[seat_a]:8}  {mark:4}  {score:>7}  "
                     f"{r.plies:>5}  {r.opening or '-':10}  {r.termination or '-':12}  "
                     f"{r.error or r.reason}")
    for seat, (w, d, l) in per_seat.items():
        lines.append(f"A as {rules.SEAT_NAMES[seat]}: W-D-L = {w}-{d}-{l}")
    return "\n".join(lines)


def main(argv: list[str] | None = None, out: IO[str] | None = None,
         err: IO[str] | None = None) -> int:
    """The command line; out and err default to the process's streams."""
    out, err = out or sys.stdout, err or sys.stderr
    parser = argparse.ArgumentParser(prog="python -m players.arena",
                                     description="Play two players against each other.")
    parser.add_argument("--game", required=True)
    parser.add_argument("--a", required=True, help="builtin:LEVEL | cmd:COMMAND | uai:COMMAND")
    parser.add_argument("--b", required=True, help="builtin:LEVEL | cmd:COMMAND | uai:COMMAND")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--time-ms", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="", help="folder for the replays (default: the "
                                                  "arcade's replay folder)")
    parser.add_argument("--options", default="{}", help="the game's options as JSON")
    args = parser.parse_args(argv)
    try:
        for spec in (args.a, args.b):
            if parse_spec(spec).kind is PlayerKind.UAI and not registry.rules(args.game).UAI:
                raise ValueError(f"uai: players play only {uai_games()}")
        if args.games < 1 or args.jobs < 1 or args.time_ms < 1:
            raise ValueError("--games, --jobs and --time-ms must be at least 1")
        registry.get(args.game)
        options = json.loads(args.options)
        if args.out:
            Path(args.out).mkdir(parents=True, exist_ok=True)
        arena = run(args.game, args.a, args.b, args.games, args.jobs, args.time_ms, args.seed,
                    args.out, options, err)
    except (ValueError, KeyError) as exc:
        print(f"arena: {exc}", file=err)
        return 2
    print(table(arena), file=out)
    print(arena.last_line(), file=out)
    return 0


if __name__ == "__main__":
    from players.arena import main as _main  # the module's own functions, so workers can find them

    sys.exit(_main())
