# The controller turns sensed dice into moves, errors and light. These run
# under CPython and MicroPython; the board is ideal (already debounced).
from ctlrig import Rig, cell, GAME
from triad.boards import pico_v1
from triad.board import controller as C
from triad.board import palette as pal
from triad.games.nehren import notation

START = notation.START
OFF = (0, 0, 0)


def test_lifted_die_lights_its_destinations_by_value():
    rig = Rig(START)
    assert rig.ctl.state == C.PLAY
    rig.lift("c1")  # a black 2: may go 1 or 3 cells
    assert rig.led("c1") == pal.SOURCE
    assert rig.led("c2") == pal.VALUE[1]
    assert rig.led("c4") == pal.VALUE[3]
    assert rig.led("b2") == pal.VALUE[1]
    assert rig.led("f4") == pal.VALUE[3]
    assert rig.led("c3") == OFF  # 2 cells away: the value must change
    assert rig.led("a3") == OFF


def test_put_down_on_legal_cell_commits_after_settling():
    rig = Rig(START)
    rig.lift("c1")
    rig.place("c4", 300)
    assert rig.moves() == ""  # not yet settled
    rig.wait(1000)
    assert rig.moves() == "c1c4"
    assert rig.position() == "w3w3w2w2w1w1/....../..b3.../....../....../b1b1.b2b3b3 w 0 0"
    assert ("move", "c1c4") in rig.events.seen
    assert rig.status(pico_v1.STATUS_TURN_WHITE) == pal.TURN
    assert rig.status(pico_v1.STATUS_TURN_BLACK) == OFF


def test_put_back_changes_nothing():
    rig = Rig(START)
    rig.lift("c1", 500)
    rig.place("c1", 3000)
    assert rig.moves() == ""
    assert rig.ctl.state == C.PLAY
    assert rig.led("c2") == OFF


def test_slide_over_cells_does_not_commit_the_passed_cell():
    rig = Rig(START)
    rig.lift("c1")
    # The die brushes c2 on its way to c4 (c2 would be a legal move).
    rig.place("c2", 150)
    rig.lift("c2", 10)
    rig.place("c3", 150)
    rig.lift("c3", 10)
    rig.place("c4", 3000)
    assert rig.moves() == "c1c4"


def test_illegal_placement_is_shown_and_never_committed():
    rig = Rig(START)
    rig.lift("c1")
    rig.place("c3", 3000)  # distance 2 = its current value: illegal
    assert rig.moves() == ""
    colours = rig.leds_over("c3", 1000)
    assert pal.ERROR in colours and OFF in colours  # blinks red
    assert pal.SOURCE in rig.leds_over("c1", 1000)  # where it came from
    assert rig.ctl.errors == 1
    # Correcting it to a legal cell commits that move.
    rig.lift("c3")
    rig.place("c2", 3000)
    assert rig.moves() == "c1c2"


def test_opponent_die_lifted_shows_missing_and_accepts_nothing():
    rig = Rig(START)
    rig.lift("a6", 2000)
    assert rig.moves() == ""
    assert pal.MISSING in rig.leds_over("a6", 1500)
    rig.place("a6", 1500)
    rig.move("c1", "c2")
    assert rig.moves() == "c1c2"


def test_two_dice_lifted_then_knocked_board_recovers():
    rig = Rig(START)
    rig.lift("a1")
    rig.lift("b1")
    rig.place("a3", 3000)  # one of them put down: ambiguous, refused
    rig.set("d3", 1)  # a stray object
    rig.wait(3000)
    assert rig.moves() == ""
    assert pal.ERROR in rig.leds_over("d3", 600)
    rig.lift("d3")
    rig.lift("a3")
    rig.place("a1")
    rig.place("b1", 1500)
    assert rig.ctl.state == C.PLAY
    rig.move("c1", "c2")
    assert rig.moves() == "c1c2"


TRIAD_POS = "....../....../..b1.../....../w2b2..../.....w1 b 0 0"


def test_triad_highlight_and_removal_of_own_die():
    rig = Rig(TRIAD_POS)
    rig.move("c4", "c2", 1500)
    assert rig.ctl.state == C.FINISH
    assert rig.moves() == ""
    seen = rig.leds_over("a2", 1300)
    assert pal.TRIAD in seen
    # Lifting a die that is not the mover's own Triad die is an error.
    rig.lift("a2", 1500)
    assert rig.ctl.state == C.FINISH and rig.moves() == ""
    assert pal.ERROR in rig.leds_over("a2", 600)
    rig.place("a2", 200)
    rig.lift("b2", 1500)
    assert rig.moves() == "c4c2xb2"
    assert rig.position() == "....../....../....../....../w2.b2.../.....w1 w 1 0"
    assert rig.status(pico_v1.STATUS_TRIADS_BLACK) == pal.STATUS_ON
    assert rig.status(pico_v1.STATUS_TRIADS_BLACK + 1) == OFF


def test_removing_the_moved_die_itself():
    rig = Rig(TRIAD_POS)
    rig.move("c4", "c2", 1500)
    rig.lift("c2", 1500)
    assert rig.moves() == "c4c2xc2"


def test_third_triad_wins_and_new_game_rolls():
    rig = Rig(TRIAD_POS.replace("b 0 0", "b 2 1"), rolls=[3, 1, 2, 1, 3, 2, 1, 1, 1, 2, 2, 3])
    rig.move("c4", "c2", 1500)
    rig.lift("b2", 1500)
    assert rig.ctl.state == C.OVER
    assert ("over", "b") in rig.events.seen
    lit = [rig.led(n) for n in ("a1", "b1", "c1", "d1", "e1", "f1", "a6", "f6")]
    assert pal.WIN[0] in lit or pal.WIN[0] in rig.leds_over("c2", 1500)
    rig.press(C.BTN_NEW)
    assert rig.ctl.state == C.SETUP
    # Black rolled 3,1,2,1,3,2 -> 1 1 2 2 3 3 from a1; White 1,1,1,2,2,3 ascending from f6.
    assert rig.ctl.record.start_text == "w3w2w2w1w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0"
    assert rig.led("a1") == OFF or rig.led("a1") == pal.VALUE[1]
    assert pal.VALUE[3] in rig.leds_over("f1", 1500)


def test_setup_waits_for_all_twelve_dice():
    rig = Rig(rolls=[1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3])
    rig.ctl.new_game()
    rig.wait(2000)
    assert rig.ctl.state == C.SETUP
    for n in ("a1", "b1", "c1", "d1", "e1", "f1", "a6", "b6", "c6", "d6", "e6"):
        rig.place(n, 20)
    rig.wait(2000)
    assert rig.ctl.state == C.SETUP  # f6 still missing
    assert pal.VALUE[1] in rig.leds_over("f6", 1500)
    rig.place("f6", 1500)
    assert rig.ctl.state == C.PLAY
    assert rig.ctl.pos.side == 0
    # The next game is started by White.
    rig.ctl.new_game()
    assert rig.ctl.record.start_text.endswith(" w 0 0")


def test_note2_turn_in_place_with_buttons():
    pos = "....../....../....../w1w1..../.w1..../b1w1.... b 0 0"
    rig = Rig(pos)
    assert rig.ctl.matcher.note2
    assert pal.SOURCE in rig.leds_over("a1", 1500)  # the board says: act with a die
    rig.lift("a1", 200)
    assert rig.led("a1") == pal.SOURCE
    assert rig.led("a2") == pal.VALUE[1]  # the keep-value move
    rig.place("a1", 200)
    assert rig.ctl.state == C.CHOOSE
    assert pal.VALUE[2] in rig.leds_over("a1", 1500)
    rig.press(C.BTN_MENU)
    assert pal.VALUE[3] in rig.leds_over("a1", 1500)
    rig.press(C.BTN_CONFIRM)
    rig.wait(100)
    assert rig.moves() == "a1=3"
    assert rig.ctl.pos.side == 1


def test_note2_keep_value_move_by_placement():
    pos = "....../....../....../w1w1..../.w1..../b1w1.... b 0 0"
    rig = Rig(pos)
    rig.move("a1", "a2", 1500)
    assert rig.moves() == "a1a2"


def test_hint_shows_a_triad_move():
    rig = Rig(TRIAD_POS)
    rig.press(C.BTN_HINT)
    rig.wait(20)
    assert rig.led("c4") == pal.HINT
    assert pal.VALUE[2] in rig.leds_over("c2", 1500)


def test_value_display_shows_every_die():
    rig = Rig(START)
    rig.press(C.BTN_MENU)
    rig.wait(20)
    assert rig.led("a1") == pal.VALUE[1]
    assert rig.led("f1") == pal.VALUE[3]
    assert rig.led("a6") == pal.VALUE[3]
    rig.wait(6000)
    assert rig.led("a1") == OFF


def test_loaded_position_waits_for_the_board_to_match():
    rig = Rig(START)
    rig.ctl.start_position(TRIAD_POS)
    rig.wait(2000)
    assert rig.ctl.state == C.SYNC
    for i in range(36):
        rig.occ[i] = rig.ctl.expected[i]
    rig.changed = rig.now
    rig.wait(1500)
    assert rig.ctl.state == C.PLAY


def test_steady_ticks_allocate_nothing():
    rig = Rig(START)
    rig.lift("c1", 100)  # destinations computed once on lift
    ctl = rig.ctl
    occ = rig.occ
    frame = rig.frame
    from triad.compat import micropython

    micropython.heap_lock()
    try:
        t = rig.now
        for k in range(50):
            t += 10
            ctl.update(t, occ, 500, -1)
            ctl.render(frame, t, occ)
        occ[cell("c1")] = 1
        for k in range(50):
            t += 10
            ctl.update(t, occ, 500, -1)
            ctl.render(frame, t, occ)
    finally:
        micropython.heap_unlock()
    assert ctl.state == C.PLAY
    assert rig.moves() == ""


class FailingStore:
    last_error = None

    def start(self, *a):
        raise OSError(28)  # ENOSPC: the flash is full

    def append(self, text):
        raise OSError(28)

    def load(self):
        return None


def test_full_flash_reports_but_keeps_the_game():
    rig = Rig(START, store=FailingStore())
    rig.move("c1", "c4")
    assert rig.moves() == "c1c4"
    assert [k for k, t in rig.events.seen if k == "error" and "not saved" in t]


NOTE2_TRIAD = "....../....../....../w3.w3.../w3w1..../b1w2w2... b 0 0"


def test_note2_triad_setting_off_means_no_removal():
    rig = Rig(NOTE2_TRIAD)
    assert sorted(notation.format_move(m) for m in rig.ctl.pos.legal_moves()) == ["a1=2xa1", "a1=3xa1"]
    rig.ctl.set_option("note2_triads", 0)  # the game's own setting
    assert sorted(notation.format_move(m) for m in rig.ctl.pos.legal_moves()) == ["a1=2", "a1=3"]
    rig.lift("a1", 200)
    rig.place("a1", 200)
    rig.press(C.BTN_CONFIRM)
    rig.wait(100)
    assert rig.moves() == "a1=2"
    assert rig.ctl.pos.score[0] == 0


def test_board_plays_white_and_shows_its_move():
    rig = Rig(TRIAD_POS.replace(" b 0 0", " w 0 0"))
    rig.ctl.seats.player.max_nodes = 3000  # no clock in this rig: a node budget instead
    rig.ctl.seats.set_opponent(1)
    rig.wait(50)
    m = rig.ctl.engine_move
    assert m, "the board chose no move"
    assert ("think", notation.format_move(m)) in rig.events.seen
    fr = notation.cell_name(m & 127)
    to = notation.cell_name((m >> 7) & 127)
    # The die to lift breathes in White's colour (never the hint's cyan).
    seen = rig.leds_over(fr, 1500)
    assert pal.HINT not in seen and len(seen) >= 8
    white = GAME.SIDE_RGB[1]
    shades = [tuple(v * k // 255 for v in white) for k in range(256)]
    assert all(c in shades for c in seen)
    # Lifting another White die is refused while the board's move stands.
    other = "f1" if fr != "f1" else "a2"
    rig.lift(other, 1500)
    assert rig.moves() == ""
    rig.place(other, 1500)
    rig.lift(fr, 200)
    lit = [GAME.SITE_NAMES[i] for i in range(36) if rig.ctl.matcher.dest[i]]
    assert lit == [to]
    rig.place(to, 1500)
    if core_removed(m):
        rig.lift(notation.cell_name(core_removed(m)), 1500)
    assert rig.moves() == notation.format_move(m)
    assert rig.ctl.engine_move == 0 and rig.ctl.pos.side == 0


def core_removed(m):
    return (m >> 18) & 127


def test_hint_uses_the_engine_and_takes_the_triad():
    rig = Rig(TRIAD_POS)
    rig.ctl.seats.player.max_nodes = 3000
    rig.press(C.BTN_HINT)
    assert notation.format_move(rig.ctl.seats.hint_move).startswith("c4c2x")


def test_hold_hint_cycles_who_the_board_plays():
    rig = Rig(START)
    rig.press(C.BTN_HINT, long=True)
    assert rig.ctl.seats.opponent == 1
    rig.press(C.BTN_HINT, long=True)
    assert rig.ctl.seats.opponent == 0
    rig.press(C.BTN_HINT, long=True)
    assert rig.ctl.seats.opponent == -1 and rig.ctl.seats.player.engine is None
    rig.press(C.BTN_CONFIRM, long=True)
    assert rig.ctl.seats.level == 4


def test_third_repetition_is_a_draw():
    rig = Rig("w1...../....../....../....../....../.....b1 b 0 0")
    # Both sides shuffle back and forth: the start position stands a third time.
    # Black: f1 up 2, left 1, down 2, right 1 (values 2, 1, 2, 1); White the
    # mirror image. Each round of eight moves restores the position.
    black = (("f1", "f3"), ("f3", "e3"), ("e3", "e1"), ("e1", "f1"))
    white = (("a6", "a4"), ("a4", "b4"), ("b4", "b6"), ("b6", "a6"))
    for k in range(8):
        rig.move(*black[k % 4])
        rig.move(*white[k % 4])
        if k < 7:
            assert rig.ctl.state == C.PLAY
    assert rig.ctl.state == C.OVER
    assert ("over", "draw repetition") in rig.events.seen


class UnreadableStore:
    """A saved game is on flash but cannot be read (e.g. no RAM for it)."""

    last_error = "saved game too large to read"

    def __init__(self):
        self.writes = []

    def load(self):
        return None

    def start(self, *a):
        self.writes.append(("start",) + a)

    def append(self, text):
        self.writes.append(("append", text))


def test_unreadable_save_is_not_overwritten_until_the_player_asks():
    store = UnreadableStore()
    rig = Rig(store=store, rolls=[1, 2, 3] * 8)
    assert not rig.ctl.load_saved()
    rig.ctl.record.hold_store()
    rig.ctl.new_game()
    assert store.writes == []  # the old game on flash is untouched
    assert [t for k, t in rig.events.seen if k == "error" and "kept" in t]
    rig.press(C.BTN_NEW, long=True)  # the player starts a new game by hand
    assert store.writes and store.writes[0][0] == "start"


def test_a_failed_save_is_shown_until_the_store_writes_the_game_again():
    from faultfs import FaultFs
    from triad.board.store import GameStore

    fs = FaultFs()
    rig = Rig()
    store = GameStore("", fs, game="nehren", on_safe=rig.ctl.record.saved_state)
    rig.ctl.record.store = store
    rig.ctl.start_position(START)
    rig.occ[:] = rig.ctl.expected
    rig.wait(1000)
    # The next flash call fails once (the move's append).
    fs.plan[fs.calls] = "eio"
    rig.move("c1", "c4")
    assert rig.moves() == "c1c4"  # the move stands on the table
    assert any(k == "unsaved" for k, _ in rig.events.seen)
    seen = []
    for _ in range(12):
        rig.wait(100)
        seen.append(rig.status(pico_v1.STATUS_TURN_BLACK))
    assert pal.ERROR in seen  # the turn LEDs blink red: not safely saved
    # The controller writes the whole game again: safe, and the player is told.
    rig.wait(2500)
    assert ("saved", "all moves are on flash") in rig.events.seen
    assert not rig.ctl.record.unsaved
    assert pal.ERROR not in rig.leds_over("a1", 10) + [rig.status(pico_v1.STATUS_TURN_BLACK)]
    back = GameStore("", fs, game="nehren").load()
    assert back[1] == ["c1c4"]


def test_the_move_whose_triad_was_announced_is_the_one_committed():
    # Found by the stateful test: a phantom die on c3 (switch noise that
    # passed the debounce) as d4 was lifted, then the die placed on e3: the
    # board announced the Triad of d4e3 and waited for a removal; the moved
    # die was taken off e3. Both d4e3xe3 and d4c3xc3 (c3 "visited", empty
    # now) then explained the board, and it committed d4c3xc3.
    rig = Rig("w3..w2.w1/.w1..../...b3../.w3.b2.w3/...b1../..b2b2.b3 b 0 0")
    rig.set("d4", 0)
    rig.set("c3", 1)  # the phantom, the same scan as the lift
    rig.wait(30)
    rig.set("c3", 0)
    rig.set("e3", 1)
    rig.wait(1500)
    assert ("triad", "d4e3") in rig.events.seen and rig.ctl.state == C.FINISH
    rig.lift("e3", 1500)
    assert rig.moves() == "d4e3xe3"
