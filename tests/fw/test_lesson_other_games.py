# The lessons of Browne's and Cornelson's games on the controller's bench
# rig (any game, sites by name), through the generic runner
# (triad/board/lessons.py): each lesson's data sound, a lesson solved by its
# pieces, and a lesson's own settings (Cornelson's mode) held and given
# back. Both interpreters (MicroPython unix port and CPython).
from triad.board import controller as C
from triad.board import palette as pal
from triad.board.lessons import Lessons, lessons_of
from triad.boards import hex_v1, tri_v1
from triad.games import load
from siterig import SiteRig

BROWNE = load("browne")
CORNELSON = load("cornelson")


def _sound(game):
    items = lessons_of(game)
    assert len(items) >= 8
    for item in items:
        goal, text, lit, solved, show = item[:5]
        assert 0 < len(goal) < 160
        pos = game.parse_position(text)
        for k, v in item[5] if len(item) > 5 else ():
            game.apply_setting(pos, k, v)
        for name in lit.split():
            assert game.owner(pos, game.site_index(name)) >= 0, name
        m = game.parse_move(pos, show)
        assert solved(pos, m) if callable(solved) else game.format_move(pos, m) in solved, show


def test_browne_lessons_are_sound():
    _sound(BROWNE)


def test_cornelson_lessons_are_sound():
    _sound(CORNELSON)


def _rig(game, board):
    r = SiteRig(game, board, game.START)
    return r, Lessons(r.ctl, r.events)


def _step(r, les, ms):
    end = r.now + ms
    while r.now < end:
        r.now += 10
        r.ctl.update(r.now, r.occ, r.now - r.changed, -1)
        if les.active:
            les.update(r.now)
        r.ctl.render(r.frame, r.now, r.occ)
        if les.active:
            les.render(r.frame, r.now, r.occ)


def _set(r, les, name, v, ms=100):
    i = r.site(name)
    r.occ[i] = v
    r.changed = r.now
    _step(r, les, ms)


def _set_up(r, les):
    r.occ[:] = r.ctl.expected
    r.changed = r.now
    _step(r, les, 1000)
    assert r.ctl.state == C.PLAY


def _lesson_events(r):
    return [t for k, t in r.events.seen if k == "lesson"]


def test_browne_a_capture_lesson_solved_by_its_pieces():
    r, les = _rig(BROWNE, hex_v1)
    les.start(3)  # capture the lit Green piece on A2
    _set_up(r, les)
    _set(r, les, "E5", 0)
    _set(r, les, "A1", 1, 1000)
    _set(r, les, "A2", 0, 500)  # the captured piece off
    _set(r, les, "E3", 1, 1000)  # the Blue bunny piece dropped
    assert _lesson_events(r)[-1] == "solved 3 E5-A1@E3"


def test_browne_a_wrong_capture_is_put_back_and_the_turn_shown_after_two():
    r, les = _rig(BROWNE, hex_v1)
    les.start(3)
    _set_up(r, les)
    for k in (1, 2):
        _set(r, les, "E5", 0)
        _set(r, les, "E4", 1, 1000)  # captures Blue's F5, not A2
        _set(r, les, "F5", 0, 500)
        _set(r, les, "B3", 1, 1000)
        assert _lesson_events(r).count("wrong 3 E5-E4@B3") == k
        assert r.ctl.state == C.SETUP and r.ctl.record.history == []
        _set_up(r, les)  # the pieces back where the set-up light shows
    assert _lesson_events(r)[-1] == "hint 3 E5-A1@E3"
    _step(r, les, 10)
    assert r.led("E5") == pal.HINT  # the piece to move, in the hint light


def test_cornelson_a_lesson_plays_in_its_mode_and_the_mode_returns():
    r, les = _rig(CORNELSON, tri_v1)
    r.ctl.set_option("mode", 1)  # the player's game: a game of Breach
    les.start(9)  # a game of Capture: no jewels, the tenth capture wins
    assert r.ctl.record.options["mode"] == 3
    _set_up(r, les)
    _set(r, les, "B4", 1, 300)
    _set(r, les, "B3", 0, 100)
    _set(r, les, "B3", 1, 1000)
    assert _lesson_events(r)[-1] == "solved 9 B4"
    les.start(1)  # a standard game: the jewels are back
    assert r.ctl.record.options["mode"] == 0
    assert CORNELSON.format_position(r.ctl.pos).endswith("S:a4 N:f4 s 0 0")
    les.stop()
    assert r.ctl.record.options["mode"] == 1
