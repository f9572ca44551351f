"""Starts an outside program so that it ends when the arcade does, however the arcade ends:
`python -m players.launch PARENT_PID COMMAND [ARGS...]`.

On Linux the launcher asks the kernel for SIGKILL when its parent dies (PR_SET_PDEATHSIG, kept
across exec), checks that the parent it was started by is still there, then becomes the
program with exec. Setting that from the arcade itself would need preexec_fn, which is unsafe in
a program with threads; a launcher process of its own is not.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def main(argv: list[str]) -> int:
    if len(argv) < 2 or not argv[0].isdigit():
        print("usage: python -m players.launch PARENT_PID COMMAND [ARGS...]", file=sys.stderr)
        return 2
    parent, command = int(argv[0]), argv[1:]
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the arcade died before the request above was in place
        return 1
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        print(f"cannot start {command[0]!r}: {exc.strerror or exc}", file=sys.stderr)
        return 127


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
