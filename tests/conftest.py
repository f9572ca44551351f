"""Every test runs headless, with its files in a fresh temporary home."""

import os
import shutil
import tempfile

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest  # noqa: E402

_SHARED_CACHE = tempfile.mkdtemp(prefix="paper-arcade-test-cache-")


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
    settings.reset_for_tests()
    stats.reset_for_tests()


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
    shutil.rmtree(_SHARED_CACHE, ignore_errors=True)
