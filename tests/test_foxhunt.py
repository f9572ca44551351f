"""Fox Hunt: the rules (sight, answers, the end), its text form, and the hunter's chances
checked against a brute force over every placement on small fields."""

import itertools
import random
import sys

import pytest

from ai import foxhunt as bot
from ai.base import Budget
from game.match import Match
from game.rules import RulesError, Termination
from game.rules import foxhunt as rules
from tests.fakes.cancel import frozen_clock


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


@pytest.mark.long
def test_the_hunter_probes_a_sure_fox_and_finds_every_fox():
    m = Match("foxhunt", {"size": 8}, 9)
    rng = random.Random(1)
    while not m.over:
        view = m.view(0)
        move = bot.choose(view, m.legal_moves(), Budget(0.5, now=lambda: 0.0), "normal", rng)
        post = bot.posterior(8, 5, rules.parse_view(view)[2])
        if max(post.probs) >= bot.SURE:
            assert post.probs[move] >= bot.SURE
        m.play(move)
    assert m.outcome().score[0] < 64


class StepBudget(Budget):
    """A budget counted in the exact count's work, not in seconds: it runs out once `steps`
    (calls of the count's programme, counted by counting_steps) reach runs_out_at."""

    def __init__(self, runs_out_at: float):
        super().__init__(3600.0, now=frozen_clock())  # only expired() ends it
        self.runs_out_at = runs_out_at
        self.steps = 0
        self.readings: list[int] = []  # the step at which each reading of the budget came

    def expired(self) -> bool:
        self.readings.append(self.steps)
        return self.steps >= self.runs_out_at


def counting_steps(budget: StepBudget, run):
    """run(), with every call of the count's programme (ai.foxhunt's `ways`) added to steps."""
    def profile(frame, event, arg):
        if event == "call" and frame.f_code.co_name == "ways" \
                and frame.f_globals["__name__"] == bot.__name__:
            budget.steps += 1

    before = sys.getprofile()
    sys.setprofile(profile)
    try:
        return run()
    finally:
        sys.setprofile(before)


# The work between two readings of the budget: 1024 new states of the programme, each calling
# it once per fox count a class may take (at most 8 + 1 on 10x10).
STEPS_PER_READING = 1024 * (8 + 2)


def test_a_budget_running_out_mid_count_is_noticed_within_a_bounded_amount_of_work():
    """However late in the exact count the budget runs out, the hunter answers soon after:
    the count reads the budget every so many states, in its recursion and its forward pass."""
    state = rules.new_game({"size": 10}, 1)
    for cell in (0, 12, 13, 14, 15, 16, 23, 17, 42):  # a count of some 33,000 steps
        state = rules.apply(state, cell)
    view, legal = rules.view(state, 0), rules.legal_moves(state)
    size, foxes, probes = rules.parse_view(view)
    never = StepBudget(float("inf"))
    counting_steps(never, lambda: bot.posterior(size, foxes, probes, never))
    assert never.steps > 3 * STEPS_PER_READING
    marks = never.readings + [never.steps]
    stretches = [b - a for a, b in zip(marks, marks[1:])]
    longest = stretches.index(max(stretches))
    late = StepBudget(marks[longest] + 1)  # runs out just after the reading before it
    move = counting_steps(late, lambda: bot.choose(view, legal, late, "hard", random.Random(0)))
    assert move in legal
    assert late.steps - late.runs_out_at <= STEPS_PER_READING


def test_a_probes_answer_can_be_read_in_any_cell():
    """The digit a probe answered keeps to its cell and is at least 12 px, from the review's
    small field at 800x560 (cells of 16 px, where it was 10 px) up."""
    import pygame

    from client.boards.foxhunt import Board
    from client.ui import theme
    pygame.init()
    board = Board(rules.normalize_options(None), rules.SEAT_NAMES)
    for cell in range(14, 90):
        board.cell = cell
        size = board.answer_size()
        assert size >= 12 and theme.font(size, bold=True).size("8")[0] <= cell - 4, cell


def test_the_whole_truth_shows_the_hidden_foxes_and_a_seats_view_does_not():
    """A replay watched as 'Everything' shows where the foxes hide; the player's view never."""
    import pygame

    from client.boards.foxhunt import Board
    pygame.init()
    state = rules.new_game(None, 5)
    hidden = sorted(state.foxes)
    board = Board(rules.normalize_options(None), rules.SEAT_NAMES)
    board.layout(pygame.Rect(0, 0, 500, 500))
    for seat, shown in ((None, True), (0, False)):
        surface = pygame.Surface((500, 500))
        board.set_view(rules.view(state, seat), [], my_turn=False, viewer=seat)
        board.draw(surface)
        for cell in hidden:
            rect = board.cell_rect(cell)
            colours = {tuple(surface.get_at((x, y)))[:3]
                       for x in range(rect.x, rect.right) for y in range(rect.y, rect.bottom)}
            assert any(c[0] - c[2] > 80 for c in colours) is shown, (seat, cell)  # fox orange
    board.close()


def test_the_arrow_keys_go_on_from_the_square_clicked():
    """Click I9, press Right: the cursor went from C2 to D2, as if the click had not been."""
    import pygame

    from client.boards.foxhunt import Board
    pygame.init()
    state = rules.new_game(None, 5)
    board = Board(rules.normalize_options(None), rules.SEAT_NAMES)
    board.layout(pygame.Rect(0, 0, 500, 500))
    board.set_view(rules.view(state, 0), rules.legal_moves(state), my_turn=True, viewer=0)
    size = board.size
    clicked = 8 * size + 7  # row 9, column H
    board.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1,
                                          pos=board.cell_rect(clicked).center))
    board.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0,
                                          unicode="", scancode=0))
    assert board.cursor == clicked + 1 and board.hover == clicked + 1
    board.close()


@pytest.mark.parametrize("lang, count, fox", [("en", "(2)", "(fox)"), ("zh_TW", "（2）", "（狐")])
def test_a_probe_is_written_with_its_answer_and_no_colon(lang, count, fox):
    """A review line reads "{move}: {verdict}": a probe written "C9: 2" made it "C9: 2: 欠佳"."""
    from client.boards.foxhunt import Board
    from game import i18n
    i18n.set_language(lang)
    try:
        state = rules.State(10, frozenset({0, 11, 57}), ())
        board = Board({}, rules.SEAT_NAMES)
        texts = []
        for cell in (22, 0):
            before = rules.view(state, 0)
            state = rules.apply(state, cell)
            texts.append(board.move_text(cell, before, rules.view(state, 0)))
        assert texts[0].endswith(count) and fox in texts[1]
        assert not any(":" in t or "：" in t for t in texts)
    finally:
        i18n.set_language("en")


def _hard_field() -> tuple[dict, list]:
    """A 10x10 hunt whose chances take a count of some 33,000 steps."""
    state = rules.new_game({"size": 10}, 1)
    for cell in (0, 12, 13, 14, 15, 16, 23, 17, 42):
        state = rules.apply(state, cell)
    return rules.view(state, 0), rules.legal_moves(state)


def test_a_review_tells_no_chance_it_could_not_count():
    """With no time to count, the review sampled for as long again and kept no placement (or a
    handful): it told a player "this probe had a 17% chance of a fox; the best had 17%" where
    the counted chance was 36%. Now such a probe is judged like any other and no chance is
    told; with the time, the chance told is the counted one."""
    view, legal = _hard_field()
    asked = legal[:2]
    rushed = bot.appraise(view, asked, Budget(0.0, now=frozen_clock()), 0)
    assert all("fox" not in d for d in rushed.details) and "best" not in rushed.figures
    assert len(set(rushed.scores)) == 1
    state = rules.new_game({"size": 8}, 3)  # a field counted at once
    for cell in (0, 7, 56, 63):
        state = rules.apply(state, cell)
    view, legal = rules.view(state, 0), rules.legal_moves(state)
    size, foxes, probes = rules.parse_view(view)
    counted = bot.posterior(size, foxes, probes)
    assert counted.exact and counted.known
    judged = bot.appraise(view, legal[:2], Budget(1e6, now=frozen_clock()), 0)
    assert [d["fox"] for d in judged.details] == [counted.probs[c] for c in legal[:2]]


def test_a_sample_of_a_handful_is_not_known_and_the_hint_shows_no_heat(monkeypatch):
    import pygame

    from client.boards.foxhunt import Board
    pygame.init()
    assert not bot.Posterior([0.1] * 100, float("nan"), False, 13).known
    assert bot.Posterior([0.1] * 100, float("nan"), False, bot.TRUSTED_SAMPLES).known
    monkeypatch.setattr(bot, "hint", lambda view: bot.Posterior([0.1] * 100, float("nan"),
                                                                 False, 3))
    view, legal = _hard_field()
    board = Board(rules.normalize_options({"size": 10}), rules.SEAT_NAMES)
    board.layout(pygame.Rect(0, 0, 500, 500))
    board.set_view(view, legal, my_turn=True, viewer=0)
    board.toggle_heat()
    for _ in range(2000):
        board.update(0.01)
        if not board.heat_known:
            break
        board.hinter._thread.join(0.01)
    assert not board.heat_known and board.heat is None
    assert any("too many ways" in line for line in board.status())
