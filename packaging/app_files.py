"""What the PyInstaller app carries besides code: read by paper-arcade.spec and by the tests.

Every data file under the arcade's packages and assets/ goes in, at the same path relative to
the app's root as in the checkout, so `Path(__file__).parent...` finds it in both places.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("game", "ai", "net", "players")  # the code, found by collect_submodules
DATA_ROOTS = PACKAGES + ("assets",)
APP_NAME = "PaperArcade"
COMMAND_NAME = "paper-arcade"
ICONS = {"win32": "assets/icons/paper-arcade.ico", "darwin": "assets/icons/paper-arcade.icns"}


def _is_data(path: Path) -> bool:
    return (path.is_file() and path.suffix not in (".py", ".pyc", ".pyo")
            and "__pycache__" not in path.parts
            and not any(part.startswith(".") for part in path.parts))


def data_files(root: Path = ROOT) -> list[str]:
    """Every data file the app needs, as paths relative to root (posix)."""
    found = []
    for top in DATA_ROOTS:
        base = root / top
        if base.is_dir():
            found += [p.relative_to(root).as_posix() for p in base.rglob("*")
                      if _is_data(p.relative_to(root))]
    return sorted(found)


def datas(root: Path = ROOT) -> list[tuple[str, str]]:
    """PyInstaller's datas: (source file, destination folder in the app) for each data file."""
    return [(str(root / rel), str(Path(rel).parent)) for rel in data_files(root)]


def icon(platform: str, root: Path = ROOT) -> str | None:
    """The icon file for an executable built on this platform (Linux executables have none)."""
    return str(root / ICONS[platform]) if platform in ICONS else None
