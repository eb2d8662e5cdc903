"""The games' words for people (issue 24): the board's moves, headlines,
rules cards and results as the simulator's page and tools say them."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from simulator.game import move_words  # noqa: E402
from triad import games  # noqa: E402

CORNELSON = games.load("cornelson")
BROWNE = games.load("browne")
# South to move; C3 captures North's gems on C2 and D3 (a chain of two).
CHAIN = "..../...../..s.../..n..../sn..../...../.... S:S1,S2,S3 N:N1,N2,N3 s 0 0"


def test_cornelson_new_gem_is_named_with_its_side():
    start = CORNELSON.START[:-5] + "n 0 0"
    words = move_words(start, "A1 N1-f2 N2-f4 N3-f6", game=CORNELSON)
    assert words.startswith("put a new North gem on A1, ")


def test_cornelson_jewel_steps_are_lift_and_put_never_take_off():
    start = CORNELSON.START[:-5] + "s 0 0"
    words = move_words(start, "D3 S1-a2 S2-a4 S3-a6", game=CORNELSON)
    assert "off" not in words
    # (a dock's name is under the jewel on it: the jewel is named with its spot, issue 47)
    assert ("lift the jewel on dock S1, put it on a2, lift the jewel on dock S2, put it on a4, "
            "lift the jewel on dock S3, put it on a6") in words


def test_cornelson_capture_says_the_gem_is_replaced_and_by_which_colour():
    words = move_words(CHAIN, "C3 S1-a2 S2-a4 S3-a6", game=CORNELSON)
    assert "put it back" not in words
    assert "replace the North gem on C2 with a South gem" in words
    assert "replace the North gem on D3 with a South gem" in words


def test_browne_drop_names_its_colour():
    start = BROWNE.START if isinstance(BROWNE.START, str) else BROWNE.format_position(BROWNE.START)
    pos = BROWNE.parse_position(start)
    from array import array

    buf = array("i", bytes(4 * BROWNE.MAX_MOVES))
    n = BROWNE.gen(pos, buf)
    m = buf[0]
    text = BROWNE.format_move(pos, m)
    after = pos.copy()
    after.make(m)
    drop = text.split("@")[1]
    colour = BROWNE.SIDE_NAMES[BROWNE.owner(after, BROWNE.site_index(drop))]
    assert n and "put a new %s piece on %s" % (colour, drop) in move_words(start, text, game=BROWNE)


# -- every result says its reason (item 7) ------------------------------------

def _finish(game, text, want):
    """The first turn from `text` that ends the game with outcome `want`
    (a word of outcome_text): (the result text, the final position)."""
    from array import array

    pos = game.parse_position(text)
    buf = array("i", bytes(4 * game.MAX_MOVES))
    for i in range(game.gen(pos, buf)):
        pos.make(buf[i])
        out = game.outcome_text(pos)
        if want in out:
            return out, game.format_position(pos)
        pos.unmake(buf[i])
    raise AssertionError("no turn ends in " + want)


def test_cornelson_trap_names_the_trapped_jewel_and_what_closes_it():
    from simulator.game import result_words

    text, final = _finish(CORNELSON, "s.../...../....../......./....../...../.... S:S1,S2,S3 N:N1,N2,N3 s 0 0", "trap")
    r = result_words(text, final, game=CORNELSON)
    assert r["head"] == "South wins"
    assert r["reason"].startswith("Trap: North's jewel on N1 cannot move")
    assert "a barrier of South's gems at G1-G2" in r["reason"]


def test_cornelson_breach_and_capture_say_how():
    from simulator.game import result_words

    text, final = _finish(CORNELSON, "..../...../....../......./....../...../.... S:f2,S2,S3 N:N2,N3,c6 s 0 0", "breach")
    assert result_words(text, final, game=CORNELSON)["reason"] == "Breach: South's jewel reached North's dock N1"
    text, final = _finish(CORNELSON, "..../...../....../sn...../....../...../.... S:S1,S2,S3 N:N1,N2,N3 s 9 0", "capture")
    assert result_words(text, final, game=CORNELSON)["reason"] == "Capture: South captured 10 gems"


def test_nehren_and_browne_wins_say_why():
    from simulator.game import result_words

    nehren = games.load("nehren")
    pos = nehren.parse_position(nehren.START if isinstance(nehren.START, str) else nehren.format_position(nehren.START))
    pos.score[0] = 3
    pos.score[1] = 1
    r = result_words("b", nehren.format_position(pos), game=nehren)
    assert r["reason"] == "three Triads made (3 to 1)"
    # Browne: Red's slide to A2 takes Blue's last two pieces.
    text, final = _finish(BROWNE, "R:A3,G8 G:A1,D2 B:B2,B3 r", "eliminated")
    r = result_words(text, final, game=BROWNE)
    assert r["head"] == "Red wins"
    assert r["reason"] == "Blue has no pieces left; the most pieces left win (Red 2, Green 1)"


def test_cornelson_rules_card_has_portals_and_the_draw():
    from host_tools import games as host_games

    rules = host_games.words(CORNELSON, "RULES")
    assert "Portals" in rules and "transfer" in rules and "directly across" in rules
    assert "Draw" in rules


# -- the smallest correction (item 6) -----------------------------------------

START = "..../...../....../......./....../...../.... S:S1,S2,S3 N:N1,N2,N3 s 0 0"


def _sites(names):
    return [CORNELSON.SITE_NAMES.index(n) for n in names.split()]


def test_one_jewel_on_a_wrong_trey_is_the_only_thing_named():
    from simulator.game import smallest_fix

    text = smallest_fix(START, _sites("D4 a2 a4 b5 N1 N2 N3"), "D4", game=CORNELSON)
    assert text == "The jewel from S3 may not stand on b5: put it on a lit trey (or back on S3)."


def test_a_stray_object_is_named_not_the_gem_just_placed():
    from simulator.game import smallest_fix

    text = smallest_fix(START, _sites("D4 C1 S1 S2 S3 N1 N2 N3"), "D4", game=CORNELSON)
    assert text.startswith("Take what stands on C1 off")
    assert "D4" not in text


def test_a_jewel_stepped_before_the_gem_asks_for_the_gem():
    from simulator.game import smallest_fix

    text = smallest_fix(START, _sites("a2 S2 S3 N1 N2 N3"), "", game=CORNELSON)
    assert text == "Put a new gem on a lit post first."


def test_the_page_names_the_values_colours_as_the_readme_does():
    # Issue 47.4: the page said "magenta 3" where the README says "purple".
    import os
    import re

    from triad.games import load, text as game_text

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(root, "README.md")) as f:
        readme = f.read()
    said = set(re.findall(r"\(blue 1, orange 2, (\w+) 3\)", readme))
    assert said == {"purple"}, said
    g = load("nehren")
    words = " ".join(game_text.words(g, "STATE_TEXT").values()) + " " + " ".join(
        game_text.words(g, "NOTICE_TEXT").values())
    page = re.findall(r"blue 1, orange 2, (\w+) 3", words)
    assert page and set(page) == said, page


def test_the_readme_says_the_level_a_new_board_plays_at_for_each_game():
    # Issue 47.4: a fresh Cornelson board played at 3 where the README says
    # 4. Each game's section of the README says the level a new board
    # plays at, and it is the game's own first level.
    import os
    import re

    from triad.games import load

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(root, "README.md")) as f:
        readme = f.read()
    for name, title in (("nehren", "## Nehren's Triad"), ("browne", "## Browne's Triad"),
                        ("cornelson", "## Cornelson's TRIAD")):
        section = readme.split(title, 1)[1].split("\n## ", 1)[0]
        said = set(re.findall(r"a new board plays at (\d)", section))
        assert said == {str(load(name).DEFAULT_LEVEL)}, (name, said)
