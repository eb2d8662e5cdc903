# The board's review mode (triad/board/review_mode.py, issue 46) on the
# controller's bench rig: a short hint once the game is over enters it, the
# buttons step, a marked move blinks and its better move stands in the
# hint's cyan, try again sets up the position before it and judges the move
# (two misses: the better move lit), new leaves it and nothing reached the
# flash. Both interpreters (MicroPython unix port and CPython).
from ctlrig import Rig, GAME, cell
from triad.board import controller as C
from triad.board import palette as pal
from triad.board.review_mode import ReviewMode, STEP, TRY, BLINK_MS

# White's c3b3xb2 lets Black's a3b2xb1 make the third Triad; b2b5 does not.
START = "w3..w2../....../.....b3/b2.w3.../.w1..w2b1/.b1.... w 2 1"


class FakeStore:
    def __init__(self):
        self.calls = []

    def load(self):
        return None

    def start(self, *a):
        self.calls.append(("start",) + a)

    def append(self, *a):
        self.calls.append(("append",) + a)


def _step(r, rv, ms):
    end = r.now + ms
    while r.now < end:
        r.now += 10
        _tick(r, rv, -1)


def _tick(r, rv, ev):
    # The App's tick, its review hook written out.
    ev = rv.button(ev, r.now) if ev >= 0 else ev
    if not rv.holds:
        r.ctl.update(r.now, r.occ, r.now - r.changed, ev)
    if rv.active:
        rv.update(r.now)
    if not rv.holds:
        r.ctl.render(r.frame, r.now, r.occ)
    if rv.active:
        rv.render(r.frame, r.now, r.occ)
        rv.work()


def _press(r, rv, button):
    r.now += 10
    _tick(r, rv, button * 2)
    _step(r, rv, 100)


def _move(r, rv, fr, to, then=()):
    r.set(fr, 0)
    _step(r, rv, 100)
    r.set(to, 1)
    _step(r, rv, 1000)
    for site in then:
        r.set(site, 0)
        _step(r, rv, 1000)


def _said(r):
    return [t for k, t in r.events.seen if k == "review"]


def _played(nodes=80):
    store = FakeStore()
    r = Rig(store=store)
    r.ctl.load(START)
    r.occ[:] = r.ctl.expected
    r.changed = r.now
    rv = ReviewMode(r.ctl, r.events)
    rv.nodes = nodes
    _step(r, rv, 1000)
    assert r.ctl.state == C.PLAY
    _move(r, rv, "c3", "b3", ("b2",))
    _move(r, rv, "a3", "b2", ("b1",))
    assert r.ctl.state == C.OVER
    return r, rv, store


def test_a_hint_once_over_steps_back_to_the_marked_move():
    r, rv, store = _played()
    _press(r, rv, C.BTN_HINT)
    assert rv.active and rv.ply == 2
    _step(r, rv, 500)
    assert rv.analysis.done
    assert _said(r)[:2] == ["on 2", "move 2 a3b2xb1"]
    _press(r, rv, C.BTN_HINT)  # back one move
    assert rv.ply == 1 and "move 1 c3b3xb2" in _said(r)
    assert "mark 1 allows win better b2b5" in _said(r)
    # The better move in light: b2 steady cyan, b5 steady in its value's colour.
    for t in range(0, 2 * BLINK_MS, 100):
        r.now += 100
        _tick(r, rv, -1)
        assert r.led("b2") == pal.HINT
        assert r.led("b5") != (0, 0, 0)
    # The move played blinks: c3 (its source) lit and dark by turns.
    seen = set()
    for t in range(0, 2 * BLINK_MS, 100):
        r.now += 100
        _tick(r, rv, -1)
        seen.add(r.led("c3") != (0, 0, 0))
    assert seen == {True, False}
    _press(r, rv, C.BTN_MENU)  # forward again: no mark, nothing blinks
    assert rv.ply == 2 and rv.mark() is None
    assert store.calls == [("append", "c3b3xb2"), ("append", "a3b2xb1")]  # the game's own, nothing of the review's


def test_try_again_misses_twice_then_the_better_move_is_lit_and_played():
    r, rv, store = _played()
    n_saved = len(store.calls)
    _press(r, rv, C.BTN_HINT)
    _step(r, rv, 500)
    _press(r, rv, C.BTN_HINT)
    _press(r, rv, C.BTN_CONFIRM)  # try again
    assert rv.phase == TRY and r.ctl.state == C.SETUP
    # The set-up light guides the dice back to before c3b3xb2.
    r.occ[:] = r.ctl.expected
    r.changed = r.now
    _step(r, rv, 1000)
    assert r.ctl.state == C.PLAY
    for k in (1, 2):
        _move(r, rv, "a6", "a5")  # Black still wins at once after it
        assert _said(r).count("wrong 1 a6a5") == k
        assert r.ctl.state == C.SETUP
        _move(r, rv, "a5", "a6")
        assert r.ctl.state == C.PLAY
    assert _said(r)[-1] == "better 1 b2b5"
    _step(r, rv, 10)
    assert r.led("b2") == pal.HINT
    _move(r, rv, "b2", "b5")
    assert _said(r)[-3:] == ["good 1 b2b5", "move 1 c3b3xb2", "mark 1 allows win better b2b5"]
    assert rv.phase == STEP and rv.status().endswith("last try good b2b5")
    _press(r, rv, C.BTN_NEW)  # leave: the game reviewed is back on the table
    assert not rv.active and _said(r)[-1] == "off"
    assert [GAME.format_move(GAME.parse_position(START), r.ctl.record.history[0])] == ["c3b3xb2"]
    assert len(r.ctl.record.history) == 2
    assert len(store.calls) == n_saved  # nothing the tries did reached the flash


def test_another_move_as_good_counts_and_a_game_in_play_is_not_reviewed_by_hint():
    r, rv, store = _played(nodes=0)
    _press(r, rv, C.BTN_HINT)
    _step(r, rv, 300)
    rv.go(1)
    assert rv.try_again() is None
    r.occ[:] = r.ctl.expected
    r.changed = r.now
    _step(r, rv, 1000)
    # Any move after which Black has no win at once is as good (e2e3? no:
    # it still allows; b2b4 blocks too): the review's own rule decides.
    pos = GAME.parse_position(START)
    ok = [m for m in pos.legal_moves() if rv.good(m)]
    assert GAME.parse_move(pos, "b2b5") in ok and GAME.parse_move(pos, "a6a5") not in ok
    _press(r, rv, C.BTN_NEW)  # back to the steps
    assert rv.phase == STEP and rv.active
    _press(r, rv, C.BTN_NEW)
    assert not rv.active
    # In play a short hint is the hint, not a review.
    r2 = Rig(START)
    rv2 = ReviewMode(r2.ctl, r2.events)
    assert rv2.button(C.BTN_HINT * 2, r2.now) == C.BTN_HINT * 2 and not rv2.active


def test_the_serial_line_drives_the_review_and_refuses_what_does_not_fit():
    from triad.board.protocol import Protocol

    r, rv, store = _played(nodes=0)
    out = []
    p = Protocol(r.ctl, out.append)
    p.review = rv

    def cmd(line):
        out.clear()
        p.feed((line + "\n").encode())
        return [ln for ln in out if not ln.startswith("evt ")][0].strip()

    assert cmd("review") == "ok review off"
    assert cmd("review 1") == "err busy review is off (review on)"
    assert cmd("review on").startswith("ok review 2 of 2 a3b2xb1")
    _step(r, rv, 300)
    assert cmd("review 3") == "err value review is on, off, try or a move 1..2"
    assert cmd("review x") == "err value review is on, off, try or a move 1..2"
    assert cmd("review 2") == "ok review 2 of 2 a3b2xb1 analysed all"
    assert cmd("review try") == "err value move 2 is not marked"
    assert cmd("review 1") == "ok review 1 of 2 c3b3xb2 analysed all mark 1 allows win better b2b4"  # (no engine: the first safe move)
    p.lessons = _NoLessons()
    assert cmd("lesson 1") == "err busy a review is running (review off)"
    assert cmd("review try").endswith("trying")
    assert cmd("review 2") == "err busy try again runs (new ends it)"
    assert cmd("review off") == "ok review off"
    assert not rv.active and len(r.ctl.record.history) == 2


class _NoLessons:
    active = False

    def count(self):
        return 3


def test_the_review_ticks_allocate_nothing():
    # The review's steps run in every tick of the scan loop (its update
    # and its frame, the mark blinking over the better move), and so does a
    # try again waiting for its move: neither may allocate (heap_lock raises
    # MemoryError on MicroPython on any allocation; a no-op on CPython).
    from triad.compat import micropython

    r, rv, store = _played()
    _press(r, rv, C.BTN_HINT)
    _step(r, rv, 500)
    _press(r, rv, C.BTN_HINT)
    assert rv.analysis.done and rv.mark() is not None
    c3 = cell("c3") * 3
    lit = bytearray(30)  # (written under the lock: no allocation of the test's own)
    micropython.heap_lock()
    try:
        for k in range(30):  # two and a half blinks, at the marked move
            r.now += 100
            _tick(r, rv, -1)
            lit[k] = r.frame[c3] | r.frame[c3 + 1] | r.frame[c3 + 2]
    finally:
        micropython.heap_unlock()
    assert min(lit) == 0 and max(lit) > 0 and r.led("b2") == pal.HINT  # it blinked over the better move
    _press(r, rv, C.BTN_CONFIRM)  # try again: the position set up, then played from
    r.occ[:] = r.ctl.expected
    r.changed = r.now
    _step(r, rv, 1000)
    assert rv.phase == TRY and r.ctl.state == C.PLAY
    micropython.heap_lock()
    try:
        for k in range(30):
            r.now += 100
            _tick(r, rv, -1)
    finally:
        micropython.heap_unlock()
    assert rv.phase == TRY and r.ctl.state == C.PLAY
