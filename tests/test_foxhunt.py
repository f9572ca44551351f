"""Fox Hunt: the rules (sight, answers, the end), its text form, and the hunter's chances
checked against a brute force over every placement on small fields."""

import itertools
import random

import pytest

from ai import foxhunt as bot
from ai.base import Budget
from game.match import Match
from game.rules import RulesError, Termination
from game.rules import foxhunt as rules


def test_sight_is_row_column_and_both_diagonals_without_the_cell():
    seen = rules.sight(10, 0)
    assert 0 not in seen
    assert {1, 9, 10, 90, 11, 99} <= seen and 12 not in seen and 21 not in seen
    middle = rules.sight(8, 3 * 8 + 3)
    assert len(middle) == 7 + 7 + 7 + 6  # row, column, one diagonal of 8, the other of 7


def test_a_probe_answers_fox_or_the_foxes_in_sight_each_counted_once():
    s = rules.State(10, frozenset({0, 11, 57}), ())
    assert rules.answer(s, 0) == rules.FOX
    assert rules.answer(s, 22) == 2  # 0 and 11 on one diagonal, counted once each; 57 unseen
    assert rules.answer(s, 5) == 1  # 0 on its row
    assert rules.answer(s, 7) == 2  # 0 on its row and 57 on its column


def test_the_hunt_ends_when_every_fox_is_found_and_scores_the_probes():
    m = Match("foxhunt", {"size": 8}, 4)
    fox_cells = m.view(None)["fox_cells"]
    assert len(fox_cells) == 5 and "fox_cells" not in m.view(0)
    m.play(next(c for c in range(64) if c not in fox_cells))
    for cell in fox_cells:
        m.play(cell)
    out = m.outcome()
    assert out.winner == 0 and out.score == (6,) and out.termination is Termination.ALL_FOUND
    with pytest.raises(RulesError):
        m.play(0)


def test_options_agree_with_the_protocol_and_refuse_a_wrong_fox_count():
    assert rules.normalize_options({"size": 10, "foxes": 8}) == {"size": 10, "foxes": 8}
    assert rules.normalize_options({"size": 8}) == {"size": 8, "foxes": 5}
    with pytest.raises(RulesError):
        rules.normalize_options({"size": 8, "foxes": 8})


def test_a_probed_cell_cannot_be_probed_again_and_bad_views_are_refused():
    s = rules.apply(rules.new_game({"size": 10}, 1), 5)
    with pytest.raises(RulesError):
        rules.apply(s, 5)
    for bad in ({"size": 9, "foxes": 8, "probes": []},
                {"size": 10, "foxes": 8, "probes": [[200, 1]]},
                {"size": 10, "foxes": 8, "probes": [[1, 9]]}):
        with pytest.raises(RulesError):
            rules.legal_moves_from_view(bad, {})


def brute_force(size: int, foxes: int, probes: list) -> tuple[list[float], int]:
    """Every placement of the remaining foxes, kept if it agrees with every answer."""
    found = {c for c, a in probes if a == rules.FOX}
    probed = {c for c, _ in probes}
    unknown = [c for c in range(size * size) if c not in probed]
    hits, total = [0] * (size * size), 0
    for pick in itertools.combinations(unknown, foxes - len(found)):
        field = found | set(pick)
        if all(len(rules.sight(size, c) & field) == a for c, a in probes if a != rules.FOX):
            total += 1
            for c in pick:
                hits[c] += 1
    return [h / total if total else 0.0 for h in hits], total


@pytest.mark.parametrize("seed", range(25))
def test_the_chances_are_exact_against_a_brute_force_on_small_fields(seed):
    rng = random.Random(seed)
    size, foxes = rng.choice([(4, 2), (5, 3), (6, 3)])
    field = set(rng.sample(range(size * size), foxes))
    probes = [(c, rules.FOX if c in field else len(rules.sight(size, c) & field))
              for c in rng.sample(range(size * size), rng.randint(0, 9))]
    expected, total = brute_force(size, foxes, probes)
    post = bot.posterior(size, foxes, probes)
    assert post.exact and post.placements == pytest.approx(total)
    assert post.probs == pytest.approx(expected, abs=1e-9)


def test_the_hunter_probes_a_sure_fox_and_finds_every_fox():
    m = Match("foxhunt", {"size": 8}, 9)
    rng = random.Random(1)
    while not m.over:
        view = m.view(0)
        move = bot.choose(view, m.legal_moves(), Budget(0.5), "normal", rng)
        post = bot.posterior(8, 5, rules.parse_view(view)[2])
        if max(post.probs) >= bot.SURE:
            assert post.probs[move] >= bot.SURE
        m.play(move)
    assert m.outcome().score[0] < 64
