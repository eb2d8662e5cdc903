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
    assert "lift S1, put it on a2, lift S2, put it on a4, lift S3, put it on a6" in words


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
