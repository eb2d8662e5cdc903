# The teaching mode's runner (triad/board/lessons.py) on the controller's
# bench rig: a lesson solved, a wrong move put back, the right move shown
# after two wrong tries, the saved game held and given back, the buttons.
# Both interpreters (MicroPython unix port and CPython).
from ctlrig import Rig, GAME, cell
from triad.board import controller as C
from triad.board import palette as pal
from triad.board.lessons import Lessons, lessons_of, CELEBRATE_MS


class FakeStore:
    """Records every write; load() gives a saved game."""

    def __init__(self, saved=None):
        self.saved = saved
        self.calls = []

    def load(self):
        return self.saved

    def start(self, *a):
        self.calls.append(("start",) + a)

    def append(self, *a):
        self.calls.append(("append",) + a)


SAVED = ("w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0", ["a1a3"], "")


def _rig(saved=SAVED):
    store = FakeStore(saved)
    r = Rig(store=store)
    r.ctl.load_saved()
    r.occ[:] = r.ctl.expected
    r.wait(1000)
    les = Lessons(r.ctl, r.events)
    return r, les, store


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


def _set_up(r, les):
    r.occ[:] = r.ctl.expected
    r.changed = r.now
    _step(r, les, 1000)
    assert r.ctl.state == C.PLAY


def _move(r, les, fr, to):
    r.set(fr, 0)
    _step(r, les, 100)
    r.set(to, 1)
    _step(r, les, 1000)


def _lesson_events(r):
    return [t for k, t in r.events.seen if k == "lesson"]


def test_the_lessons_are_sound():
    items = lessons_of(GAME)
    assert len(items) >= 8
    for goal, text, lit, solved, show in items:
        assert 0 < len(goal) < 160
        pos = GAME.parse_position(text)
        for name in lit.split():
            assert GAME.site_index(name) >= 0
        m = GAME.parse_move(pos, show)
        ok = solved(pos, m) if callable(solved) else GAME.format_move(pos, m) in solved
        assert ok, show
        # Some legal move is wrong: the lesson asks for something.
        wrong = 0
        for w in pos.legal_moves():
            if not (solved(pos, w) if callable(solved) else GAME.format_move(pos, w) in solved):
                wrong += 1
        assert wrong, goal


def test_a_lesson_solved_then_the_next():
    r, les, store = _rig()
    les.start(1)
    assert les.active and r.ctl.state == C.SETUP
    assert _lesson_events(r)[0].startswith("1 Move the lit die")
    _set_up(r, les)
    # The lesson's die breathes in light while the learner thinks.
    assert r.led("c3") != (0, 0, 0)
    _move(r, les, "c3", "e3")
    assert "solved 1 c3e3" in _lesson_events(r)
    assert les.celebrating
    _step(r, les, CELEBRATE_MS + 20)
    assert les.n == 2 and _lesson_events(r)[-1].startswith("2 ")
    assert store.calls == []  # nothing of the lesson reached the flash


def test_wrong_twice_then_the_right_move_is_shown():
    r, les, store = _rig()
    les.start(1)
    _set_up(r, les)
    for k in (1, 2):
        _move(r, les, "c3", "f3")  # 3 cells: shows 3
        assert _lesson_events(r).count("wrong 1 c3f3") == k
        assert r.ctl.state == C.SETUP and r.ctl.record.history == []
        # Put back where the set-up light shows it.
        _move(r, les, "f3", "c3")
        assert r.ctl.state == C.PLAY
    assert _lesson_events(r)[-1] == "hint 1 c3e3" and _lesson_events(r).count("hint 1 c3e3") == 1
    _step(r, les, 10)
    assert r.led("c3") == pal.HINT
    _move(r, les, "c3", "e3")
    assert _lesson_events(r)[-1] == "solved 1 c3e3"


def test_the_saved_game_is_held_and_resumed():
    r, les, store = _rig()
    store_obj = r.ctl.record.store
    les.start(7)
    assert r.ctl.record.store is None
    _set_up(r, les)
    _move(r, les, "c4", "c2")
    r.set("c2", 0)
    _step(r, les, 1000)
    assert "solved 7 c4c2xc2" in _lesson_events(r)
    assert store.calls == [], store.calls
    les.stop()
    assert not les.active and r.ctl.record.store is store_obj
    assert store.calls == [], store.calls
    assert r.ctl.record.moves_text() == "a1a3" and r.ctl.state == C.SYNC
    assert ("resume", GAME.format_position(r.ctl.pos)) in r.events.seen


def test_buttons_menu_in_setup_starts_new_leaves():
    r = Rig(store=FakeStore(SAVED))
    r.ctl.new_game()
    les = Lessons(r.ctl, r.events)
    assert r.ctl.state == C.SETUP
    assert les.button(C.BTN_MENU * 2, r.now) == -1
    assert les.active and les.n == 1
    assert les.button(C.BTN_MENU * 2, r.now) == -1  # menu: the next lesson
    assert les.n == 2
    assert les.button(C.BTN_HINT * 2 + 1, r.now) == -1  # no seat change in a lesson
    assert r.ctl.seats.bits == 0
    assert les.button(C.BTN_CONFIRM * 2, r.now) == C.BTN_CONFIRM * 2
    assert les.button(C.BTN_NEW * 2 + 1, r.now) == -1
    assert not les.active and r.ctl.record.moves_text() == "a1a3"


def test_no_lessons_no_change():
    r = Rig()
    les = Lessons(r.ctl, r.events)
    r.ctl.state = C.PLAY
    assert les.button(C.BTN_MENU * 2, r.now) == C.BTN_MENU * 2
    assert not les.active
