"""Starts an outside program so that it ends when the arcade does, however the arcade ends:
`python -m players.launch PARENT_PID COMMAND [ARGS...]` or
`python -m players.launch --watch PARENT_PID COMMAND [ARGS...]`.

On Linux the launcher asks the kernel for SIGKILL when its parent dies (PR_SET_PDEATHSIG, kept
across exec), checks that the parent it was started by is still there, then becomes the
program with exec. Setting that from the arcade itself would need preexec_fn, which is unsafe in
a program with threads; a launcher process of its own is not.

Where that cannot be used (other systems; on Linux a program started from a thread other than
the main one, since the kernel sends the signal when the spawning thread ends), the launcher
watches instead (--watch): it runs the program as its child, with the same pipes, and waits for
either to end. When the arcade is gone, it kills the program and everything that carries the
program's token or shares its process group, then exits; when the program ends, it exits with
the program's code.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys

PR_SET_PDEATHSIG = 1
WATCH_S = 0.25  # how often the watching launcher looks for the arcade


def main(argv: list[str]) -> int:
    watch = bool(argv) and argv[0] == "--watch"
    if watch:
        argv = argv[1:]
    if len(argv) < 2 or not argv[0].isdigit():
        print("usage: python -m players.launch [--watch] PARENT_PID COMMAND [ARGS...]",
              file=sys.stderr)
        return 2
    parent, command = int(argv[0]), argv[1:]
    if watch or not sys.platform.startswith("linux"):
        return _watch(parent, command)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the arcade died before the request above was in place
        return 1
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        print(f"cannot start {command[0]!r}: {exc.strerror or exc}", file=sys.stderr)
        return 127


def _watch(parent: int, command: list[str]) -> int:
    """Run the program as a child and end it if the arcade goes first."""
    alive = _parent_watcher(parent)
    if not alive():
        return 1
    try:
        child = subprocess.Popen(command)  # the same stdin, stdout, stderr and group
    except OSError as exc:
        print(f"cannot start {command[0]!r}: {exc.strerror or exc}", file=sys.stderr)
        return 127
    while True:
        try:
            code = child.wait(timeout=WATCH_S)
            return code if code >= 0 else 128 - code  # killed by a signal: as a shell says
        except subprocess.TimeoutExpired:
            pass
        if not alive():
            _end_all(child)
            return 1


def _parent_watcher(parent: int):
    """A function telling whether the arcade still runs: on Windows through a handle on its
    process (a pid there is never re-parented), elsewhere through getppid (an orphan is
    adopted by another process)."""
    if os.name == "nt":
        kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
        handle = kernel32.OpenProcess(0x00100000, False, parent)  # SYNCHRONIZE
        if not handle:
            return lambda: False
        return lambda: kernel32.WaitForSingleObject(handle, 0) != 0  # 0: WAIT_OBJECT_0
    return lambda: os.getppid() == parent


def _end_all(child: subprocess.Popen) -> None:
    """The arcade is gone: kill the program, what it started, and this launcher."""
    if os.name == "nt":
        subprocess.run(["taskkill", "/T", "/F", "/PID", str(child.pid)], capture_output=True,
                       check=False)
        child.kill()
        return
    from players.program import TOKEN_VAR, kill_leftovers  # only now: a start-up kept light
    token = os.environ.get(TOKEN_VAR, "")
    if token:
        kill_leftovers(None, {}, token)  # what carries the program's token, anywhere
    try:
        os.killpg(os.getpgrp(), signal.SIGKILL)  # the group: the program, and this launcher
    except OSError:
        child.kill()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
