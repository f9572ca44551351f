"""Rules pages: every game's board draws at least one diagram, inside its frame, and the page
lays each one out under the section it illustrates."""

import pygame
import pytest

from client.scenes.rules_page import LINE_H, RulesScene
from game import registry
from game.i18n import paragraphs


class NoApp:
    """The rules page only needs an app to go back."""


def headings(game_id: str) -> list[str]:
    text = registry.get(game_id).rules.RULES_TEXT
    return [p.split("\n")[0].lstrip("# ").strip() for p in paragraphs(text) if p.startswith("#")]


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.display.init()
    pygame.font.init()
    yield


@pytest.mark.parametrize("game_id", registry.available())
def test_every_diagram_draws_inside_its_frame_under_a_real_heading(game_id):
    page = RulesScene(NoApp(), game_id)
    assert page.diagrams, f"{game_id} has no diagram on its rules page"
    for d in page.diagrams:
        assert d.after in headings(game_id), (game_id, d.after)
        assert d.caption.strip()
        frame = pygame.Rect(300, 300, int(260 * d.aspect ** 0.5), int(260 / d.aspect ** 0.5))
        surface = pygame.Surface((frame.right + 300, frame.bottom + 300), pygame.SRCALPHA)
        d.draw(surface, frame)
        inked = pygame.mask.from_surface(surface)
        inside = pygame.mask.Mask(surface.get_size())
        inside.draw(pygame.mask.Mask(frame.size, fill=True), frame.topleft)
        assert inked.overlap_area(inside, (0, 0)) > frame.width * frame.height // 100, d.caption
        outside = inked.count() - inked.overlap_area(inside, (0, 0))
        assert outside == 0, (game_id, d.caption, outside)


@pytest.mark.parametrize("size", [(800, 560), (1280, 800)])
def test_the_page_puts_each_diagram_under_its_section(size):
    for game_id in registry.available():
        page = RulesScene(NoApp(), game_id)
        page.layout(size)
        order = headings(game_id)
        tops = {}
        for i, (_text, heading) in enumerate(page.lines):
            if heading:
                tops[len(tops)] = i * LINE_H
        assert len(page.pictures) == len(page.diagrams)
        for d, (_image, place, captions) in zip(page.diagrams, page.pictures):
            k = order.index(d.after)
            assert place.y > tops[k], (game_id, d.after)
            if k + 1 in tops:
                assert place.bottom <= tops[k + 1], (game_id, d.after)
            assert place.width <= page.box.width - 48 and captions
        inner = page.box.width - 48
        assert all(place.x + max(place.width, 0) <= inner for _i, place, _c in page.pictures)
        assert page.height >= max(place.bottom for _i, place, _c in page.pictures)


@pytest.mark.parametrize("size", [(800, 560), (1280, 800), (1600, 1000), (1920, 1080)])
def test_every_picture_stands_whole_in_the_page_and_jungles_ranks_can_be_read(size):
    """Jungle's boards of 63 squares were drawn at the usual picture's area, 45 px squares at
    1600x1000 with 10 px rank badges: they are drawn larger now, yet no picture is taller
    than the page shows at once unless it was so at the usual size."""
    for game_id in registry.available():
        page = RulesScene(NoApp(), game_id)
        page.layout(size)
        for d, (image, _place, _captions) in zip(page.diagrams, page.pictures):
            assert image.get_height() <= page.box.height - 40 or d.scale == 1, (game_id, size)
            if game_id == "jungle" and size[1] >= 1000:
                assert image.get_width() / 7 >= 60, (size, image.get_width())
