"""A bench stopped with SIGTERM (kill, pkill) takes its worker processes with it."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

BENCH = textwrap.dedent("""
    import os, sys, time
    sys.path.insert(0, {root!r})
    from bench import workers

    def busy(_):
        while True:
            time.sleep(0.05)

    if __name__ == "__main__":
        with workers.pool(2, {context!r}) as pool:
            pids = [p.pid for p in pool._pool]
            print(" ".join(map(str, pids)), flush=True)
            if {busy!r}:
                pool.map(busy, range(2))
            else:  # between tasks: each worker waits on the task queue
                time.sleep(600)
""")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as f:  # a zombie waits only for its reaper
        return f.read().split(") ")[-1][0] != "Z"


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def running(script: Path) -> list[int]:
    """The live processes (a bench's forked workers too) running this script."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and str(script).encode() in (entry / "cmdline").read_bytes() \
                    and alive(int(entry.name)):
                found.append(int(entry.name))
        except OSError:  # gone meanwhile
            pass
    return found


def waiting(pid: int) -> bool:
    """The process sleeps in a call (a worker blocked reading its task queue)."""
    with open(f"/proc/{pid}/stat") as f:
        return f.read().split(") ")[-1][0] == "S"


@pytest.mark.parametrize("busy", [True, False], ids=["busy", "idle"])
@pytest.mark.parametrize("context", ["spawn", None])
def test_a_bench_stopped_with_sigterm_leaves_no_worker_running(tmp_path, context, busy):
    """Stopped at work or between tasks, in either start method, the bench exits with the
    signal's code and no worker is left."""
    script = tmp_path / "some_bench.py"  # not bench.py: it would shadow the bench folder
    script.write_text(BENCH.format(root=str(ROOT), context=context, busy=busy))
    bench = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    pids: list[int] = []
    try:
        pids = [int(p) for p in bench.stdout.readline().split()]
        assert len(pids) == 2 and all(alive(p) for p in pids)
        if not busy:
            for _ in range(100_000):  # until both block on the queue (a bounded look)
                if all(waiting(p) for p in pids):
                    break
        bench.send_signal(signal.SIGTERM)
        assert bench.wait(timeout=60) == 128 + signal.SIGTERM
        assert not any(alive(p) for p in pids)
        for _ in range(500):  # nor a worker the pool started in place of one (a bounded wait:
            if not running(script):  # a scan of /proc takes milliseconds, 100,000 took minutes)
                break
            time.sleep(0.02)
        assert not running(script)
    finally:
        for pid in [bench.pid] + [p for p in pids if alive(p)]:
            try:
                os.kill(pid, signal.SIGKILL)  # a failed run still leaves nothing behind
            except ProcessLookupError:
                pass
        bench.wait()


@pytest.mark.skipif(sys.platform != "linux", reason="the parent-death signal is Linux's")
def test_a_worker_started_after_its_bench_went_ends_at_once(tmp_path):
    """A replacement forked as the bench stopped may set its parent-death signal only after
    the bench is gone, and then no signal comes: it must see that itself and end, not wait on
    the task queue for ever (a CI run found one left over)."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    code = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); from bench import workers; "
            f"workers._start_worker({gone.pid}, print, ('started',))")
    worker = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60)
    assert worker.returncode == 128 + signal.SIGTERM
    assert "started" not in worker.stdout


def test_a_forkserver_pool_works(tmp_path):
    """Under the forkserver start method (Python 3.14's default on Linux) a worker's parent is
    the server, not the bench: the worker must not take that for its bench having gone."""
    script = tmp_path / "forkserver_bench.py"
    script.write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        from bench import workers

        if __name__ == "__main__":
            with workers.pool(1, "forkserver") as pool:
                print(pool.apply_async(abs, (-3,)).get(timeout=30), flush=True)
    """))
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=90)
    assert run.stdout.split() == ["3"], run.stderr[-500:]
