"""Where the arcade's files live, and how they are written: atomically, with a format version."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Any

import msgpack
import platformdirs

APP_DIR_NAME = "PaperArcade"


class FileError(ValueError):
    """A file that cannot be used: damaged, truncated, of another kind or a newer version."""


def _base(kind: str) -> Path:
    home = os.environ.get("PAPER_ARCADE_HOME")
    if home:
        path = Path(home) / kind
    elif kind == "data":
        path = Path(platformdirs.user_data_dir(APP_DIR_NAME, appauthor=False))
    elif kind == "config":
        path = Path(platformdirs.user_config_dir(APP_DIR_NAME, appauthor=False))
    else:
        path = Path(platformdirs.user_cache_dir(APP_DIR_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def data_dir() -> Path:
    """Saves and replays (PAPER_ARCADE_HOME/data when that variable is set)."""
    return _base("data")


def config_dir() -> Path:
    """Settings."""
    return _base("config")


def cache_dir() -> Path:
    """Things that can be rebuilt (solved tables)."""
    return _base("cache")


def data_subdir(name: str) -> Path:
    """A folder under the data directory (saves, replays), created on demand."""
    path = data_dir() / name
    path.mkdir(parents=True, exist_ok=True)
    return path


def atomic_write(path: Path | str, data: bytes) -> None:
    """Write data to path so that a crash leaves either the old file or the new one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def pack_file(kind: str, version: int, body: dict) -> bytes:
    """A msgpack document: {"kind", "format", "app", "body"}."""
    from game import APP_VERSION
    return msgpack.packb({"kind": kind, "format": version, "app": APP_VERSION, "body": body},
                         use_bin_type=True)


def unpack_file(data: bytes, kind: str, version: int) -> dict:
    """The body of a document written by pack_file; FileError with a one-line reason if not."""
    try:
        doc = msgpack.unpackb(data, raw=False, strict_map_key=False, max_bin_len=1 << 24,
                              max_str_len=1 << 24, max_array_len=1 << 22, max_map_len=1 << 20)
    except Exception as exc:  # msgpack raises several unrelated types for bad data
        raise FileError(f"not a {kind} file (damaged or truncated: {type(exc).__name__})") from exc
    if not isinstance(doc, dict) or doc.get("kind") != kind:
        raise FileError(f"not a {kind} file")
    fmt = doc.get("format")
    if not isinstance(fmt, int):
        raise FileError(f"{kind} file has no format version")
    if fmt > version:
        raise FileError(f"{kind} file is format {fmt}, newer than this arcade reads ({version}); "
                        "update the arcade")
    body = doc.get("body")
    if not isinstance(body, dict):
        raise FileError(f"{kind} file has no body")
    return body


def read_file(path: Path | str, kind: str, version: int) -> dict:
    """Read and unpack a document; FileError on any problem (missing included)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise FileError(f"cannot read {path.name}: {exc.strerror or exc}") from exc
    return unpack_file(data, kind, version)


def set_aside(path: Path | str) -> Path | None:
    """Move a damaged file out of the way (name.damaged-TIME) so it is kept but not read again."""
    path = Path(path)
    target = path.with_name(f"{path.name}.damaged-{int(time.time())}")
    try:
        os.replace(path, target)
    except OSError:
        return None
    return target


def write_file(path: Path | str, kind: str, version: int, body: dict[str, Any]) -> None:
    atomic_write(path, pack_file(kind, version, body))
