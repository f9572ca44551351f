"""Finding hosts: a UDP beacon every second, and a listener that keeps the list of hosts.

The beacon is a msgpack map (app, protocol, host and player name, game, options, TCP port) sent
as a subnet-directed broadcast on every IPv4 interface and to 255.255.255.255. A host silent for
FORGET seconds drops off the list.
"""

from __future__ import annotations

import fcntl
import socket
import struct
import threading
import time
from dataclasses import dataclass

import msgpack

from game import APP_NAME
from net.link import decode

PORT = 47474
INTERVAL = 1.0
FORGET = 5.0
PROTOCOL = "paper-arcade-lan/1"
MAX_HOSTS = 32  # hosts the list keeps; beacons from more are ignored until some are forgotten
MAX_PER_SENDER = 4  # hosts one address may announce (one per port)
MAX_DATAGRAM = 2048  # a beacon is a few hundred bytes
NAME_MAX, FIELD_MAX, OPTIONS_MAX = 40, 32, 16
_SIOCGIFADDR, _SIOCGIFNETMASK = 0x8915, 0x891B


def _ioctl_ipv4(sock: socket.socket, name: str, request: int) -> str | None:
    try:
        packed = fcntl.ioctl(sock.fileno(), request, struct.pack("256s", name.encode()[:15]))
    except OSError:
        return None
    return socket.inet_ntoa(packed[20:24])


def broadcast_addresses() -> list[str]:
    """The broadcast address of every IPv4 interface that has one, then 255.255.255.255."""
    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            addr = _ioctl_ipv4(s, name, _SIOCGIFADDR)
            mask = _ioctl_ipv4(s, name, _SIOCGIFNETMASK)
            if not addr or not mask or addr.startswith("127."):
                continue
            a = struct.unpack(">I", socket.inet_aton(addr))[0]
            m = struct.unpack(">I", socket.inet_aton(mask))[0]
            bcast = socket.inet_ntoa(struct.pack(">I", (a & m) | (~m & 0xFFFFFFFF)))
            if bcast not in found:
                found.append(bcast)
    return found + ["255.255.255.255"]


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
        self._stop.set()

    def _run(self) -> None:
        data = msgpack.packb(self.message, use_bin_type=True)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
            while not self._stop.is_set():
                for target in self.targets or broadcast_addresses():
                    try:
                        s.sendto(data, (target, self.port))
                    except OSError:
                        pass  # an interface without a route: the others still get it
                self._stop.wait(INTERVAL)


def _small(value: object) -> bool:
    """An option value a beacon may carry: a number, a flag, or a short string."""
    return isinstance(value, (bool, int, float)) or (isinstance(value, str)
                                                      and len(value) <= FIELD_MAX)


@dataclass
class HostInfo:
    address: str  # "ip:port" to connect to
    name: str
    game: str
    options: dict
    app_version: str
    seen: float


class HostList:
    """Listens for beacons and keeps the hosts heard within FORGET seconds."""

    def __init__(self, port: int = PORT):
        self.port = port
        self.error: str | None = None
        self._hosts: dict[str, HostInfo] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="host-list")

    def start(self) -> HostList:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def hosts(self) -> list[HostInfo]:
        """The hosts heard lately, newest game first."""
        now = time.monotonic()
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
                    isinstance(k, str) and len(k) <= FIELD_MAX and _small(v)
                    for k, v in options.items()):
                return None
            game, version = m.get("game", "?"), m.get("version", "")
            if not isinstance(game, str) or not isinstance(version, str) \
                    or len(game) > FIELD_MAX or len(version) > FIELD_MAX:
                return None
            info = HostInfo(f"{sender}:{port}", str(m.get("name", "?"))[:NAME_MAX], game,
                            dict(options), version, time.monotonic())
        except Exception:  # a beacon is a hint, never worth a crash
            return None
        with self._lock:
            if info.address not in self._hosts:
                now = time.monotonic()
                for key in [k for k, h in self._hosts.items() if now - h.seen > FORGET]:
                    del self._hosts[key]
                same = sum(h.address.rpartition(":")[0] == sender for h in self._hosts.values())
                if len(self._hosts) >= MAX_HOSTS or same >= MAX_PER_SENDER:
                    return None
            self._hosts[info.address] = info
        return info

    def _run(self) -> None:
        try:
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if hasattr(socket, "SO_REUSEPORT"):
                s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            s.bind(("", self.port))
        except OSError as exc:
            self.error = f"cannot listen for hosts on UDP port {self.port}: {exc.strerror or exc}"
            return
        s.settimeout(0.5)
        with s:
            while not self._stop.is_set():
                try:
                    data, (sender, _) = s.recvfrom(65536)
                except TimeoutError:
                    continue
                except OSError:
                    return
                self.heard(data, sender)
