"""Finding hosts: a UDP beacon every second, and a listener that keeps the list of hosts.

The beacon is a msgpack map (app, protocol, host and player name, game, options, TCP port, the
announcing lobby's id) sent as a subnet-directed broadcast on every IPv4 interface and to
255.255.255.255. A host silent for FORGET seconds drops off the list; one that stops says so
once ("gone"), and drops off at once.

The interfaces' broadcast addresses are asked of the kernel with ioctl where there is one
(fcntl: Linux, the BSDs, macOS); elsewhere (Windows) each local IPv4 address's /24 broadcast is
guessed, and 255.255.255.255 is always tried. `limits()` says what this system cannot do.
"""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import msgpack

from game import APP_NAME
from game.i18n import N_, Text
from game.text import clean_text
from net.link import decode

try:
    import fcntl
except ImportError:  # Windows: no ioctl; the broadcast addresses are guessed instead
    fcntl = None  # type: ignore[assignment]  # the module or None, as the checks below ask

PORT = 47474
INTERVAL = 1.0
FORGET = 5.0
PROTOCOL = "paper-arcade-lan/1"
MAX_HOSTS = 32  # hosts the list keeps; beacons from more are ignored until some are forgotten
MAX_PER_SENDER = 4  # hosts one address may announce (one per port)
RECEIVE_TIMEOUT = 0.5  # the listener looks at its stop flag at least this often
MAX_DATAGRAM = 2048  # a beacon is a few hundred bytes
NAME_MAX, FIELD_MAX, OPTIONS_MAX = 40, 32, 16
_SIOCGIFADDR, _SIOCGIFNETMASK = 0x8915, 0x891B


def _ioctl_ipv4(sock: socket.socket, name: str, request: int) -> str | None:
    if fcntl is None:
        return None
    try:
        packed = fcntl.ioctl(sock.fileno(), request, struct.pack("256s", name.encode()[:15]))
    except OSError:
        return None
    return socket.inet_ntoa(packed[20:24])


def _broadcast(addr: str, mask: str) -> str:
    a = struct.unpack(">I", socket.inet_aton(addr))[0]
    m = struct.unpack(">I", socket.inet_aton(mask))[0]
    return socket.inet_ntoa(struct.pack(">I", (a & m) | (~m & 0xFFFFFFFF)))


def _interface_broadcasts() -> list[str]:
    """Each interface's own broadcast address, asked of the kernel (needs fcntl)."""
    found: list[str] = []
    if fcntl is None or not hasattr(socket, "if_nameindex"):
        return found
    try:
        names = [name for _, name in socket.if_nameindex()]
    except OSError:
        return found
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for name in names:
            addr = _ioctl_ipv4(s, name, _SIOCGIFADDR)
            mask = _ioctl_ipv4(s, name, _SIOCGIFNETMASK)
            if addr and mask and not addr.startswith("127."):
                found.append(_broadcast(addr, mask))
    return found


def _local_ipv4() -> list[str]:
    """This computer's IPv4 addresses as the resolver and the routing table know them."""
    found: list[str] = []
    try:
        found += socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        pass
    try:  # the address of the default route: connect() on UDP sends nothing
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: never answered, only routed
            found.append(s.getsockname()[0])
    except OSError:
        pass
    return found


def _guessed_broadcasts() -> list[str]:
    """Without ioctl: the /24 broadcast of each local address (a home network's usual mask);
    a wrong guess costs one unrouted datagram."""
    return [_broadcast(a, "255.255.255.0") for a in _local_ipv4()
            if not a.startswith(("127.", "0."))]


def broadcast_addresses() -> list[str]:
    """The broadcast address of every IPv4 interface that has one (guessed without fcntl),
    then 255.255.255.255."""
    found: list[str] = []
    for bcast in _interface_broadcasts() or _guessed_broadcasts():
        if bcast not in found:
            found.append(bcast)
    return found + ["255.255.255.255"]


def limits() -> Text | None:
    """What finding hosts cannot do on this system, for the lobby (None if nothing): the
    player then knows why a host may not show up, and what to do."""
    if fcntl is None:
        return Text(N_("This system does not list its network interfaces to the arcade: games "
                       "are announced to 255.255.255.255 and a guessed local broadcast only. If "
                       "a host does not appear, type its address."))
    return None


class Beacon:
    """Says 'a game is hosted here' every second until stopped."""

    def __init__(self, info: dict, port: int = PORT, targets: list[str] | None = None):
        self.message = {"type": "beacon", "app": APP_NAME, "protocol": PROTOCOL, **info}
        self.port = port
        self.targets = targets  # None: every broadcast address (tests give 127.0.0.1)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="beacon")

    def start(self) -> Beacon:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop announcing; the listeners are told once that the game is gone."""
        self._stop.set()

    def _run(self) -> None:
        data = msgpack.packb(self.message, use_bin_type=True)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
            while not self._stop.is_set():
                self._send(s, data)
                self._stop.wait(INTERVAL)
            self._send(s, msgpack.packb({**self.message, "gone": True}, use_bin_type=True))

    def _send(self, s: socket.socket, data: bytes) -> None:
        for target in self.targets or broadcast_addresses():
            try:
                s.sendto(data, (target, self.port))
            except OSError:
                pass  # an interface without a route: the others still get it


def _small(value: object) -> bool:
    """An option value a beacon may carry: a number, a flag, or a short string."""
    return isinstance(value, (bool, int, float)) or (isinstance(value, str)
                                                      and clean_text(value, FIELD_MAX) == value)


@dataclass
class HostInfo:
    address: str  # "ip:port" to connect to
    name: str
    game: str
    options: dict
    app_version: str
    seen: float
    lobby: str = ""  # the announcing lobby's id: a lobby hides its own games by it


class HostList:
    """Listens for beacons and keeps the hosts heard within FORGET seconds."""

    def __init__(self, port: int = PORT, now: Callable[[], float] = time.monotonic):
        self.port = port
        self.now = now  # the clock hosts are heard and forgotten on (tests move their own)
        self.error: Text | None = None  # why it cannot listen ("why": the system's words)
        self._hosts: dict[str, HostInfo] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._sock: socket.socket | None = None  # the listening socket, while it listens
        self.settled = threading.Event()  # set once it listens, or has given up (see error)
        self._thread = threading.Thread(target=self._run, daemon=True, name="host-list")

    def start(self) -> HostList:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop listening, at once: the port is free as this returns."""
        with self._lock:
            self._stop.set()
            sock, self._sock = self._sock, None
        if sock is None:
            return
        try:  # wakes the thread blocked in recvfrom (ENOTCONN is said, and it still wakes)
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        # A thread inside recvfrom holds the port bound until it returns, closed or not (the
        # lobby test found it bound after stop, on a loaded machine): wait for it, a moment at
        # most, since it is awake (the bound is for a machine stalled for seconds).
        self._thread.join(10 * RECEIVE_TIMEOUT)
        sock.close()

    def hosts(self) -> list[HostInfo]:
        """The hosts heard lately, newest game first."""
        now = self.now()
        with self._lock:
            for key in [k for k, h in self._hosts.items() if now - h.seen > FORGET]:
                del self._hosts[key]
            return sorted(self._hosts.values(), key=lambda h: (h.name, h.address))

    def heard(self, data: bytes, sender: str) -> HostInfo | None:
        """Take one datagram; junk, other programs' beacons and beacons past the list's bounds
        (MAX_HOSTS, MAX_PER_SENDER, the field sizes) are ignored."""
        if len(data) > MAX_DATAGRAM:
            return None
        try:
            m = decode(data)
            if m["type"] != "beacon" or m.get("protocol") != PROTOCOL:
                return None
            port = m["port"]
            if type(port) is not int or not 0 < port < 65536:
                return None
            options = m.get("options") or {}
            if not isinstance(options, dict) or len(options) > OPTIONS_MAX or not all(
                    isinstance(k, str) and clean_text(k, FIELD_MAX) == k and _small(v)
                    for k, v in options.items()):
                return None
            if m.get("gone") is True:  # the host stopped: off the list at once
                with self._lock:
                    self._hosts.pop(f"{sender}:{port}", None)
                return None
            game, version = m.get("game", "?"), m.get("version", "")
            if not isinstance(game, str) or not isinstance(version, str) \
                    or len(game) > FIELD_MAX or len(version) > FIELD_MAX:
                return None
            if clean_text(game, FIELD_MAX) != game or clean_text(version, FIELD_MAX) != version:
                return None
            lobby = m.get("id", "")
            if not isinstance(lobby, str) or clean_text(lobby, FIELD_MAX) != lobby:
                return None
            name = clean_text(m.get("name"), NAME_MAX) or "?"
            info = HostInfo(f"{sender}:{port}", name, game, dict(options), version,
                            self.now(), lobby)
        except Exception:  # a beacon is a hint, never worth a crash
            return None
        with self._lock:
            if info.address not in self._hosts:
                now = self.now()
                for key in [k for k, h in self._hosts.items() if now - h.seen > FORGET]:
                    del self._hosts[key]
                same = sum(h.address.rpartition(":")[0] == sender for h in self._hosts.values())
                if len(self._hosts) >= MAX_HOSTS or same >= MAX_PER_SENDER:
                    return None
            self._hosts[info.address] = info
        return info

    def _run(self) -> None:
        try:
            self._listen()
        finally:
            self.settled.set()

    def _listen(self) -> None:
        try:
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if hasattr(socket, "SO_REUSEPORT"):
                s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            s.bind(("", self.port))
        except OSError as exc:
            self.error = Text(N_("Cannot listen for games on this network: UDP port {port} is "
                                 "taken or blocked"), {"port": self.port, "why": str(exc)})
            return
        s.settimeout(RECEIVE_TIMEOUT)
        with self._lock:
            if self._stop.is_set():  # stopped before it listened
                s.close()
                return
            self._sock = s
        self.settled.set()
        with s:
            while not self._stop.is_set():
                try:
                    data, (sender, _) = s.recvfrom(65536)
                except TimeoutError:
                    continue
                except OSError:
                    return
                self.heard(data, sender)
