"""Every test runs headless, with its files in a fresh temporary home."""

import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import hypothesis  # noqa: E402
import pytest  # noqa: E402

# No per-example deadline anywhere: on a loaded 2-core machine one stalled example would fail
# a property that holds (a test that times something says so itself, with an injected clock).
hypothesis.settings.register_profile("arcade", deadline=None)
hypothesis.settings.load_profile("arcade")

# One cache folder for the whole run: made by the first process (pytest, or xdist's controller)
# and inherited by the workers and the programs tests start, so a compiled kernel or a solved
# table is made once per run, not once per process.
_CACHE_VAR = "PAPER_ARCADE_TEST_CACHE"
_OWNS_CACHE = _CACHE_VAR not in os.environ
if _OWNS_CACHE:
    os.environ[_CACHE_VAR] = tempfile.mkdtemp(prefix="paper-arcade-test-cache-")
_SHARED_CACHE = os.environ[_CACHE_VAR]
# before numba is imported: kernels a test imports directly compile into it too
os.environ.setdefault("NUMBA_CACHE_DIR", str(Path(_SHARED_CACHE) / "numba"))
# the kernels in two groups of about equal compile time, measured one at a time from an empty
# cache: Ataxx 22 s, Dots' chain search 9, 2048 9, Banqi 8, Dots 1.5 (each with 1 s of imports)
_KERNELS = (("ai.ataxx_kernel", "ai.dots_kernel"),
            ("ai.dots_chains_kernel", "ai.g2048_kernel", "ai.banqi_kernel"))
_WARM = "import importlib, sys\nfor m in sys.argv[1:]: importlib.import_module(m).warm()"


def pytest_configure(config):
    """Before xdist's workers start, the owner compiles the kernels into the shared cache, two
    at a time: each worker would otherwise compile all of them itself (about 40 s each)."""
    if not _OWNS_CACHE or config.getoption("numprocesses", None) in (None, 0):
        return
    root = Path(__file__).resolve().parent.parent
    runs = [subprocess.Popen([sys.executable, "-c", _WARM, *half], cwd=root,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for half in _KERNELS]
    for run in runs:  # a failure here shows again, with its message, in the kernels' own tests
        try:
            run.wait(600)
        except subprocess.TimeoutExpired:
            run.kill()
            run.wait()


def pytest_collection_modifyitems(config, items):
    """The long tests first: two workers then end the run on short ones, at about the same time,
    where one of them used to finish a long test alone."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)  # stable: else in order


@pytest.fixture(autouse=True)
def arcade_home(tmp_path, monkeypatch):
    """Files (settings, saves, replays, caches) go to a temporary folder, never the user's.

    The cache folder is shared across tests so a solved table is built once per run."""
    home = tmp_path / "home"
    monkeypatch.setenv("PAPER_ARCADE_HOME", str(home))
    home.mkdir(parents=True, exist_ok=True)
    os.symlink(_SHARED_CACHE, home / "cache", target_is_directory=True)
    from game import settings, stats
    settings.reset_for_tests()
    stats.reset_for_tests()
    yield home
    _join_disk_writes()
    settings.reset_for_tests()
    stats.reset_for_tests()


def _join_disk_writes() -> None:
    """A save, a statistics count or a replay still being written lands in this test's home,
    not the next one's (their threads read PAPER_ARCADE_HOME as they write)."""
    for thread in threading.enumerate():
        if thread.name in ("save", "stats-save", "table-io"):
            thread.join(60)


@pytest.fixture
def lobby():
    """The LAN lobby in a 1000x700 window, listening on a port of its own; English after."""
    from client.scenes.lobby import LobbyScene
    from game import i18n
    from tests.fakes.ports import spare_port
    from tests.harness import Harness
    h = Harness((1000, 700))
    scene = LobbyScene(h.app, listen_port=spare_port())
    h.app.push(scene)
    h.frame()
    yield h, scene
    scene.close()
    i18n.set_language("en")
    h.close()


@pytest.fixture
def race():
    """The tiny test game, registered as 'race' for the test."""
    from game import registry
    registry.register("race", "tests.fakes.race", "tests.fakes.race", "tests.fakes.race")
    yield "race"
    registry.unregister("race")


@pytest.fixture
def h():
    """A 1000x700 window on the title screen (a test file may define its own)."""
    from client.scenes.title import TitleScene
    from tests.harness import Harness
    harness = Harness((1000, 700))
    harness.app.push(TitleScene(harness.app))
    harness.frame()
    yield harness
    harness.close()


def pytest_sessionfinish(session, exitstatus):
    """No bot process outlives the run (an orphan would hold the run's output open), and the
    run's shared cache folder goes with it."""
    from ai.worker import shutdown_bot_process
    shutdown_bot_process()
    if _OWNS_CACHE:
        shutil.rmtree(_SHARED_CACHE, ignore_errors=True)
