"""Jungle: every rule of issue 23 on a position of its own, the text forms, counts, the bot."""

import random

import pytest

from ai import jungle as bot
from ai.base import Budget
from game.rules import RulesError, Termination
from game.rules import jungle as rules
from tests.fakes.cancel import frozen_clock
from tests.fakes.ticking import TickingClock


def make(pieces: dict, turn: int = 0, keep: bool = True, **options) -> rules.State:
    """A position with these pieces; unless keep is False, an animal of each side not named
    stands in a far corner (a9 blue, g1 red) so that the game is not over."""
    board = ["."] * rules.SIZE
    if keep:
        for corner, kinds in (("a9", "tlecwdpr"), ("g1", "TLECWDPR")):
            board[rules.parse_square(corner)] = next(
                k for k in kinds if k not in pieces.values())
    for name, p in pieces.items():
        board[rules.parse_square(name)] = p
    return rules.from_board(rules.board_text(board), turn, options)


def targets(state: rules.State, frm: str) -> set[str]:
    return {m[2:] for m in rules.legal_moves(state) if m[:2] == frm}


def play(state: rules.State, *moves: str) -> rules.State:
    for m in moves:
        state = rules.apply(state, m)
    return state


# --- the board and the text forms
def test_start_position_as_protocol_md_gives_it():
    s = rules.new_game(None, 0)
    b = s.board
    for name, p in {"a1": "L", "g1": "T", "b2": "D", "f2": "C", "a3": "R", "c3": "P", "e3": "W",
                    "g3": "E", "g9": "l", "a9": "t", "f8": "d", "b8": "c", "g7": "r", "e7": "p",
                    "c7": "w", "a7": "e"}.items():
        assert b[rules.parse_square(name)] == p, name
    assert sum(p != "." for p in b) == 16
    assert rules.board_text(b) == rules.START == "t5l/1c3d1/e1w1p1r/7/7/7/R1P1W1E/1D3C1/L5T"
    assert rules.view(s, 0)["board"] == rules.START and rules.to_move(s) == 0


def test_squares_of_the_geometry():
    sq = rules.parse_square
    assert rules.DENS == (sq("d1"), sq("d9"))
    assert rules.TRAPS[0] == {sq("c1"), sq("e1"), sq("d2")}
    assert rules.TRAPS[1] == {sq("c9"), sq("e9"), sq("d8")}
    assert rules.WATER == {sq(f + r) for f in "bcef" for r in "456"}


@pytest.mark.parametrize("text", [rules.START, "7/7/7/7/7/7/7/7/2E4", "t6/7/7/1R5/7/7/7/7/6T"])
def test_board_text_round_trips(text):
    assert rules.board_text(rules.parse_board(text)) == text


@pytest.mark.parametrize("bad", [None, 7, "", "7/7/7", "8/7/7/7/7/7/7/7/7", "6/7/7/7/7/7/7/7/7",
                                 "x6/7/7/7/7/7/7/7/7", "EE5/7/7/7/7/7/7/7/7",
                                 "7/7/7/1L5/7/7/7/7/7",  # a lion in the water
                                 "7/7/7/7/7/7/7/7/3L3",  # red in its own den
                                 "7/7/7/7/7/7/7/7/7/7"])
def test_malformed_boards_are_refused(bad):
    with pytest.raises(RulesError):
        rules.parse_board(bad)


@pytest.mark.parametrize("wire", [None, 3, "a3", "a3a4a5", "h1h2", "a0a1", "a3 4", ["a3", "a4"]])
def test_malformed_moves_are_refused_and_change_nothing(wire):
    s = rules.new_game(None, 0)
    with pytest.raises(RulesError):
        rules.apply(s, wire)
    assert s == rules.new_game(None, 0)


def test_an_illegal_move_is_refused():
    s = rules.new_game(None, 0)
    for move in ("a1a3", "c3c4", "a3a4a", "g9g8", "b2d1"):
        with pytest.raises(RulesError):
            rules.apply(s, move)


def _perft(state: rules.State, depth: int) -> int:
    if depth == 1:
        return len(rules.legal_moves(state))
    return sum(_perft(rules.apply(state, m), depth - 1) for m in rules.legal_moves(state))


def test_perft_counts_from_the_start():
    s = rules.new_game(None, 0)
    # 24 first moves (listed by hand below); the camps do not touch, so 24 x 24 after two plies
    first = {"a1a2", "a1b1", "g1g2", "g1f1", "b2b3", "b2b1", "b2a2", "b2c2", "f2f3", "f2f1",
             "f2e2", "f2g2", "a3a4", "a3a2", "a3b3", "c3c2", "c3b3", "c3d3", "e3e2", "e3d3",
             "e3f3", "g3g4", "g3g2", "g3f3"}
    assert set(rules.legal_moves(s)) == first
    assert [_perft(s, d) for d in (1, 2, 3)] == [24, 576, 12240]


# --- moving
def test_animals_step_orthogonally_and_never_into_their_own_den():
    s = make({"c1": "P"})  # the leopard on its own trap, next to its own den d1
    assert targets(s, "c1") == {"b1", "c2"}
    s = make({"d2": "W"})
    assert targets(s, "d2") == {"c2", "e2", "d3"}


def test_any_animal_enters_any_trap():
    s = make({"d7": "C"})
    assert targets(s, "d7") == {"c7", "e7", "d6", "d8"}


# --- taking
def test_equal_or_lower_rank_is_taken_higher_is_not():
    s = make({"d4": "P", "d5": "p", "d3": "w"}, turn=0)
    assert {"d5"} <= targets(s, "d4")  # leopard takes leopard
    s = make({"d4": "W", "d5": "p"})
    assert "d5" not in targets(s, "d4")  # wolf cannot take the leopard
    s = make({"a5": "W", "a4": "w"})
    assert "a4" in targets(s, "a5")  # wolf takes wolf


@pytest.mark.parametrize("ranks,takes", [("standard", False), ("wolf_over_dog", True)])
def test_wolf_and_dog_as_the_option_says(ranks, takes):
    s = make({"d4": "W", "d5": "d"}, ranks=ranks)
    assert ("d5" in targets(s, "d4")) is takes
    s = make({"d4": "D", "d5": "w"}, ranks=ranks)
    assert ("d5" in targets(s, "d4")) is not takes


def test_the_rat_takes_the_elephant_and_the_elephant_never_the_rat():
    s = make({"d4": "R", "d5": "e"})
    assert "d5" in targets(s, "d4")
    s = make({"d4": "E", "d5": "r"})
    assert "d5" not in targets(s, "d4")
    s = make({"d4": "E", "d5": "c"})
    assert "d5" in targets(s, "d4")  # anything else of lower rank


# --- the rivers
def test_only_the_rat_swims():
    for kind in "ELTPDWC":
        s = make({"a5": kind})
        assert "b5" not in targets(s, "a5"), kind
    s = make({"a5": "R"})
    assert "b5" in targets(s, "a5")
    s = make({"b5": "R"})
    assert targets(s, "b5") == {"a5", "c5", "b4", "b6"}


def test_a_rat_in_the_water_cannot_take_on_land():
    s = make({"c5": "R", "d5": "e"})  # not even the elephant
    assert "d5" not in targets(s, "c5")
    s = make({"c5": "R", "d5": "r"})
    assert "d5" not in targets(s, "c5")


def test_rats_fight_in_the_water_or_on_land_only_when_both_are():
    s = make({"b5": "R", "c5": "r"})
    assert "c5" in targets(s, "b5")  # both in the water
    s = make({"d5": "R", "d6": "r"})
    assert "d6" in targets(s, "d5")  # both on land
    s = make({"d5": "R", "c5": "r"})
    assert "c5" not in targets(s, "d5")  # from land into the water
    s = make({"c5": "R", "d5": "r"})
    assert "d5" not in targets(s, "c5")  # from the water onto land


def test_no_land_animal_takes_a_rat_in_the_water():
    s = make({"d5": "E", "c5": "r", "a9": "t"})
    assert "c5" not in targets(s, "d5")


@pytest.mark.parametrize("kind", "LT")
def test_lion_and_tiger_jump_the_rivers_along_ranks_and_files(kind):
    s = make({"a5": kind})
    assert targets(s, "a5") == {"a4", "a6", "d5"}
    s = make({"d5": kind})
    assert targets(s, "d5") == {"d4", "d6", "a5", "g5"}
    s = make({"b3": kind})
    assert targets(s, "b3") == {"a3", "c3", "b2", "b7"}
    s = make({"e7": kind})
    assert targets(s, "e7") == {"d7", "f7", "e8", "e3"}


def test_other_animals_do_not_jump():
    for kind in "EPDWCR":
        s = make({"a5": kind})
        assert "d5" not in targets(s, "a5"), kind
        s = make({"b3": kind})
        assert "b7" not in targets(s, "b3"), kind


@pytest.mark.parametrize("rat", ["R", "r"])
def test_a_rat_of_either_side_in_the_way_blocks_the_jump(rat):
    s = make({"a5": "L", "c5": rat})
    assert "d5" not in targets(s, "a5")
    s = make({"b3": "T", "b5": rat})
    assert "b7" not in targets(s, "b3")
    s = make({"b3": "T", "c5": rat})
    assert "b7" in targets(s, "b3")  # a rat in the other file does not


def test_a_jump_takes_by_rank_on_landing():
    s = make({"a5": "T", "d5": "p"})
    assert "d5" in targets(s, "a5")
    s = make({"a5": "T", "d5": "l"})
    assert "d5" not in targets(s, "a5")
    after = rules.apply(make({"a5": "T", "d5": "p", "c9": "w"}), "a5d5")
    assert after.board[rules.parse_square("d5")] == "T" and rules.score(after) == (2, 2)


# --- traps
def test_an_animal_in_an_enemy_trap_is_taken_by_any_enemy():
    s = make({"c2": "C", "c1": "e"})  # blue's elephant in red's trap c1
    assert "c1" in targets(s, "c2")
    s = make({"d3": "E", "d2": "r"})  # the elephant takes a trapped rat
    assert "d2" in targets(s, "d3")


def test_an_animal_in_its_own_trap_keeps_its_rank_unless_any_trap():
    # red's elephant in red's own trap c1
    assert "c1" not in targets(make({"c2": "c", "c1": "E"}, turn=1), "c2")
    s = make({"c2": "c", "c1": "E"}, turn=1, traps="any")
    assert "c1" in targets(s, "c2")


def test_a_trapped_animal_still_takes():
    s = make({"d8": "L", "d7": "t"})  # red's lion in blue's trap takes the tiger
    assert "d7" in targets(s, "d8")


# --- the end
def test_entering_the_enemy_den_wins():
    s = make({"d8": "C"})
    assert "d9" in targets(s, "d8")
    out = rules.outcome(rules.apply(s, "d8d9"))
    assert out.winner == 0 and out.termination is Termination.TARGET
    assert rules.to_move(rules.apply(s, "d8d9")) is None


def test_taking_every_enemy_animal_wins():
    board = ["."] * rules.SIZE
    board[rules.parse_square("d4")], board[rules.parse_square("d5")] = "L", "c"
    s = rules.from_board(rules.board_text(board), 0)
    out = rules.outcome(rules.apply(s, "d4d5"))
    assert out.winner == 0 and out.termination is Termination.NO_PIECES
    assert out.score == (1, 0)


def test_a_side_without_a_legal_move_loses():
    # blue's last animal, a cat in the corner a9, boxed in by a red tiger and lion
    s = rules.from_board("cT5/L6/7/7/7/7/7/7/7", 1)
    out = rules.outcome(s)
    assert out.winner == 0 and out.termination is Termination.NO_MOVES
    assert rules.legal_moves(s) == []


def test_the_quiet_move_limit_draws():
    s = make({"a5": "E", "g5": "e"}, quiet_limit=100)._replace(quiet=99)
    out = rules.outcome(rules.apply(s, "a5a6"))
    assert out.winner is None and out.termination is Termination.MOVE_LIMIT


def test_a_capture_resets_the_quiet_count():
    s = make({"a5": "E", "a6": "c"})._replace(quiet=99)
    after = rules.apply(s, "a5a6")
    assert after.quiet == 0 and rules.outcome(after) is None


def test_the_third_repetition_draws():
    s = make({"a5": "E", "g5": "e"})
    loop = ["a5a6", "g5g6", "a6a5", "g6g5"]
    s = play(s, *loop)
    assert rules.outcome(s) is None  # twice
    s = play(s, *loop)
    out = rules.outcome(s)
    assert out.winner is None and out.termination is Termination.REPETITION


def test_with_repetition_forbidden_the_third_time_is_not_a_move():
    s = make({"a5": "E", "g5": "e"}, repetition="forbidden")
    loop = ["a5a6", "g5g6", "a6a5", "g6g5"]
    s = play(s, *loop, *loop[:3])
    assert "g6g5" not in rules.legal_moves(s) and rules.outcome(s) is None
    with pytest.raises(RulesError):
        rules.apply(s, "g6g5")
    v = rules.view(s, 1)
    assert sorted(rules.legal_moves_from_view(v, {})) == sorted(rules.legal_moves(s))


def test_legal_moves_from_a_view_equal_the_rules_in_every_option():
    rng = random.Random(4)
    for options in ({"traps": "any"}, {"ranks": "wolf_over_dog"}, {"repetition": "forbidden"}):
        s = rules.new_game(options, 0)
        for _ in range(60):
            if rules.outcome(s) is not None:
                break
            v = rules.view(s, s.turn)
            assert sorted(rules.legal_moves_from_view(v, {})) == sorted(rules.legal_moves(s))
            s = rules.apply(s, rng.choice(rules.legal_moves(s)))


def test_views_are_the_same_for_both_seats_and_say_the_options():
    s = play(rules.new_game({"traps": "any"}, 0), "a3a4")
    v = rules.view(s, 0)
    assert v == rules.view(s, 1)
    assert v["to_move"] == 1 and v["plies"] == 1 and v["quiet_plies"] == 1
    assert v["options"]["traps"] == "any" and v["last"] == "a3a4"


# --- the bot
def test_the_searcher_make_and_unmake_keep_hash_and_score():
    rng = random.Random(2)
    s = rules.new_game(None, 0)
    for _ in range(40):
        if rules.outcome(s) is not None:
            break
        s = rules.apply(s, rng.choice(rules.legal_moves(s)))
    budget = Budget(5, now=frozen_clock())  # nothing is searched: a cap never reached
    searcher, legal = bot.searcher_for(rules.view(s, s.turn), budget)
    fresh = bot.Searcher(list(searcher.board), searcher.turn, rules.options_of(s), budget)
    before = (searcher.hash, searcher.score, list(searcher.board), list(searcher.count))
    assert (before[0], before[1]) == (fresh.hash, fresh.score)
    for m in legal:
        q = searcher.make(m)
        after = bot.Searcher(list(searcher.board), searcher.turn, rules.options_of(s), budget)
        assert (searcher.hash, searcher.score, searcher.count) == (after.hash, after.score,
                                                                   after.count)
        searcher.unmake(m, q)
        assert (searcher.hash, searcher.score, searcher.board, searcher.count) == before


def test_the_bot_enters_the_den_when_it_can():
    s = make({"d8": "C", "a5": "E", "b9": "e"})
    move = bot.choose(rules.view(s, 0), rules.legal_moves(s), Budget(0.5, now=TickingClock()),
                      "hard", random.Random(1))
    assert move == "d8d9"


def test_the_bot_takes_the_animal_on_its_den_step():
    # blue's wolf on d2 (red's trap) enters d1 next move unless red's cat takes it
    s = make({"d2": "w", "c2": "C", "a5": "E", "g7": "e"})
    move = bot.choose(rules.view(s, 0), rules.legal_moves(s), Budget(0.5, now=TickingClock()),
                      "hard", random.Random(1))
    assert move == "c2d2"


def test_the_bot_wins_a_race_it_can_see():
    # red's lion jumps b3 -> b7 and reaches the den or takes the cat; blue has the cat only
    s = make({"b3": "L", "g4": "c"}, turn=0, keep=False)
    rng = random.Random(3)
    for _ in range(20):
        if rules.outcome(s) is not None:
            break
        if s.turn == 0:
            budget = Budget(0.3, now=TickingClock())  # about 250 looks at its clock a move
            move = bot.choose(rules.view(s, 0), rules.legal_moves(s), budget, "hard", rng)
        else:
            move = rng.choice(rules.legal_moves(s))
        s = rules.apply(s, move)
    out = rules.outcome(s)
    assert out is not None and out.winner == 0


def test_the_greedy_bench_bot_takes_the_biggest_animal():
    s = make({"d4": "L", "d5": "t", "d3": "c"})
    assert bot.greedy_move(rules.view(s, 0), rules.legal_moves(s), random.Random(0)) == "d4d5"


def test_the_bot_answers_without_a_legal_list():
    s = rules.new_game(None, 0)
    move = bot.choose(rules.view(s, 0), [], Budget(0.2, now=TickingClock()), "normal",
                      random.Random(0))
    assert move in rules.legal_moves(s)
