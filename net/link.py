"""The peer link: TCP carrying msgpack maps in length-prefixed frames.

A frame is a 4-byte big-endian length, then that many bytes of msgpack holding one map with a
string "type". Frames over MAX_FRAME bytes, bytes that are not msgpack, and values that are not
such a map close the link with a clear reason; nothing half-read is ever handed on.

A reader thread puts each received message on a queue; the loop takes them with `receive()`,
never waiting. Sending is a short locked socket write (with a timeout), so a stalled peer can't
freeze the sender for long. Heartbeats go out every HEARTBEAT seconds; a link that hears nothing
for TIMEOUT seconds closes itself.
"""

from __future__ import annotations

import queue
import socket
import struct
import threading
import time
from collections.abc import Callable
from typing import Any

import msgpack

from game.i18n import N_, Text

DEFAULT_PORT = 47475  # the TCP port a host listens on unless told otherwise
MAX_FRAME = 64 * 1024
HEARTBEAT = 2.0
TIMEOUT = 10.0
MAX_INBOX = 256  # unread messages a link holds; a peer that floods past it is cut off
RATE, BURST = 1000.0, 2000  # frames a second a peer may send on average, and in one burst
_LENGTH = struct.Struct(">I")


CLOSED = N_("the other side closed it")  # said after "Connection lost: "
LOST = N_("an error on the network")  # said after "Connection lost: "
NO_WHOLE_MESSAGE = N_("no whole message in time")


class LinkClosed(dict):
    """What receive() hands on once, last, when the link is gone: {"type": "_closed", "reason",
    "text"} (why, in English and as a Text to say). Its own class, so a peer that sends a map
    with that type is not taken for it."""


class LinkError(Exception):
    """A frame that breaks the protocol, or a link that is gone; `text` says which, for the
    player (its str() is the English, for logs)."""

    def __init__(self, key: str, params: dict[str, Any] | None = None):
        self.text = Text(key, dict(params or {}))
        super().__init__(self.text.english())


def encode(message: dict) -> bytes:
    """One frame holding message; LinkError if it is too big to send."""
    body = msgpack.packb(message, use_bin_type=True)
    if len(body) > MAX_FRAME:
        raise LinkError(N_("a {kind} message of {size} bytes is too big"),
                        {"kind": str(message.get("type"))[:40], "size": len(body)})
    return _LENGTH.pack(len(body)) + body


def decode(body: bytes) -> dict:
    """The message in one frame's body; LinkError if it is not a map with a string type."""
    try:
        message = msgpack.unpackb(body, raw=False, strict_map_key=False, max_bin_len=MAX_FRAME,
                                  max_str_len=MAX_FRAME, max_array_len=MAX_FRAME,
                                  max_map_len=4096)
    except Exception as exc:  # msgpack raises several kinds on junk
        raise LinkError(N_("a frame that is not msgpack ({error})"),
                        {"error": type(exc).__name__}) from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise LinkError(N_("a frame that is not a message (a map with a string 'type')"))
    return message


def _read_exactly(sock: socket.socket, n: int, deadline: float | None = None,
                  now: Callable[[], float] = time.monotonic) -> bytes:
    parts: list[bytes] = []
    left = n
    while left:
        if deadline is not None:  # one limit for the whole read, not one per recv
            remaining = deadline - now()
            if remaining <= 0:
                raise LinkError(NO_WHOLE_MESSAGE)
            sock.settimeout(remaining)
        chunk = sock.recv(min(left, 65536))
        if not chunk:
            raise LinkError(CLOSED if left == n and not parts
                            else N_("the connection was closed in the middle of a frame"))
        parts.append(chunk)
        left -= len(chunk)
    return b"".join(parts)


def read_frame(sock: socket.socket, deadline: float | None = None,
               now: Callable[[], float] = time.monotonic) -> dict:
    """Block until one whole message arrives (reader threads and handshakes only); with a
    deadline (on the clock `now`), LinkError if the whole frame is not in by then."""
    try:
        (length,) = _LENGTH.unpack(_read_exactly(sock, 4, deadline, now))
        if length > MAX_FRAME:
            raise LinkError(N_("a frame of {size} bytes (at most {most})"),
                            {"size": length, "most": MAX_FRAME})
        return decode(_read_exactly(sock, length, deadline, now))
    except TimeoutError:
        if deadline is None:
            raise
        raise LinkError(NO_WHOLE_MESSAGE) from None


class Link:
    """One open connection to a peer. Messages in come from receive(); send() sends one."""

    def __init__(self, sock: socket.socket, peer: str = "", heartbeat: float = HEARTBEAT,
                 timeout: float = TIMEOUT, now: Callable[[], float] = time.monotonic):
        self.sock = sock
        self.now = now  # the clock silence is measured on (tests move their own)
        self.peer = peer or _peer_name(sock)
        self.heartbeat, self.timeout = heartbeat, timeout
        self.inbox: queue.Queue[dict] = queue.Queue(MAX_INBOX)
        self.closed_reason: str | None = None  # why the link is gone, in English (logs)
        self.closed_text: Text | None = None  # the same, to say to the player
        self.last_heard = now()
        self._send_lock = threading.Lock()
        self._closed = threading.Event()
        self._told_closed = False
        self._allowance, self._counted = float(BURST), now()
        sock.settimeout(timeout)  # a recv or send that waits this long means the peer is gone
        self.sent: list[dict] = []  # tests may set record_sent to look at every frame sent
        self.record_sent = False
        self._reader = threading.Thread(target=self._read_loop, daemon=True, name="link-read")
        self._beater = threading.Thread(target=self._beat_loop, daemon=True, name="link-beat")

    def start(self) -> Link:
        self._reader.start()
        self._beater.start()
        return self

    @property
    def open(self) -> bool:
        return not self._closed.is_set()

    def send(self, message: dict) -> bool:
        """Send one message; False (and the link closed) if it could not go."""
        if not self.open:
            return False
        try:
            frame = encode(message)
        except (LinkError, TypeError, ValueError) as exc:
            self.close(Text(N_("this side could not send a message ({error})"),
                            {"error": type(exc).__name__}))
            return False
        try:
            with self._send_lock:
                self.sock.sendall(frame)
        except OSError as exc:
            self.close(Text(LOST, {"error": exc.strerror or str(exc)}))
            return False
        if self.record_sent:
            self.sent.append(message)
        return True

    def receive(self) -> dict | None:
        """The next message, or None if none is waiting. Never blocks. Once the link is gone
        and everything before is read, a LinkClosed comes once."""
        try:
            return self.inbox.get_nowait()
        except queue.Empty:
            return self._closed_note()

    def wait(self, timeout: float) -> dict | None:
        """Block up to timeout for a message (scripts and tests, never the loop)."""
        try:
            return self.inbox.get(timeout=timeout)
        except queue.Empty:
            return self._closed_note()

    def _closed_note(self) -> LinkClosed | None:
        if not self._closed.is_set() or self._told_closed or not self.inbox.empty():
            return None
        self._told_closed = True
        return LinkClosed(type="_closed", reason=self.closed_reason or "closed",
                          text=self.closed_text or Text(CLOSED))

    def close(self, reason: Text | str = "closed") -> None:
        """End the link; `reason` is said to this side's player (a str: this side's own
        English, for logs and tests)."""
        if self._closed.is_set():
            return
        self.closed_text = reason if isinstance(reason, Text) else Text(reason)
        self.closed_reason = self.closed_text.english()
        self._closed.set()
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()

    def _read_loop(self) -> None:
        while self.open:
            try:
                message = read_frame(self.sock)
            except LinkError as exc:
                self.close(exc.text)
                return
            except TimeoutError:
                self.close(self._silent())
                return
            except OSError as exc:
                self.close(Text(LOST, {"error": exc.strerror or str(exc)}))
                return
            now = self.last_heard = self.now()
            self._allowance = min(BURST, self._allowance + (now - self._counted) * RATE) - 1
            self._counted = now
            if self._allowance < 0:
                self.close(Text(N_("the other side sent more than {n} messages a second"),
                                {"n": f"{RATE:g}"}))
                return
            if message["type"] == "ping":
                continue
            try:
                self.inbox.put_nowait(message)
            except queue.Full:
                self.close(Text(N_("the other side sent more than {n} messages unread"),
                                {"n": MAX_INBOX}))
                return

    def _beat_loop(self) -> None:
        while not self._closed.wait(self.heartbeat):
            if self.now() - self.last_heard > self.timeout:
                self.close(self._silent())
                return
            self.send({"type": "ping"})

    def _silent(self) -> Text:
        return Text(N_("the other side has been silent for {seconds} s"),
                    {"seconds": f"{self.timeout:g}"})


def _peer_name(sock: socket.socket) -> str:
    try:
        host, port = sock.getpeername()[:2]
        return f"{host}:{port}"
    except OSError:
        return "?"


def connect(host: str, port: int, timeout: float = 5.0) -> socket.socket:
    """A connected TCP socket; OSError with the reason if it can't be had."""
    sock = socket.create_connection((host, port), timeout=timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def address_text(where: tuple[str, int]) -> str:
    """An address as a player types it back: host:port, [v6]:port (parse_address's inverse)."""
    host, port = where
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def parse_address(text: str, default_port: int) -> tuple[str, int]:
    """'host', 'host:port' or '[v6]:port' -> (host, port); ValueError if it isn't one."""
    text = text.strip()
    if not text:
        raise ValueError("no address given")
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest.lstrip(":") or str(default_port)
    elif text.count(":") == 1:
        host, port = text.split(":")
    else:
        host, port = text, str(default_port)
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"not an address: {text!r} (use host or host:port)")
    return host, int(port)
