"""Short sound effects made with numpy at start-up; silence when there is no audio device."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pygame

RATE = 22050
EFFECTS = ("move", "capture", "hit", "head", "miss", "flip", "refused", "win", "lose")


def _tone(freqs: list[float], seconds: float, shape: str = "pluck", volume: float = 0.5
          ) -> np.ndarray:
    """A mono wave: the frequencies in sequence, each with a quick attack and decay."""
    parts = []
    n = int(RATE * seconds / len(freqs))
    t = np.arange(n) / RATE
    for f in freqs:
        wave = np.sin(2 * np.pi * f * t) + 0.3 * np.sin(4 * np.pi * f * t)
        if shape == "noise":
            wave = np.random.default_rng(int(f)).uniform(-1, 1, n) * 0.6 + wave * 0.4
        envelope = np.minimum(1.0, t / 0.004) * np.exp(-t * (9.0 if shape == "pluck" else 4.0))
        parts.append(wave * envelope)
    return np.concatenate(parts) * volume


def make_waves() -> dict[str, np.ndarray]:
    """Each effect as float samples in -1..1."""
    return {
        "move": _tone([660.0], 0.09),
        "capture": _tone([520.0, 780.0], 0.16),
        "hit": _tone([180.0], 0.22, "noise", 0.7),
        "head": _tone([150.0, 120.0, 90.0], 0.45, "noise", 0.8),  # a bigger bang
        "miss": _tone([300.0], 0.12, "noise", 0.25),
        "flip": _tone([880.0, 990.0], 0.1, volume=0.35),
        "refused": _tone([220.0, 160.0], 0.2, "flat", 0.4),
        "win": _tone([523.0, 659.0, 784.0, 1047.0], 0.6, "flat"),
        "lose": _tone([392.0, 330.0, 262.0], 0.6, "flat"),
    }


@contextmanager
def quiet_stderr() -> Iterator[None]:
    """Silence file descriptor 2 for a moment (C libraries write to it directly)."""
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


class Sound:
    """Plays named effects; every call is a no-op when audio is off or unavailable."""

    def __init__(self) -> None:
        self.enabled = True
        self.volume = 0.7
        self.sounds: dict[str, pygame.mixer.Sound] = {}
        self.available = self._init_mixer()

    def _init_mixer(self) -> bool:
        try:
            if not pygame.mixer.get_init():
                with quiet_stderr():  # ALSA's lines on a machine without a sound card
                    pygame.mixer.init(frequency=RATE, size=-16, channels=2)
            freq, _, channels = pygame.mixer.get_init()
            for name, wave in make_waves().items():
                if freq != RATE:
                    idx = np.linspace(0, len(wave) - 1, int(len(wave) * freq / RATE))
                    wave = np.interp(idx, np.arange(len(wave)), wave)
                pcm = (np.clip(wave, -1, 1) * 32767).astype(np.int16)
                pcm = np.repeat(pcm[:, None], channels, axis=1) if channels > 1 else pcm
                self.sounds[name] = pygame.sndarray.make_sound(np.ascontiguousarray(pcm))
        except (pygame.error, ValueError, TypeError):
            self.sounds = {}
            return False
        return True

    def configure(self, enabled: bool, volume: float) -> None:
        self.enabled = bool(enabled)
        self.volume = max(0.0, min(1.0, float(volume)))

    def play(self, name: str) -> None:
        sound = self.sounds.get(name)
        if not (self.enabled and sound):
            return
        sound.set_volume(self.volume)
        sound.play()
