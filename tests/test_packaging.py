"""Installable and double-clickable: pyproject, the PyInstaller data list, the desktop entry,
the icons. Nothing here builds anything (bench/build_app.py does)."""

from __future__ import annotations

import configparser
import fnmatch
import importlib.util
import os
import struct
import sys
from pathlib import Path

import pygame
import pytest

import main
from game import shortcut

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

ROOT = Path(__file__).resolve().parent.parent
PNG = b"\x89PNG\r\n\x1a\n"


def _app_files():
    spec = importlib.util.spec_from_file_location("app_files", ROOT / "packaging" / "app_files.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


app_files = _app_files()


@pytest.fixture(scope="module")
def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _name(requirement: str) -> str:
    for i, ch in enumerate(requirement):
        if ch in "<>=!~;[ ":
            return requirement[:i].lower()
    return requirement.lower()


def test_pyproject_builds_with_setuptools_and_names_both_launchers(pyproject):
    assert pyproject["build-system"]["build-backend"] == "setuptools.build_meta"
    assert pyproject["project"]["scripts"] == {"paper-arcade": "main:main"}
    assert pyproject["project"]["gui-scripts"] == {"paper-arcade-gui": "main:main"}
    assert "main" in pyproject["tool"]["setuptools"]["py-modules"]
    assert callable(main.main)


def test_every_requirement_is_a_dependency(pyproject):
    lines = [line.split("#")[0].strip()
             for line in (ROOT / "requirements.txt").read_text().splitlines()]
    required = {_name(line) for line in lines if line and not line.startswith("-")}
    declared = {_name(dep) for dep in pyproject["project"]["dependencies"]}
    assert required <= declared
    assert "numba" in declared


def test_every_python_package_is_installed(pyproject):
    find = pyproject["tool"]["setuptools"]["packages"]["find"]
    assert find["namespaces"] is True  # folders without __init__.py (ai/data, assets/...) too
    found = set()  # what setuptools' find_namespace_packages picks: included dotted names
    for folder in ROOT.rglob("*"):
        if folder.is_dir() and "__pycache__" not in folder.parts:
            name = ".".join(folder.relative_to(ROOT).parts)
            if any(fnmatch.fnmatchcase(name, pattern) for pattern in find["include"]):
                found.add(name)
    expected = set()
    for top in app_files.PACKAGES:
        for init in (ROOT / top).rglob("__init__.py"):
            expected.add(".".join(init.parent.relative_to(ROOT).parts))
    assert expected and expected <= found
    assert not any(name.split(".")[0] in ("tests", "bench", "packaging") for name in found)


def test_package_data_covers_every_data_file(pyproject):
    patterns = pyproject["tool"]["setuptools"]["package-data"]
    files = app_files.data_files()
    assert "ai/data/planes_book.json" in files
    assert "assets/icons/paper-arcade-256.png" in files
    for rel in files:
        parts = rel.split("/")
        owners = [(".".join(parts[:i]), "/".join(parts[i:])) for i in range(1, len(parts))]
        assert any(fnmatch.fnmatch(inner, pattern)
                   for package, inner in owners for pattern in patterns.get(package, ())), rel


def test_the_app_carries_everything_under_assets_at_the_same_place():
    on_disk = {p.relative_to(ROOT).as_posix() for p in (ROOT / "assets").rglob("*")
               if p.is_file() and p.suffix not in (".py", ".pyc")  # tools beside the data
               and not any(s.startswith(".") for s in p.relative_to(ROOT).parts)}
    datas = set(app_files.datas())
    for rel in on_disk:
        assert (str(ROOT / rel), str(Path(rel).parent)) in datas, rel
    spec = (ROOT / "packaging" / "paper-arcade.spec").read_text(encoding="utf-8")
    assert "datas=app_files.datas()" in spec
    assert "collect_submodules(package)" in spec and "hiddenimports=hidden" in spec
    assert app_files.icon("win32").endswith(".ico") and app_files.icon("darwin").endswith(".icns")
    assert Path(app_files.icon("win32")).is_file() and Path(app_files.icon("darwin")).is_file()


def test_main_has_a_shebang_and_the_run_bit():
    path = ROOT / "main.py"
    assert path.read_text(encoding="utf-8").startswith("#!/usr/bin/env python3\n")
    assert os.access(path, os.X_OK)


def test_icons_hold_pngs_of_their_sizes():
    for n in shortcut.ICON_SIZES:
        image = pygame.image.load(str(shortcut.ICONS / f"paper-arcade-{n}.png"))
        assert image.get_size() == (n, n)
    ico = (shortcut.ICONS / "paper-arcade.ico").read_bytes()
    reserved, kind, count = struct.unpack_from("<HHH", ico)
    assert (reserved, kind, count) == (0, 1, 2)
    for i in range(count):
        *_, size, offset = struct.unpack_from("<BBBBHHII", ico, 6 + 16 * i)
        assert ico[offset:offset + 8] == PNG and offset + size <= len(ico)
    icns = (shortcut.ICONS / "paper-arcade.icns").read_bytes()
    assert icns[:4] == b"icns" and struct.unpack_from(">I", icns, 4)[0] == len(icns)
    at, kinds = 8, []
    while at < len(icns):
        kinds.append(icns[at:at + 4])
        assert icns[at + 8:at + 16] == PNG
        at += struct.unpack_from(">I", icns, at + 4)[0]
    assert at == len(icns) and sorted(kinds) == [b"ic07", b"ic08", b"ic09"]


def _exec_args(value: str) -> list[str]:
    """Undo a desktop entry's Exec value as a launcher does: the key file's escapes, then
    the quoting rules, then %%."""
    text, i = "", 0
    while i < len(value):  # key file: \\ -> \ (the only escape our writer makes)
        if value[i] == "\\" and value[i + 1:i + 2] == "\\":
            text, i = text + "\\", i + 2
        else:
            text, i = text + value[i], i + 1
    args, arg, quoted, i, started = [], "", False, 0, False
    while i < len(text):
        ch = text[i]
        if quoted:
            if ch == "\\" and text[i + 1:i + 2] in ('"', "`", "$", "\\"):
                arg, i = arg + text[i + 1], i + 2
                continue
            if ch == '"':
                quoted = False
            else:
                arg += ch
        elif ch == '"':
            quoted = started = True
        elif ch == " ":
            if started:
                args.append(arg)
            arg, started = "", False
        else:
            assert ch not in shortcut._RESERVED, text
            arg, started = arg + ch, True
        i += 1
    assert not quoted
    if started:
        args.append(arg)
    return [a.replace("%%", "%") for a in args]


def _entry(path: Path) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str
    parser.read(path, encoding="utf-8")
    return parser["Desktop Entry"]


def test_install_shortcut_writes_the_entry_and_icons_under_xdg_data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    command = ["/opt/Paper Arcade/paper-arcade", "--seed", "50%", "it's \\ $HOME \"x\" `y`"]
    written = shortcut.install_shortcut(command=command)
    desktop = tmp_path / "applications" / "paper-arcade.desktop"
    assert written[0] == desktop and os.access(desktop, os.X_OK)
    entry = _entry(desktop)
    assert entry["Type"] == "Application" and entry["Terminal"] == "false"
    assert entry["Name"] == "Paper Arcade" and entry["Categories"].startswith("Game;")
    assert _exec_args(entry["Exec"]) == command
    for n in shortcut.ICON_SIZES:
        icon = tmp_path / "icons" / "hicolor" / f"{n}x{n}" / "apps" / f"{entry['Icon']}.png"
        assert icon in written and pygame.image.load(str(icon)).get_size() == (n, n)
    assert shortcut.remove_shortcut() == written
    assert not any(p.is_file() for p in tmp_path.rglob("*"))


def test_main_install_shortcut_runs_this_checkout(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(sys, "argv", [str(ROOT / "main.py")])
    monkeypatch.setattr(sys, "platform", "linux")
    assert main.main(["--install-shortcut"]) == 0
    entry = _entry(tmp_path / "applications" / "paper-arcade.desktop")
    assert _exec_args(entry["Exec"]) == [str(Path(sys.executable).absolute()),
                                         str(ROOT / "main.py")]
    assert "paper-arcade.desktop" in capsys.readouterr().out
    monkeypatch.setattr(sys, "platform", "win32")
    assert main.main(["--install-shortcut"]) == 2


def test_data_home_follows_the_spec(tmp_path):
    assert shortcut.data_home({"XDG_DATA_HOME": str(tmp_path), "HOME": "/h"}) == tmp_path
    assert shortcut.data_home({"XDG_DATA_HOME": "rel/dir", "HOME": "/h"}) == Path(
        "/h/.local/share")
    assert shortcut.data_home({"HOME": "/h"}) == Path("/h/.local/share")


def test_launcher_is_the_way_the_arcade_was_started(tmp_path, monkeypatch):
    assert shortcut.launcher(frozen=True) == [str(Path(sys.executable).resolve())]
    script = tmp_path / "bin" / "paper-arcade"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\n")
    assert shortcut.launcher(str(script), frozen=False) == [str(script)]
    gui = script.with_name("paper-arcade-gui")
    gui.write_text("#!/bin/sh\n")
    assert shortcut.launcher(str(script), frozen=False) == [str(gui)]
    assert shortcut.launcher("main.py", frozen=False)[1] == str(ROOT / "main.py")
    assert shortcut.supported("linux") and not shortcut.supported("darwin")


def test_the_frozen_app_runs_python_dash_m(tmp_path, monkeypatch):
    # the app's executable is not a Python: `APP -m ai.dots_solver ...` must still run it
    (tmp_path / "probe_module.py").write_text(
        "import sys, pathlib\n"
        "pathlib.Path(sys.argv[1]).write_text(' '.join(sys.argv[2:]))\n"
        "sys.exit(3)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "argv", ["PaperArcade"])
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    out = tmp_path / "out.txt"
    assert main.main(["-m", "probe_module", str(out), "--rows", "2"]) == 3
    assert out.read_text() == "--rows 2"


def test_the_window_gets_the_icon_and_a_missing_one_is_no_error(tmp_path, monkeypatch):
    shown = []
    monkeypatch.setattr(pygame.display, "set_icon", shown.append)
    from client.app import window_icon
    window_icon(shortcut.ICONS / f"{shortcut.NAME}-128.png")
    assert [s.get_size() for s in shown] == [(128, 128)]
    window_icon(tmp_path / "missing.png")
    assert len(shown) == 1
