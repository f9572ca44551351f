"""Where the arcade's files live, and how they are written: atomically, with a format version."""

from __future__ import annotations

import os
import stat
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import platformdirs

from game.i18n import N_, Text

APP_DIR_NAME = "PaperArcade"


class FileError(ValueError):
    """A file that cannot be used: damaged, truncated, of another kind or a newer version.
    Its words are for logs; a player is told `unreadable(...)`. `kept` is where the file was
    put aside, if it was."""

    def __init__(self, message: str, kept: Path | None = None):
        super().__init__(message)
        self.kept = kept


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


def _written_beside(path: Path, data: bytes) -> str:
    """A finished, synced temporary file beside path holding data; its name."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        _unlink(tmp)
        raise
    return tmp


def _unlink(name: str) -> None:
    try:
        os.unlink(name)
    except OSError:
        pass


def atomic_write(path: Path | str, data: bytes) -> None:
    """Write data to path so that a crash leaves either the old file or the new one."""
    path = Path(path)
    tmp = _written_beside(path, data)
    try:
        os.replace(tmp, path)
    except BaseException:
        _unlink(tmp)
        raise


MAX_CLAIMS = 10_000  # names tried for one new file (NAME, NAME-1, NAME-2 ...)


def _numbered(path: Path, n: int) -> Path:
    return path if n == 0 else path.with_name(f"{path.stem}-{n}{path.suffix}")


def write_new(path: Path | str, data: bytes) -> Path:
    """Write data to a file of its own: path, else path's stem with -1, -2 ... added; returns
    the path written. The name is claimed atomically (a hard link of the finished temporary
    file, which fails if the name exists; O_CREAT|O_EXCL where links are not supported), so
    writers at the same moment, in threads or processes, never overwrite each other, and no
    reader ever sees a half-written file under the final name."""
    path = Path(path)
    tmp = _written_beside(path, data)
    try:
        for n in range(MAX_CLAIMS):
            target = _numbered(path, n)
            try:
                os.link(tmp, target)
                return target
            except FileExistsError:
                continue
            except (OSError, NotImplementedError, AttributeError):
                return _claim_and_replace(path, n, tmp)
        raise FileExistsError(f"no free name for {path.name} after {MAX_CLAIMS} tries")
    finally:
        _unlink(tmp)


def _claim_and_replace(path: Path, first: int, tmp: str) -> Path:
    """Where hard links are refused (FAT, some network shares): claim an empty file with
    O_CREAT|O_EXCL, then put the finished file in its place."""
    for n in range(first, MAX_CLAIMS):
        target = _numbered(path, n)
        try:
            os.close(os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
        except FileExistsError:
            continue
        os.replace(tmp, target)
        return target
    raise FileExistsError(f"no free name for {path.name} after {MAX_CLAIMS} tries")


def pack_file(kind: str, version: int, body: dict) -> bytes:
    """A msgpack document: {"kind", "format", "app", "body"}."""
    from game import APP_VERSION
    return msgpack.packb({"kind": kind, "format": version, "app": APP_VERSION, "body": body},
                         use_bin_type=True)


def unpack_file(data: bytes, kind: str, version: int) -> dict:
    """The body of a document written by pack_file; FileError with a one-line reason if not."""
    try:
        doc = msgpack.unpackb(data, raw=False, strict_map_key=False, max_bin_len=len(data),
                              max_str_len=len(data), max_array_len=len(data),
                              max_map_len=len(data), max_ext_len=0)
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


# The largest file of each kind the arcade reads: far above any real one (a 2048 game of
# 10,000 moves is about 60 KB), small enough that no crafted file costs more than a few
# hundred MB once unpacked.
MAX_BYTES = {"save": 1 << 20, "replay": 1 << 20, "settings": 256 << 10}
DEFAULT_MAX_BYTES = 1 << 20


def read_bytes(path: Path | str, limit: int) -> bytes:
    """The bytes of a regular file of at most limit bytes; FileError for anything else (a
    folder, a FIFO, a device such as /dev/zero behind a link, a file too large). Never blocks."""
    path = Path(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise FileError(f"cannot read {path.name}: {exc.strerror or exc}") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileError(f"{path.name} is not a regular file")
        if info.st_size > limit:
            raise FileError(f"{path.name} is too large ({info.st_size:,} bytes; "
                            f"at most {limit:,})")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise FileError(f"{path.name} is too large (more than {limit:,} bytes)")
        return b"".join(chunks)
    except OSError as exc:
        raise FileError(f"cannot read {path.name}: {exc.strerror or exc}") from exc
    finally:
        os.close(fd)


def read_file(path: Path | str, kind: str, version: int) -> dict:
    """Read and unpack a document; FileError on any problem (missing included)."""
    return unpack_file(read_bytes(path, MAX_BYTES.get(kind, DEFAULT_MAX_BYTES)), kind, version)


STALE_TEMP_SECONDS = 3600.0  # a temporary file this old belongs to a save that was cut off


def remove_stale_temporaries(folders: list[Path] | None = None,
                             older_than: float = STALE_TEMP_SECONDS,
                             now: Callable[[], float] = time.time) -> int:
    """Delete what interrupted atomic writes left behind (NAME.*.tmp beside a file); returns how
    many. Called once at start-up, off the loop thread. `now` is the clock file times are
    compared with (tests give their own)."""
    if folders is None:
        folders = [config_dir(), data_subdir("saves"), data_subdir("replays")]
    now_s, removed = now(), 0
    for folder in folders:
        try:
            candidates = list(Path(folder).glob("*.tmp"))
        except OSError:
            continue
        for tmp in candidates:
            try:
                info = tmp.lstat()
                if stat.S_ISREG(info.st_mode) and now_s - info.st_mtime > older_than:
                    tmp.unlink()
                    removed += 1
            except OSError:
                continue
    return removed


def set_aside(path: Path | str) -> Path | None:
    """Move a damaged file out of the way (name.damaged-TIME) so it is kept but not read again."""
    path = Path(path)
    target = path.with_name(f"{path.name}.damaged-{int(time.time())}")
    try:
        os.replace(path, target)
    except OSError:
        return None
    return target


def unreadable(name: str, kept: Path | None) -> Text:
    """What a player is told of a file that cannot be read, in the player's language (the
    technical reason is English and of no use to them)."""
    if kept is None:
        # TRANSLATORS: a file that is damaged or not of the arcade, left where it is
        return Text(N_("“{name}” cannot be read"), {"name": name})
    # TRANSLATORS: a file that is damaged or not of the arcade, moved out of the list
    return Text(N_("“{name}” cannot be read: it is put aside"), {"name": name})


def write_file(path: Path | str, kind: str, version: int, body: dict[str, Any]) -> None:
    atomic_write(path, pack_file(kind, version, body))


def write_new_file(path: Path | str, kind: str, version: int, body: dict[str, Any]) -> Path:
    """Write a document under a name no other writer has (see write_new); returns it."""
    return write_new(path, pack_file(kind, version, body))
