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


AIMED = textwrap.dedent("""
    import signal, sys, threading, time
    sys.path.insert(0, {root!r})
    from bench import workers

    def busy(_):
        while True:
            time.sleep(0.05)

    def aim(pool):
        time.sleep(0.5)  # the main thread is in its wait by then
        signal.pthread_kill(pool._result_handler.ident, signal.SIGTERM)

    if __name__ == "__main__":
        with workers.pool(1) as pool:
            print(pool._pool[0].pid, flush=True)
            threading.Thread(target=aim, args=(pool,), daemon=True).start()
            for _ in pool.imap_unordered(busy, range(2)):
                pass
""")


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_a_sigterm_taken_by_another_thread_still_stops_the_bench(tmp_path):
    """The kernel may hand a process's SIGTERM to any of its threads that does not block it (a
    bench paused with SIGSTOP and let go with SIGCONT took it on a pool thread): Python runs
    the handler only on the main thread, which slept on in its wait for a result, so the bench
    and its worker ran on for the rest of the game."""
    script = tmp_path / "aimed_bench.py"
    script.write_text(AIMED.format(root=str(ROOT)))
    bench = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    worker = 0
    try:
        worker = int(bench.stdout.readline())
        assert bench.wait(timeout=30) == 128 + signal.SIGTERM
        for _ in range(500):  # its worker goes with it (a bounded wait, as above)
            if not alive(worker):
                break
            time.sleep(0.02)
        assert not alive(worker)
    finally:
        for pid in (bench.pid, worker):
            try:
                if pid:
                    os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        bench.wait()


OWN_WORKER = textwrap.dedent("""
    import os, signal, sys, time
    sys.path.insert(0, {root!r})
    from bench import workers

    if __name__ == "__main__":
        with workers.pool(1, None) as pool:  # forked: the worker inherits the bench's state
            first = pool._pool[0].pid
            os.kill(first, signal.SIGTERM)  # the pool starts another in its place
            for _ in range(500):
                if pool._pool and pool._pool[0].pid != first:
                    break
                time.sleep(0.02)
            time.sleep(0.5)  # time enough for a stray wakeup to be read
            print(pool.apply_async(abs, (-3,)).get(timeout=30), flush=True)
""")


@pytest.mark.skipif(sys.platform != "linux", reason="forks")
def test_a_worker_ended_on_its_own_does_not_stop_its_bench():
    """A forked worker shares its bench's signal wakeup socket unless it lets it go: its own
    SIGTERM then read as the bench's, and the bench stopped itself."""
    run = subprocess.run([sys.executable, "-c", OWN_WORKER.format(root=str(ROOT))],
                         capture_output=True, text=True, timeout=90)
    assert (run.returncode, run.stdout.split()) == (0, ["3"]), run.stderr[-500:]
