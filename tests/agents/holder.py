"""Shakes hands, then at its first turn starts a child that keeps the output pipe open and
exits. The mode says how the child hides: 'group' stays in the agent's process group,
'setsid' starts a session of its own, 'daemon' also closes the pipes (it holds nothing, but it
carries the agent's environment). Each child writes its pid to PIDFILE (the second argument)
and sleeps for ten minutes, past any test's timeout."""

import os
import sys
import time

from _common import run

MODE, PIDFILE = sys.argv[1], sys.argv[2]


def turn(msg, rng):
    pid = os.fork()
    if pid == 0:
        if MODE in ("setsid", "daemon"):
            os.setsid()
        if MODE == "daemon":
            if os.fork():  # the classic double fork: the grandchild is nobody's child
                os._exit(0)
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(devnull, fd)
        with open(PIDFILE + ".tmp", "w") as f:
            f.write(str(os.getpid()))
        os.replace(PIDFILE + ".tmp", PIDFILE)
        time.sleep(600)
        os._exit(0)
    while not os.path.exists(PIDFILE):
        time.sleep(0.01)
    sys.exit(5)


run(turn, "holder")
