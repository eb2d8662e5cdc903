# The matrix self-test mode (board/selftest.py), CPython and MicroPython.
from triad.compat import micropython
from triad.board import selftest, scan
from triad.board.selftest import SelfTest
from triad.games import load

FRAME = 3 * (36 + 8)
NAMES = load("nehren").SITE_NAMES


def px(frame, slot):
    i = 3 * slot
    return (frame[i], frame[i + 1], frame[i + 2])


def test_closed_cells_light_and_others_show_their_history():
    t = SelfTest(NAMES)
    occ = bytearray(36)
    frame = bytearray(FRAME)
    occ[0] = 1
    t.update(occ, 0)
    t.render(frame, 0)
    assert px(frame, 0) == selftest.CLOSED
    assert px(frame, 1) == selftest.UNTESTED
    occ[0] = 0
    occ[35] = 1
    t.update(occ, 100)
    t.render(frame, 100)
    assert px(frame, 0) == selftest.TESTED
    assert px(frame, 35) == selftest.CLOSED
    # Status LEDs are lit (stepping through channels), all the same colour.
    assert px(frame, 36) != (0, 0, 0)
    assert px(frame, 43) == px(frame, 36)


def test_status_leds_step_through_all_channels():
    t = SelfTest(NAMES)
    t.update(bytearray(36), 0)
    frame = bytearray(FRAME)
    seen = [0, 0, 0]
    for s in range(4):
        t.render(frame, s * 1000)
        for ch in range(3):
            if frame[3 * 40 + ch]:
                seen[ch] = 1
    assert seen == [1, 1, 1]


def test_never_closed_and_report():
    t = SelfTest(NAMES)
    occ = bytearray(36)
    now = 0
    for c in range(36):
        if c in (0, 35):  # a1 and f6 never work
            continue
        occ[c] = 1
        t.update(occ, now)
        now += 200
        occ[c] = 0
        t.update(occ, now)
        now += 200
    assert t.never_closed() == [0, 35]
    assert t.stuck() == []
    r = t.report()
    assert "34/36" in r and "never closed: a1 f6" in r
    assert "stuck" not in r and "OK" not in r


def test_stuck_cell_is_reported_after_the_limit():
    t = SelfTest(NAMES, stuck_ms=10000)
    occ = bytearray(36)
    occ[8] = 1  # c2 closed from the start
    t.update(occ, 5000)
    t.update(occ, 14000)
    assert t.stuck() == []  # only 9 s
    t.update(occ, 15000)
    assert t.stuck() == [8]
    frame = bytearray(FRAME)
    t.render(frame, 15000)  # blink phase 0
    on0 = px(frame, 8)
    t.render(frame, 15250)
    on1 = px(frame, 8)
    assert selftest.STUCK in (on0, on1) and on0 != on1
    assert "stuck: c2" in t.report()


def test_a_die_placed_later_is_not_stuck():
    t = SelfTest(NAMES, stuck_ms=10000)
    occ = bytearray(36)
    t.update(occ, 0)
    occ[4] = 1  # e1 was open at the start, then a die stays on it
    t.update(occ, 100)
    t.update(occ, 60000)
    assert t.stuck() == []


def test_all_good_report_and_buttons():
    t = SelfTest(NAMES)
    occ = bytearray(36)
    for c in range(36):
        occ[c] = 1
    t.update(occ, 0)
    for c in range(36):
        occ[c] = 0
    t.update(occ, 2500)
    t.note_button(scan.CONFIRM)
    t.note_button(scan.MENU_LONG)
    r = t.report()
    assert r.startswith("2s: 36/36")
    assert "all switches OK" in r
    assert "buttons never pressed: new hint" in r


def test_cell_names_follow_the_convention():
    assert NAMES[0] == "a1"
    assert NAMES[5] == "f1"
    assert NAMES[6] == "a2"
    assert NAMES[35] == "f6"


def test_update_and_render_do_not_allocate():
    t = SelfTest(NAMES, stuck_ms=50)
    occ = bytearray(36)
    frame = bytearray(FRAME)
    occ[3] = 1
    now = 0
    micropython.heap_lock()
    try:
        for i in range(40):
            occ[i % 36] = 1
            t.update(occ, now)
            t.render(frame, now)
            now += 10
            occ[i % 36] = 0 if i % 36 != 3 else 1
    finally:
        micropython.heap_unlock()
    assert t.stuck() == [3]
