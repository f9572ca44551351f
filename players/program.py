"""Outside programs at the table: the host side of arcade-agent/1 (docs/protocol.md), and UAI
engines for Ataxx.

AgentController(command) runs the command line (split with shlex, no shell) as a subprocess
and speaks the agent protocol with it; a command that starts with "uai:" is a UAI engine
instead (AgentController("uai:my-engine --flag") returns a UAIController), so a Seat's command
alone says which protocol to speak. Both are players.base controllers and never block the
caller: request() only sends, poll() returns None until a valid answer has arrived.

The program loses (poll raises SeatFailure with the reason) when it cannot be started, answers
later than time_ms + 1000 ms (the handshake gets STARTUP_MS), exits or closes its output, stops
reading its input, prints a line longer than MAX_LINE bytes or more than max_lines lines while
one answer is awaited, prints a line that is not JSON or of an unknown type, reports an error,
or answers a malformed or illegal move or setup. A UAI engine may print any lines besides its
answers (UAI says to ignore unknown ones); they only count toward the line limit.
"""

from __future__ import annotations

import atexit
import itertools
import json
import os
import queue
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable
from typing import IO, Any, ClassVar

from ai.agent import PROTOCOL
from game import registry
from game.match import Match
from game.rules import Termination
from game.text import LINE_MAX, NAME_MAX, clean_text
from players.base import Controller, Decision, SeatFailure

MAX_LINE = 1 << 16  # bytes in one line, newline included
MAX_LINES = 200  # lines while one answer is awaited (agent protocol)
UAI_MAX_LINES = 5000  # UAI engines print "info" lines while they think
QUEUE_CAP = 10_000  # lines left unread before the program counts as flooding
UNREAD_CAP = 4 << 20  # bytes left unread before the program counts as flooding
STARTUP_MS = 10_000  # time for the handshake: an interpreter and its imports may start slowly
GRACE_MS = 1000  # how late an answer may be past time_ms
MAX_DEPTH = 32  # lists and objects in one message: the protocol's deepest is far shallower
LEGAL_CAP = 2000  # longer legal lists are left out of turn messages (the view suffices)
CLOSE_GRACE_S = 1.0  # time a program gets to exit after quit before it is terminated
EXIT_WAIT_S = 3.0  # time from the end of a program's output to its exit, read as one event
UAI_PREFIX = "uai:"


class _Fail(Exception):
    """Internal: the program broke a rule; the message says how."""

    def __init__(self, message: str, termination: Termination = Termination.FAILURE):
        super().__init__(message)
        self.termination = termination


def _dying_with_us(argv: list[str], env: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    """The command line that starts argv through players.launch, so that the program is killed
    when the arcade dies. On Linux, from the main thread, the launcher asks the kernel (the
    signal is sent when the spawning thread ends, so only a program started from the main
    thread, which lives as long as the arcade, gets it); elsewhere it watches the arcade."""
    if shutil.which(argv[0]) is None:
        raise FileNotFoundError(2, "No such file or directory", argv[0])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    launcher = [sys.executable, "-m", "players.launch"]
    if not sys.platform.startswith("linux") \
            or threading.current_thread() is not threading.main_thread():
        launcher.append("--watch")
    return launcher + [str(os.getpid())] + argv, {**env, "PYTHONPATH": path}


class ProgramProcess:
    """A subprocess with four daemon threads: stdout lines into a bounded queue, writes from a
    queue (a program that stops reading never blocks the caller), a short stderr tail, and a
    waiter that ends whatever the program left behind once its main process has exited.

    The program runs in a session (and process group) of its own and carries a token in its
    environment; when it ends, its group, every process still holding one of its pipes and every
    process carrying its token are killed, so a child that left the group (setsid) or the pipes
    goes too, and the end of output follows the exit of the main process at once."""

    def __init__(self, argv: list[str], now: Callable[[], float] = time.monotonic):
        self.now = now  # the clock lines are stamped on (tests move their own)
        self.token = f"{os.getpid()}-{next(_TOKENS)}-{time.monotonic_ns()}"
        env = {**os.environ, TOKEN_VAR: self.token}
        extra: dict[str, Any] = {"start_new_session": True} if os.name == "posix" else {}
        argv, env = _dying_with_us(argv, env)
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env, **extra)
        self.stdin, self.stdout, self.stderr = _pipes(self.proc)
        self.pipes = _pipe_ids(self.proc) if os.path.isdir(f"{PROC}/self/fd") else {}
        # Only the waiter thread reaps the process, and only after the leftovers are killed:
        # until then its pid (and group id) stays the program's, so no signal can reach a
        # process that took the pid over. Signals are sent under the same lock.
        self._reap_lock = threading.Lock()
        self.reaped = False
        self.exit_code: int | None = None
        self.exited = threading.Event()
        self.lines: queue.Queue[tuple[str, str, float]] = queue.Queue(QUEUE_CAP)
        self.flooded = ""
        self.unread = 0  # bytes in self.lines
        self._unread_lock = threading.Lock()
        self.write_error = ""
        self.stderr_tail: deque[str] = deque(maxlen=6)
        self._writes: queue.Queue[bytes | None] = queue.Queue()
        threads = [threading.Thread(target=t, daemon=True, name=f"agent-{t.__name__}")
                   for t in (self._drain_stderr, self._write, self._read, self._wait)]
        self._stderr_thread = threads[0]
        for t in threads:
            t.start()
        _LIVE.add(self)

    def _wait(self) -> None:
        """Once the main process has exited, nothing it started may stay (nor hold its pipes
        open, which would hide the exit behind a silent pipe); then it is reaped."""
        _wait_unreaped(self.proc)
        with self._reap_lock:
            if os.name == "posix":
                kill_leftovers(self.proc.pid, self.pipes, self.token)
            self.exit_code = self.proc.wait()
            self.reaped = True
        self.exited.set()
        _LIVE.discard(self)

    def _read(self) -> None:
        out = self.stdout
        while True:
            try:
                raw = out.readline(MAX_LINE + 1)
            except (OSError, ValueError):
                raw = b""
            now = self.now()
            if not raw:
                self._settle()
                self._put(("eof", "", now))
                return
            if len(raw) > MAX_LINE:
                self.flooded = f"printed a line longer than {MAX_LINE} bytes"
                return
            try:
                item = ("line", raw.decode("utf-8").rstrip("\r\n"), now)
            except UnicodeDecodeError:
                item = ("bad", "printed a line that is not UTF-8", now)
            if not self._put(item):
                return

    def _settle(self) -> None:
        """After end of output: give the program a moment to exit and its last stderr lines
        a moment to arrive, so that the reason given is complete (this is the reader thread)."""
        if self.exited.wait(0.5):
            self._stderr_thread.join(0.5)

    def _put(self, item: tuple[str, str, float]) -> bool:
        with self._unread_lock:
            self.unread += len(item[1])
            if self.unread > UNREAD_CAP:
                self.flooded = f"printed more than {UNREAD_CAP} bytes that were not asked for"
                return False
        try:
            self.lines.put_nowait(item)
        except queue.Full:
            self.flooded = f"printed more than {QUEUE_CAP} lines that were not asked for"
            return False
        return True

    def take(self, wait: float = 0.0) -> tuple[str, str, float] | None:
        """The next event from stdout (line, bad, eof), or None if none came within `wait`
        seconds (0: none yet)."""
        try:
            item = self.lines.get(timeout=wait) if wait > 0 else self.lines.get_nowait()
        except queue.Empty:
            return None
        with self._unread_lock:
            self.unread -= len(item[1])
        return item

    def _write(self) -> None:
        stdin = self.stdin
        while True:
            data = self._writes.get()
            if data is None:
                break
            try:
                stdin.write(data)
                stdin.flush()
            except (OSError, ValueError):
                self.write_error = "stopped reading its input"
                break
        try:
            stdin.close()
        except (OSError, ValueError):
            pass

    def _drain_stderr(self) -> None:
        err = self.stderr
        while True:
            try:
                raw = err.readline(4096)
            except (OSError, ValueError):
                return
            if not raw:
                return
            text = clean_text(raw.decode("utf-8", "replace"), LINE_MAX)
            if text:
                self.stderr_tail.append(text)

    def send(self, text: str) -> None:
        self._writes.put(text.encode("utf-8") + b"\n")

    def exit_text(self) -> str:
        """How the program ended, with the last line of its stderr if any."""
        code = self.exit_code  # the waiter's: poll() says None while another thread waits
        what = "closed its output" if code is None else f"exited with code {code}"
        if self.stderr_tail:
            what += f" (stderr: {self.stderr_tail[-1]})"
        return what

    def close(self, grace: float = CLOSE_GRACE_S) -> threading.Thread:
        """Close its input; give it grace seconds to exit, then terminate and kill it. Runs on
        a daemon thread (returned, so scripts can join it)."""
        self._writes.put(None)
        reaper = threading.Thread(target=self._reap, args=(grace,), daemon=True,
                                  name="agent-reaper")
        reaper.start()
        return reaper

    def _reap(self, grace: float) -> None:
        for sig, wait in ((None, grace), (signal.SIGTERM, 0.5),
                          (getattr(signal, "SIGKILL", signal.SIGTERM), 2.0)):
            if sig is not None:
                self._signal(sig)
            if self.exited.wait(wait):
                break
        kill_leftovers(None, self.pipes, self.token)  # what left the group after the waiter

    def _signal(self, sig: int) -> None:
        """Signal the program's group, never after it was reaped (its pid may be another's)."""
        with self._reap_lock:
            if self.reaped:
                return
            try:
                if os.name == "posix":
                    os.killpg(self.proc.pid, sig)
                elif sig == signal.SIGTERM:
                    self.proc.terminate()
                else:
                    _kill_tree_windows(self.proc)
            except OSError:
                pass

    def kill_now(self) -> None:
        """SIGKILL the program and everything it started, at once (the arcade is going)."""
        self._signal(getattr(signal, "SIGKILL", signal.SIGTERM))
        if os.name == "posix":
            kill_leftovers(None, self.pipes, self.token)


TOKEN_VAR = "PAPER_ARCADE_PROGRAM"  # in a program's environment: who started it
_TOKENS = itertools.count(1)
PROC = "/proc"  # where Linux lists processes; without it, `ps` is asked instead
_LIVE: weakref.WeakSet[ProgramProcess] = weakref.WeakSet()  # programs not reaped yet


def sweep_programs() -> None:
    """Kill every program this process started and everything they started, now: the last
    act of a process that is going (an arena worker whose arena died, the interpreter's exit),
    before its waiter threads could do it."""
    for program in list(_LIVE):
        try:
            program.kill_now()
        except Exception:  # one program's trouble must not spare the others
            continue


atexit.register(sweep_programs)


def _wait_unreaped(proc: subprocess.Popen) -> None:
    """Wait until the process has exited without reaping it (POSIX waitid with WNOWAIT): its
    zombie keeps the pid, so the group can still be killed by that id safely."""
    if os.name == "posix" and hasattr(os, "waitid"):
        while True:
            try:
                os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)
                return
            except InterruptedError:
                continue
            except OSError:  # already reaped, or not our child: wait() below says
                return


def _kill_tree_windows(proc: subprocess.Popen) -> None:
    """Windows has no process groups to signal: taskkill ends the process and its children."""
    try:
        subprocess.run(["taskkill", "/T", "/F", "/PID", str(proc.pid)], capture_output=True,
                       timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        proc.kill()
    except OSError:
        pass


def _pipes(proc: subprocess.Popen[bytes]) -> tuple[IO[bytes], IO[bytes], IO[bytes]]:
    """The program's stdin, stdout and stderr (it was started with a pipe for each)."""
    if proc.stdin is None or proc.stdout is None or proc.stderr is None:
        raise OSError("the program was started without its pipes")
    return proc.stdin, proc.stdout, proc.stderr


def _pipe_ids(proc: subprocess.Popen) -> dict[str, int]:
    """The /proc names ("pipe:[inode]") of the program's three pipes, each with the access mode
    of the program's end: only a process holding that end is the program's."""
    ids = {}
    for f, mode in ((proc.stdin, os.O_RDONLY), (proc.stdout, os.O_WRONLY),
                    (proc.stderr, os.O_WRONLY)):
        if f is None:
            continue
        try:
            ids[f"pipe:[{os.fstat(f.fileno()).st_ino}]"] = mode
        except (OSError, ValueError, AttributeError):
            pass
    return ids


def kill_leftovers(pgid: int | None, pipes: dict[str, int], token: str, rounds: int = 5) -> None:
    """SIGKILL the program's process group (pgid None: no longer known safely), every process
    holding one of its pipes and every process whose environment carries its token (found
    through /proc, else through `ps`), until none is left (a process may fork while it is
    being looked for)."""
    if os.name != "posix":
        return
    for _ in range(rounds):
        if pgid is not None:
            try:
                os.killpg(pgid, signal.SIGKILL)
            except OSError:
                pass
        found = _holders(pipes, token) if os.path.isdir(PROC) else _carriers_by_ps(token)
        if not found:
            return
        for pid in found:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.01)


def _holders(pipes: dict[str, int], token: str) -> set[int]:
    """The processes (not this one) that hold the program's end of one of these pipes or carry
    this token."""
    try:
        entries = os.listdir(PROC)
    except OSError:
        return set()
    mark = f"{TOKEN_VAR}={token}".encode()
    me, found = os.getpid(), set()
    for entry in entries:
        if not entry.isdigit() or int(entry) == me:
            continue
        base = f"{PROC}/{entry}"
        try:
            with open(f"{base}/environ", "rb") as f:
                if mark in f.read().split(b"\0"):
                    found.add(int(entry))
                    continue
            for fd in os.listdir(f"{base}/fd"):
                mode = pipes.get(os.readlink(f"{base}/fd/{fd}"))
                if mode is not None and _access(f"{base}/fdinfo/{fd}") == mode:
                    found.add(int(entry))
                    break
        except OSError:  # gone, or not ours to look at
            continue
    return found


PS_COMMANDS = (["ps", "-A", "-ww", "e", "-o", "pid=,args="],  # procps: e adds the environment
               ["ps", "-A", "-ww", "-E", "-o", "pid=,command="])  # BSD, macOS: -E does


def _carriers_by_ps(token: str) -> set[int]:
    """Without /proc: the processes whose environment carries this token, as `ps` shows them
    (a process that emptied its environment is not found; its group still is)."""
    mark = f"{TOKEN_VAR}={token}"
    for command in PS_COMMANDS:
        try:
            done = subprocess.run(command, capture_output=True, text=True, errors="replace",
                                  timeout=10, check=False)
        except (OSError, subprocess.SubprocessError):
            continue
        if done.returncode != 0:
            continue
        found, me = set(), os.getpid()
        for line in done.stdout.splitlines():
            pid, _, rest = line.strip().partition(" ")
            if pid.isdigit() and int(pid) != me and mark in rest.split():
                found.add(int(pid))
        return found
    return set()


def _access(fdinfo: str) -> int:
    """The access mode (O_RDONLY, O_WRONLY, O_RDWR) of an open file, from /proc's fdinfo."""
    with open(fdinfo) as f:
        for line in f:
            if line.startswith("flags:"):
                return int(line.split()[1], 8) & os.O_ACCMODE
    return -1


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether lists and objects nest more than limit deep in a parsed JSON value (no
    recursion: any depth is safe to ask about)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            if depth > limit:
                return True
            stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict)
                                                   else item))
    return False


def _norm(value: Any) -> str:
    """A move's comparable form (lists and tuples alike)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


class _ProgramController(Controller):
    """What the agent and UAI hosts share: the process, the clock, the line limit, stale
    answers after cancel, and turning broken rules into SeatFailure."""

    max_lines = MAX_LINES
    answers: tuple[str, ...] = ()  # the awaited words that answer a request

    def __init__(self, command: str, time_ms: int = 1000, startup_ms: int = STARTUP_MS,
                 now: Callable[[], float] = time.monotonic):
        self.command = command.strip()
        self.now = now  # the clock deadlines are read on (tests move their own)
        self.time_ms = max(1, int(time_ms))
        self.startup_ms = max(1, int(startup_ms))
        self.name = "program"
        self.proc: ProgramProcess | None = None
        self.failure = ""
        self.match: Match | None = None
        self.seat: int | None = None
        self.expect: str | None = None  # the answer awaited now
        self.deadline = 0.0
        self.limit_ms = 0
        self.lines_seen = 0
        self.skip = 0  # answers still to come for cancelled requests
        self.want = False  # a request is waiting for the handshake
        self.ready = False
        self.closed = False
        self.legal: set[str] = set()
        self.reaper: threading.Thread | None = None
        self.failure_kind = Termination.FAILURE
        self.eof_at: float | None = None  # when the end of the program's output was seen

    @property
    def process(self) -> ProgramProcess:
        """The program, once started (all that talks to it runs after _spawn)."""
        if self.proc is None:
            raise _Fail("was spoken to before it was started")
        return self.proc

    @property
    def game(self) -> Match:
        """The match of the request being served."""
        if self.match is None:
            raise _Fail("was asked about no match")
        return self.match

    @property
    def asked_seat(self) -> int:
        """The seat of the request being served."""
        if self.seat is None:
            raise _Fail("was asked for no seat")
        return self.seat

    # --- the Controller interface
    def request(self, match: Match, seat: int) -> None:
        if self.failure or self.closed:
            return
        self.match, self.seat = match, seat
        if self.expect in self.answers:
            self._forget_answer()
        self.want = True
        try:
            if self.proc is None:
                self._spawn()
            elif self.ready:
                self._send_request()
        except _Fail as exc:
            self._fail(str(exc), exc.termination)

    def poll(self) -> Decision | None:
        if self.failure:
            raise SeatFailure(self.failure, self.failure_kind)
        if self.proc is None or self.closed:
            return None
        try:
            return self._pump()
        except _Fail as exc:
            self._fail(str(exc), exc.termination)
            raise SeatFailure(self.failure, self.failure_kind) from None

    def cancel(self) -> None:
        self.want = False
        if self.expect in self.answers:
            self._forget_answer()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self.proc is None:
            return
        if self.ready and not self.failure:
            try:
                self._farewell()
            except Exception:  # the match may be in any state; the program must still go
                pass
        self.reaper = self.proc.close(0.2 if self.failure else CLOSE_GRACE_S)

    def wait_closed(self, timeout: float = 5.0) -> None:
        """Wait until the program has exited (scripts and tests; never the loop)."""
        if self.reaper is not None:
            self.reaper.join(timeout)

    # --- what the two protocols fill in
    def _handshake(self) -> None:
        raise NotImplementedError

    def _send_request(self) -> None:
        raise NotImplementedError

    def _on_line(self, text: str) -> Decision | None:
        raise NotImplementedError

    def _forget_answer(self) -> None:
        self.skip += 1
        self.expect = None

    def _farewell(self) -> None:
        """What to send at the end (the result, quit)."""

    # --- shared machinery
    def _spawn(self) -> None:
        try:
            argv = shlex.split(self.command)
        except ValueError as exc:
            raise _Fail(f"cannot read the command line {self.command!r}: {exc}") from None
        if not argv:
            raise _Fail("no command line given")
        self.name = _program_name(argv)
        try:
            self.proc = ProgramProcess(argv, self.now)
        except OSError as exc:
            raise _Fail(f"cannot start {self.command!r}: {exc.strerror or exc}") from None
        self._handshake()

    def _await(self, word: str, limit_ms: int) -> None:
        self.expect = word
        self.limit_ms = limit_ms
        self.deadline = self.now() + limit_ms / 1000.0
        self.lines_seen = 0

    def _await_answer(self, word: str) -> None:
        self.want = False
        self._await(word, self.time_ms + GRACE_MS)

    def _pump(self) -> Decision | None:
        proc = self.process
        if proc.flooded:
            raise _Fail(f"flooded its output: {proc.flooded}")
        if self.eof_at is not None:
            self._after_eof(proc, self.eof_at)
            return None
        while (item := proc.take()) is not None:
            kind, text, when = item
            if kind == "eof":
                self.eof_at = self.now()
                self._after_eof(proc, self.eof_at)
                return None
            self._check_clock(when)
            if kind == "bad":
                raise _Fail(text)
            self.lines_seen += 1
            if self.lines_seen > self.max_lines:
                raise _Fail(f"flooded its output ({self.lines_seen} lines for one answer)")
            decision = self._on_line(text)
            if decision is not None:
                self.expect = None
                return decision
        if proc.flooded:
            raise _Fail(f"flooded its output: {proc.flooded}")
        if proc.write_error:
            raise _Fail(proc.write_error)
        self._check_clock(self.now())
        return None

    def _after_eof(self, proc: ProgramProcess, eof_at: float) -> None:
        """The output has ended: the reason is how the program exited, once it has (a
        loaded machine may take a while between the two); if it has not within EXIT_WAIT_S,
        that it closed its output. Never blocks."""
        if proc.exited.is_set() or self.now() > eof_at + EXIT_WAIT_S:
            raise _Fail(proc.exit_text())

    def _check_clock(self, when: float) -> None:
        if self.expect is not None and when > self.deadline:
            raise _Fail(f"was too slow: no {self.expect!r} within {self.limit_ms} ms",
                        Termination.TIME)

    def _fail(self, reason: str, termination: Termination = Termination.FAILURE) -> None:
        if not self.failure:
            self.failure = f"program {self.name} {reason}"
            self.failure_kind = termination
        if self.proc is not None and not self.closed:
            self.closed = True
            self.reaper = self.proc.close(0.0)

    def _check_move(self, wire: Any) -> Decision:
        """The move if it is well formed and legal where the request was made."""
        rules = self.game.rules
        try:
            move = rules.move_to_wire(rules.move_from_wire(wire))
        except Exception as exc:  # any shape at all may arrive; RulesError is the usual one
            raise _Fail(f"sent a malformed move {_short(wire)}: {exc}") from None
        if _norm(move) not in self.legal:
            raise _Fail(f"played an illegal move {_short(wire)}", Termination.ILLEGAL_MOVE)
        return Decision(move)

    def _remember_legal(self) -> list:
        legal = self.game.legal_moves()
        self.legal = {_norm(m) for m in legal}
        return legal


def _program_name(argv: list[str]) -> str:
    """What to call the program: the script or module an interpreter runs, else the command."""
    name = os.path.basename(argv[0]) or argv[0]
    if name.startswith(("python", "pypy", "py.exe")) and len(argv) > 1:
        if argv[1] == "-m" and len(argv) > 2:
            name = argv[2]
        elif not argv[1].startswith("-"):
            name = os.path.basename(argv[1])
    return clean_text(name, NAME_MAX) or "program"


def _short(value: Any, size: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= size else text[:size] + "…"


class AgentController(_ProgramController):
    """A program speaking arcade-agent/1 (docs/protocol.md) in a seat.

    AgentController("uai:COMMAND") gives a UAIController for COMMAND instead."""

    answers = ("move", "setup")
    kinds = ("hello", "ready", "move", "setup", "error")

    def __new__(cls, command: str = "", *args: Any, **kwargs: Any):
        if cls is AgentController and command.strip().startswith(UAI_PREFIX):
            return UAIController(command.strip()[len(UAI_PREFIX):], *args, **kwargs)
        return super().__new__(cls)

    def _handshake(self) -> None:
        self._send({"type": "hello", "protocol": PROTOCOL})
        self._await("hello", self.startup_ms)

    def _send(self, msg: dict) -> None:
        self.process.send(json.dumps(msg, separators=(",", ":")))

    def _send_request(self) -> None:
        match, seat = self.game, self.asked_seat
        view = match.view(seat)
        if match.setup_pending():
            self._send({"type": "setup", "view": view, "time_ms": self.time_ms})
            self._await_answer("setup")
            return
        legal = self._remember_legal()
        msg: dict[str, Any] = {"type": "turn", "view": view, "time_ms": self.time_ms}
        if len(legal) <= LEGAL_CAP:
            msg["legal"] = legal
        self._send(msg)
        self._await_answer("move")

    def _on_line(self, text: str) -> Decision | None:
        try:
            msg = json.loads(text)
        except ValueError:
            raise _Fail(f"printed a line that is not JSON: {_short(text)}") from None
        except RecursionError:  # the parser recurses: a line of 30,000 "[" would escape poll
            raise _Fail(f"printed JSON nested more than {MAX_DEPTH} deep") from None
        if _deeper_than(msg, MAX_DEPTH):  # repr, json.dumps and the rules recurse too
            raise _Fail(f"printed JSON nested more than {MAX_DEPTH} deep")
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise _Fail(f"sent a message without a type: {_short(text)}")
        kind = msg["type"]
        if kind not in self.kinds:
            raise _Fail(f"sent a message of unknown type {_short(kind)}")
        if self.skip and kind in ("move", "setup", "error"):
            self.skip -= 1  # the answer to a request that was cancelled
            return None
        if kind == "error":
            if self.expect is None:
                return None  # about a message that needs no answer (a result)
            raise _Fail(f"reported an error: {_short(msg.get('message'), 160)}")
        if kind != self.expect:
            awaited = f"{self.expect!r} was awaited" if self.expect else "nothing was asked"
            raise _Fail(f"sent {kind!r} when {awaited}")
        return self._GOT[kind](self, msg)

    def _got_hello(self, msg: dict) -> None:
        games = msg.get("games")
        game = self.game.game_id
        if isinstance(games, list) and game not in games:
            plays = ", ".join(str(g) for g in games) or "nothing"
            raise _Fail(f"does not play {game} (it plays: {plays})")
        name = clean_text(msg.get("name"), NAME_MAX) if isinstance(msg.get("name"), str) else ""
        if name:
            self.name = name
        self._send({"type": "start", "game": game, "options": self.game.options,
                    "seat": self.asked_seat})
        self._await("ready", self.startup_ms)

    def _got_ready(self, msg: dict) -> None:
        self.ready = True
        self.expect = None
        if self.want:
            self._send_request()

    def _got_move(self, msg: dict) -> Decision:
        if "move" not in msg:
            raise _Fail("sent a move message without a move")
        return self._check_move(msg["move"])

    def _got_setup(self, msg: dict) -> Decision:
        rules = self.game.rules
        wire = msg.get("setup")
        try:
            setup = rules.move_from_wire(wire)
            rules.apply(self.game.state, setup)
        except Exception as exc:  # RulesError, or whatever a strange value provokes
            raise _Fail(f"sent an invalid setup {_short(wire)}: {exc}") from None
        return Decision(rules.move_to_wire(setup))

    # What each awaited message does (an error was answered above).
    _GOT: ClassVar[dict[str, Callable[[AgentController, dict], Decision | None]]] = {
        "hello": _got_hello, "ready": _got_ready, "move": _got_move, "setup": _got_setup}

    def _farewell(self) -> None:
        match, seat = self.match, self.seat
        out = match.outcome() if match is not None else None
        if match is not None and out is not None and seat is not None:
            self._send({"type": "result", "view": match.view(seat), "winner": out.winner,
                        "score": list(out.score)})
        self._send({"type": "quit"})


class UAIController(_ProgramController):
    """A UAI engine in an Ataxx seat: uai/uaiok, isready/readyok, then for each move
    `position fen F` and `go movetime T`, answered by `bestmove M`."""

    max_lines = UAI_MAX_LINES
    answers = ("bestmove",)

    def _handshake(self) -> None:
        self.process.send("uai")
        self._await("uaiok", self.startup_ms)

    def request(self, match: Match, seat: int) -> None:
        if not match.rules.UAI:
            self.failure = f"UAI engines play only {uai_games()}, not {match.info.title}"
            return
        super().request(match, seat)

    def _send_request(self) -> None:
        fen = self.game.view(self.asked_seat).get("fen")
        if not isinstance(fen, str):
            raise _Fail("cannot be asked: the Ataxx view has no FEN")
        self._remember_legal()
        self.process.send(f"position fen {fen}")
        self.process.send(f"go movetime {self.time_ms}")
        self._await_answer("bestmove")

    def _forget_answer(self) -> None:
        self.process.send("stop")
        super()._forget_answer()

    def _on_line(self, text: str) -> Decision | None:
        words = text.split()
        head = words[0] if words else ""
        if head == "bestmove":
            if self.skip:
                self.skip -= 1
                return None
            if self.expect != "bestmove":
                raise _Fail("sent a bestmove that was not asked for")
            if len(words) < 2:
                raise _Fail("sent a bestmove without a move")
            return self._check_move(words[1])
        if head == "uaiok" and self.expect == "uaiok":
            self.process.send("uainewgame")
            self.process.send("isready")
            self._await("readyok", self.startup_ms)
        elif head == "readyok" and self.expect == "readyok":
            self.ready = True
            self.expect = None
            if self.want:
                self._send_request()
        return None  # id, option, info and anything unknown are ignored, as UAI says

    def _farewell(self) -> None:
        self.process.send("quit")


def uai_games() -> str:
    """The titles of the games UAI engines can play (their rules declare UAI)."""
    return ", ".join(registry.get(g).title for g in registry.available() if registry.rules(g).UAI)


def program_controller(command: str, time_ms: int = 1000) -> _ProgramController:
    """The controller for a seat's command line: UAI when it starts with "uai:"."""
    return AgentController(command, time_ms)
