"""Sound effects: made at start-up, and silence (never a crash) without an audio device."""

import numpy as np
import pygame

from client import sound


def test_effects_are_short_and_in_range():
    waves = sound.make_waves()
    assert set(waves) == set(sound.EFFECTS)
    for name, wave in waves.items():
        assert 0 < len(wave) / sound.RATE <= 0.7, name
        assert np.abs(wave).max() <= 1.0, name


def test_no_audio_device_means_silence(monkeypatch):
    pygame.mixer.quit()

    def no_device(*a, **k):
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "init", no_device)
    s = sound.Sound()
    assert not s.available and s.sounds == {}
    s.play("win")  # a no-op
