"""An outside engine a bench speaks to line by line, run as the arcade runs programs
(players.program): one that falls silent, floods, garbles or ends is stopped with a message
naming what it did, and nothing it started stays."""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

from players.program import STARTUP_MS, UAI_MAX_LINES, ProgramProcess


class EngineFailed(Exception):
    """The engine did not answer; the message says what it did instead."""


class EngineLines:
    """An engine program's lines, read until the one a caller waits for."""

    def __init__(self, command: str, silence_s: float = 120.0, max_lines: int = UAI_MAX_LINES):
        self.proc = ProgramProcess(command.split())
        self.silence_s = silence_s  # the longest wait for a line
        self.started = False  # until its first line, an engine may still be starting up
        # a flood read as fast as it comes never fills the process's queue: count it here
        self.max_lines = max_lines

    def send(self, line: str) -> None:
        self.proc.send(line)

    def read_until(self, done: Callable[[str], bool], what: str) -> list[str]:
        """The engine's lines up to the first that is done; EngineFailed (the engine stopped)
        if it falls silent, floods, garbles or ends before it (`what` names that line)."""
        lines: list[str] = []
        step = min(1.0, self.silence_s)  # a flood is noticed within a step
        silent = 0.0
        while True:
            item = self.proc.take(step)
            if item is None and not self.proc.flooded and silent < self._allowed_s():
                silent += step
                continue
            if item is None or item[0] != "line":
                self.fail(f"{self._failure(item, silent)} before {what}")
            silent = 0.0
            self.started = True
            lines.append(item[1])
            if done(item[1]):
                return lines
            if len(lines) >= self.max_lines:
                self.fail(f"printed more than {self.max_lines} lines before {what}")

    def fail(self, what: str) -> NoReturn:
        """Stops the engine and raises EngineFailed saying what it did."""
        self.proc.kill_now()
        raise EngineFailed(f"the engine {what}: stopped")

    def _allowed_s(self) -> float:
        """The longest silence now: the arcade's start-up allowance before the first line."""
        return self.silence_s if self.started else max(self.silence_s, STARTUP_MS / 1000)

    def _failure(self, item: tuple[str, str, float] | None, silent: float) -> str:
        """What the engine did instead of answering: flooded, fell silent, garbled or ended."""
        if item is None:
            return self.proc.flooded or f"said nothing for {silent:g} s"
        return item[1] or self.proc.exit_text()  # a bad line says what it was; the end does not

    def close(self, quit_line: str = "quit") -> None:
        """Asks the engine to quit, then ends it and all it started."""
        self.send(quit_line)
        self.proc.close().join()
