"""Full screen asked for where the screen cannot give it: the arcade stays in its window, says
so in the player's language, and does not remember a mode it does not have."""

import pygame
import pytest

from client.app import App
from game import i18n, settings
from tests.harness import Harness

SDL_WORDS = "No fullscreen video modes here"


@pytest.fixture
def no_full_screen(monkeypatch):
    """set_mode refuses full screen, as SDL does on a display that has no such mode."""
    real = pygame.display.set_mode

    def set_mode(size=(0, 0), flags=0, *args, **kwargs):
        if flags & pygame.FULLSCREEN:
            raise pygame.error(SDL_WORDS)
        return real(size, flags, *args, **kwargs)

    monkeypatch.setattr(pygame.display, "set_mode", set_mode)
    yield
    i18n.set_language("en")


def _said(app: App) -> list[str]:
    return [message for message, _ in app.toasts]


def test_full_screen_refused_keeps_the_window_and_the_setting_off(no_full_screen):
    settings.put("language", "zh_CN")
    h = Harness((900, 640))
    try:
        h.app.toggle_fullscreen()
        h.frame()
        assert settings.get("fullscreen") is False  # the next launch does not ask for it again
        assert h.app.screen.get_size() == (900, 640)
        assert _said(h.app) and not any(SDL_WORDS in line for line in _said(h.app))
        assert all(not any("a" <= c.lower() <= "z" for c in line) for line in _said(h.app))
        h.app.toggle_fullscreen()  # asked again: refused again, not taken for "back to a window"
        assert settings.get("fullscreen") is False
    finally:
        h.close()


def test_a_saved_full_screen_the_screen_cannot_give_starts_in_a_window(no_full_screen):
    settings.put("fullscreen", True)
    app = App(fullscreen=True)
    try:
        assert not app.screen.get_flags() & pygame.FULLSCREEN
        assert settings.get("fullscreen") is False
        assert _said(app)
    finally:
        pygame.display.quit()  # as the harness closes: the fonts stay for the next test


def test_the_settings_row_shows_off_again_where_full_screen_was_refused(no_full_screen):
    from client.scenes.settings_page import SettingsScene
    h = Harness((900, 640))
    try:
        page = SettingsScene(h.app)
        h.app.push(page)
        h.frame()
        page.full_screen.select(page.full_screen.index + 1)  # "On", as a click on it does
        h.frame()
        assert page.full_screen.value is False and settings.get("fullscreen") is False
    finally:
        h.close()


def test_leaving_full_screen_gives_the_window_back_its_size():
    h = Harness((900, 640))
    try:
        h.app.toggle_fullscreen()
        assert settings.get("fullscreen") is True and h.app.screen.get_flags() & pygame.FULLSCREEN
        h.app.toggle_fullscreen()
        h.frame()
        assert settings.get("fullscreen") is False
        assert h.app.screen.get_size() == (900, 640)
    finally:
        h.close()


def test_the_settings_row_follows_f11():
    from client.scenes.settings_page import SettingsScene
    h = Harness((900, 640))
    try:
        page = SettingsScene(h.app)
        h.app.push(page)
        h.frame()
        for shown in (True, False):
            h.key(pygame.K_F11)
            h.frame()
            assert settings.get("fullscreen") is shown and page.full_screen.value is shown
    finally:
        h.close()
