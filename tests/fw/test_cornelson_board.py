# Cornelson's TRIAD on the generic controller and the tri_v1 board: a gem
# placed on a post, each captured gem swapped (lifted and put back as the
# capturer's), the jewels stepped in any order; errors as everywhere.
# CPython and MicroPython.
from triad.board import controller as C
from triad.board import palette as pal
from triad.board.matcher import SHOWN
from triad.boards import tri_v1
from triad.games import load, ROLE_SOURCE
from siterig import SiteRig

G = load("cornelson")
N = G.N_SITES
EMPTY = "..../...../....../......./....../...../...."


def site(name):
    return G.site_index(name)


class Rig(SiteRig):
    def __init__(self, position):
        SiteRig.__init__(self, G, tri_v1, position)

    def step(self, fr, to, ms=100):
        self.set(fr, 0, ms)
        self.set(to, 1, ms)


def test_first_turn_gem_then_jewels_in_any_order():
    rig = Rig(G.START)
    assert rig.ctl.state == C.PLAY
    rig.set("D4", 1, 1000)  # South's gem
    assert rig.ctl.state == C.FINISH
    assert rig.ctl.record.moves_text() == ""
    # The jewels still to move show their docks; S3 goes first.
    rig.step("S3", "a6")
    rig.step("S1", "a2")
    assert rig.ctl.record.moves_text() == ""
    rig.step("S2", "a4", 1000)
    assert rig.ctl.record.moves_text() == "D4 S1-a2 S2-a4 S3-a6"
    assert rig.ctl.pos.side == 1


def test_a_captured_gem_is_swapped_before_the_turn_commits():
    pos = "..../...../....../sn...../....../...../.... S:S1,S2,S3 N:N1,N2,N3 s 0 0"
    rig = Rig(pos)
    rig.set("D3", 1, 1000)  # brackets North's D2 between D1 and D3
    assert rig.ctl.state == C.FINISH
    assert rig.ctl.matcher.nxt[site("D2")] == G.ROLE_SWAP  # the gem to swap is lit
    assert not rig.ctl.matcher.nxt[site("S1")]  # the jewels wait for the swap
    rig.wait(1000)
    assert rig.ctl.record.moves_text() == ""  # the swap is still owed
    rig.set("D2", 0, 200)  # North's gem off ...
    rig.set("D2", 1, 1000)  # ... South's gem on
    assert rig.ctl.matcher.nxt[site("S1")] == ROLE_SOURCE  # now every jewel shows
    assert rig.ctl.matcher.nxt[site("S2")] == ROLE_SOURCE and rig.ctl.matcher.nxt[site("S3")] == ROLE_SOURCE
    for fr, to in (("S1", "a2"), ("S2", "a4"), ("S3", "a6")):
        rig.step(fr, to)
    rig.wait(1000)
    assert rig.ctl.record.moves_text() == "D3 S1-a2 S2-a4 S3-a6"
    assert rig.ctl.pos.posts[site("D2")] == 1  # South's now
    assert G.score(rig.ctl.pos, 0) == 1


def test_a_jewel_on_a_wrong_space_is_an_error():
    rig = Rig(G.START)
    rig.set("D4", 1, 1000)
    rig.step("S1", "a3", 2000)  # a3 is no step of S1
    assert rig.ctl.record.moves_text() == "" and rig.ctl.errors >= 1


# -- guidance in light -----------------------------------------------------------

SOUTH_RGB = G.ROLE_RGB[G.ROLE_SOUTH - G.ROLE_GAME]
NORTH_RGB = G.ROLE_RGB[G.ROLE_NORTH - G.ROLE_GAME]
SWAP_RGB = G.ROLE_RGB[G.ROLE_SWAP - G.ROLE_GAME]
STEP_RGB = G.ROLE_RGB[G.ROLE_STEP - G.ROLE_GAME]
CAPTURING_RGB = G.ROLE_RGB[G.ROLE_CAPTURING - G.ROLE_GAME]
BARRIER_RGB = G.ROLE_RGB[G.ROLE_BARRIER - G.ROLE_GAME]
# Placing C3 captures C2 (C1-C2-C3), then the new gem on C2 ... and C3 with
# E3 bracket D3: a chain of two, swapped C2 first.
CHAIN = "..../...../..s.../..n..../sn..../...../.... S:S1,S2,S3 N:N1,N2,N3 s 0 0"
# South's jewel on a2; North's gems on A2 and B2 bar its way to a3.
BARRED = "..../...../....../......./....../.n.../.n.. S:a2,S2,S3 N:N1,N2,N3 s 0 0"


def test_the_untouched_board_shows_where_a_gem_may_go():
    rig = Rig(G.START)
    for name in ("A1", "D4", "G4"):
        assert rig.led(name) == SOUTH_RGB
    assert rig.led("a2") == (0, 0, 0) and rig.led("S1") == (0, 0, 0)  # jewels wait
    rig = Rig("..../...../....../sn...../....../...../.... S:S1,S2,S3 N:N1,N2,N3 s 0 0")
    assert rig.led("D3") == CAPTURING_RGB  # would capture D2
    assert rig.led("D5") == SOUTH_RGB
    assert rig.led("D1") == (0, 0, 0) and rig.led("D2") == (0, 0, 0)  # taken posts
    rig.set("D5", 1, 100)  # a gem down: the hints give way to the turn's steps
    assert rig.led("D3") == (0, 0, 0)
    rig.set("D5", 0, 1000)  # taken back: the hints return
    assert rig.led("D3") == CAPTURING_RGB
    rig = Rig("..../...../....../......./....../...../.... S:S1,S2,S3 N:N1,N2,N3 n 0 0")
    assert rig.led("D4") == NORTH_RGB


def test_the_hints_follow_the_position_after_a_turn():
    # (their colours are made once a position: a turn played must remake them)
    rig = Rig(G.START)
    assert rig.led("A1") == SOUTH_RGB
    rig.set("D4", 1, 1000)
    for fr, to in (("S1", "a2"), ("S2", "a4"), ("S3", "a6")):
        rig.set(fr, 0, 100)
        rig.set(to, 1, 1000)
    assert rig.ctl.record.moves_text() == "D4 S1-a2 S2-a4 S3-a6" and rig.ctl.pos.side == 1
    rig.wait(1000)
    assert rig.led("A1") == NORTH_RGB and rig.led("G4") == NORTH_RGB
    assert rig.led("D4") not in (SOUTH_RGB, NORTH_RGB)  # taken (it shows the last move)


def test_a_capturing_placement_has_its_own_role_in_the_footprint():
    pos = G.parse_position("..../...../....../sn...../....../...../.... S:S1,S2,S3 N:N1,N2,N3 s 0 0")
    fp = [0] * 32
    m = G.parse_move(pos, "D3 S1-a2 S2-a4 S3-a6")
    G.footprint(pos, m, fp)
    assert fp[0] >> 10 == G.ROLE_CAPTURING
    m = G.parse_move(pos, "D5 S1-a2 S2-a4 S3-a6")
    G.footprint(pos, m, fp)
    assert fp[0] >> 10 == G.ROLE_SOUTH


def test_swaps_light_one_by_one_along_the_chain():
    rig = Rig(CHAIN)
    assert rig.led("C3") == CAPTURING_RGB
    rig.set("C3", 1, 1000)
    nxt = rig.ctl.matcher.nxt
    assert rig.ctl.state == C.FINISH
    assert nxt[site("C2")] == G.ROLE_SWAP and not nxt[site("D3")]
    assert SWAP_RGB in rig.colours("C2", 1000)
    assert not nxt[site("S1")] and not nxt[site("S2")]
    rig.set("C2", 0, 100)
    rig.set("C2", 1, 300)
    assert nxt[site("D3")] == G.ROLE_SWAP and not nxt[site("S1")]
    rig.set("D3", 0, 100)
    rig.set("D3", 1, 300)
    for s in ("S1", "S2", "S3"):
        assert nxt[site(s)] == ROLE_SOURCE
    for fr, to in (("S2", "a4"), ("S1", "a2"), ("S3", "a6")):
        rig.step(fr, to)
    rig.wait(1000)
    assert rig.ctl.record.moves_text() == "C3 S1-a2 S2-a4 S3-a6"
    assert G.score(rig.ctl.pos, 0) == 2


def test_a_lifted_jewel_shows_its_steps_and_the_barriers_in_its_way():
    rig = Rig(BARRED)
    rig.set("G1", 1, 1000)  # the gem first
    rig.set("a2", 0, 300)  # the jewel in the hand
    nxt = rig.ctl.matcher.nxt
    assert nxt[site("a1")] == G.ROLE_STEP  # its one step
    assert not nxt[site("a3")]  # barred
    # (shown only, matcher.SHOWN: a Barrier's gem is no piece the turn takes)
    assert nxt[site("A2")] == G.ROLE_BARRIER | SHOWN and nxt[site("B2")] == G.ROLE_BARRIER | SHOWN
    assert not nxt[site("A1")]  # A1-B2 is no Barrier (A1 empty)
    assert STEP_RGB in rig.colours("a1", 1000)
    assert BARRIER_RGB in rig.colours("A2", 1000)
    # The other jewels' steps light as they are lifted, in any order.
    rig.set("a1", 1, 100)
    rig.set("S3", 0, 300)
    assert nxt[site("a6")] == G.ROLE_STEP and not nxt[site("A2")]


# Every post taken (North's A2 and B2 bar a2-a3): no gem to place, so the
# turn begins with a jewel.
FULL_BARRED = "ssss/sssss/ssssss/sssssss/ssssss/snsss/snss S:a2,S2,S3 N:N1,N2,N3 s 0 0"


def test_a_jewel_lifted_first_shows_the_barriers_in_its_way():
    # No vacant post: the jewel is the turn's first lift, the board is still
    # in PLAY (nothing placed yet), and its Barriers must light as they do
    # after a placement.
    rig = Rig(FULL_BARRED)
    assert G.format_move(rig.ctl.pos, G.parse_move(rig.ctl.pos, "- a2-a1 S2-a4 S3-a6")) == "- a2-a1 S2-a4 S3-a6"
    rig.set("a2", 0, 300)
    assert rig.ctl.matcher.lifted == site("a2")
    assert STEP_RGB in rig.colours("a1", 1000)
    assert BARRIER_RGB in rig.colours("A2", 1000) and BARRIER_RGB in rig.colours("B2", 1000)
    assert rig.colours("a3", 1000) == [(0, 0, 0)]  # barred
    assert BARRIER_RGB not in rig.colours("A1", 1000)  # A1-B2 holds South's A1
    rig.set("a1", 1, 100)
    rig.set("S3", 0, 300)  # the next jewel: a6, no Barrier round S3
    assert BARRIER_RGB not in rig.colours("A2", 1000)
    rig.set("a6", 1, 100)
    rig.step("S2", "a4", 1000)
    assert rig.ctl.record.moves_text() == "- a2-a1 S2-a4 S3-a6"



def _steps_in_order(order):
    # (the turn "- a2-a1 S2-a4 S3-a6" of FULL_BARRED, its jewels stepped in
    # the order given: at every step no fault, and the jewel in the hand
    # shows where it may go)
    rig = Rig(FULL_BARRED)
    ctl = rig.ctl
    to = {"a2": "a1", "S2": "a4", "S3": "a6"}
    for k, fr in enumerate(order):
        rig.set(fr, 0, 600)
        assert not ctl.in_error and ctl.matcher.n_cand > 0, (order, fr)
        assert ctl.matcher.nxt[site(to[fr])] == G.ROLE_STEP or ctl.matcher.dest[site(to[fr])] == G.ROLE_STEP, (
            order, fr)
        assert STEP_RGB in rig.colours(to[fr], 600), (order, fr)
        rig.set(to[fr], 1, 1200)  # (past the settle time: the turn under way is announced)
        if k < len(order) - 1:
            assert not ctl.in_error and ctl.matcher.n_cand > 0 and ctl.record.moves_text() == "", (order, fr)
            for other in order[k + 1:]:  # the jewels still to step are lit
                assert ctl.matcher.nxt[site(other)] == ROLE_SOURCE, (order, other)
    assert ctl.errors == 0, order
    assert ctl.record.moves_text() == "- a2-a1 S2-a4 S3-a6", order
    # The announcement of the turn under way names no step the person did
    # not make (the board's own order: a2-a1 first): "-", no gem.
    said = [t for kind, t in rig.events.seen if kind == G.FINISH_EVENT]
    assert said and set(said) == {"-"}, (order, said)
    assert ctl.pos.side == 1


def test_a_turn_without_a_gem_may_begin_with_any_jewel():
    # Issue 35: the turn was found only under the jewel first in the board's
    # own order (a2): S2 or S3 stepped first was called a fault ("put the
    # jewel back") until the turn was complete. The rules name no order
    # (2.2.3), as with a gem.
    for order in (("a2", "S2", "S3"), ("a2", "S3", "S2"), ("S2", "a2", "S3"), ("S2", "S3", "a2"),
                  ("S3", "a2", "S2"), ("S3", "S2", "a2")):
        _steps_in_order(order)



def test_the_boards_own_turn_without_a_gem_may_begin_with_any_jewel():
    # The board plays South: its chosen turn, carried out by hand, is the
    # only one matched, and it too may begin with a jewel not first in its
    # footprint.
    rig = Rig(FULL_BARRED)
    rig.ctl.seats.set_opponent(0)
    for _ in range(100):
        if rig.ctl.engine_move:
            break
        rig.wait(50)
    m = rig.ctl.engine_move
    assert G.format_move(rig.ctl.pos, m) == "- a2-a1 S2-a4 S3-a6"
    rig.set("S3", 0, 600)
    assert rig.ctl.matcher.lifted == site("S3") and rig.ctl.matcher.dest[site("a6")] == G.ROLE_STEP
    assert not rig.ctl.in_error
    for fr, to in (("S3", "a6"), ("S2", "a4"), ("a2", "a1")):
        rig.set(fr, 0, 600)
        rig.set(to, 1, 1200)
        assert not rig.ctl.in_error, fr
    assert rig.ctl.errors == 0
    assert rig.ctl.record.moves_text() == "- a2-a1 S2-a4 S3-a6"

def test_a_jewel_not_first_in_the_boards_order_lifted_first_allocates_nothing():
    from triad.compat import micropython

    rig = Rig(FULL_BARRED)
    ctl = rig.ctl
    occ = rig.occ
    frame = rig.frame
    t = rig.now
    micropython.heap_lock()
    try:
        occ[site("S3")] = 0  # the lift, its analysis and its lights
        for k in range(60):
            t += 10
            ctl.update(t, occ, t - rig.now, -1)
            ctl.render(frame, t, occ)
        occ[site("a6")] = 1  # its step (within the settle time: its announcement is an event's text)
        changed = t
        for k in range(60):
            t += 10
            ctl.update(t, occ, t - changed, -1)
            ctl.render(frame, t, occ)
    finally:
        micropython.heap_unlock()
    assert ctl.matcher.n_cand > 0 and not ctl.in_error
    assert ctl.matcher.nxt[site("a2")] == ROLE_SOURCE and ctl.matcher.nxt[site("S2")] == ROLE_SOURCE

def test_a_jewel_lifted_first_allocates_nothing():
    from triad.compat import micropython

    rig = Rig(FULL_BARRED)
    ctl = rig.ctl
    occ = rig.occ
    frame = rig.frame
    t = rig.now
    micropython.heap_lock()
    try:
        occ[site("a2")] = 0  # the lift, its analysis and its lights
        for k in range(60):
            t += 10
            ctl.update(t, occ, t - rig.now, -1)
            ctl.render(frame, t, occ)
    finally:
        micropython.heap_unlock()
    assert ctl.matcher.lifted == site("a2") and ctl.matcher.nxt[site("A2")] == G.ROLE_BARRIER | SHOWN


def test_a_capture_opening_a_barrier_lights_no_barrier():
    # South's A1 and a gem on C3 bracket North's B2 (A1-B2-C3 is a line):
    # after that placement A2-B2 bars nothing.
    text = "..../...../....../......./....../.n.../sn.. S:a2,S2,S3 N:N1,N2,N3 s 0 0"
    pos = G.parse_position(text)
    out = [0] * 8
    m = G.parse_move(pos, "G1 a2-a1 S2-a4 S3-a6")
    n = G.lift_marks(pos, m, site("a2"), out)
    assert sorted(out[i] & 255 for i in range(n)) == sorted((site("A2"), site("B2")))
    m = G.parse_move(pos, "C3 a2-a3 S2-a4 S3-a6")  # the way to a3 is open
    assert G.lift_marks(pos, m, site("a2"), out) == 0
    assert G.format_position(pos) == text  # lift_marks leaves the position as it was
    rig = Rig(text)
    rig.set("C3", 1, 1000)
    rig.set("B2", 0, 100)
    rig.set("B2", 1, 300)
    rig.set("a2", 0, 300)
    assert rig.ctl.matcher.nxt[site("a3")] == G.ROLE_STEP and not rig.ctl.matcher.nxt[site("A2")]


def test_lifting_a_jewel_before_the_swaps_forfeits_the_rest():
    rig = Rig(CHAIN)
    rig.set("C3", 1, 1000)
    rig.set("C2", 0, 100)
    rig.set("C2", 1, 300)  # the first swap done, D3 still owed
    rig.set("S1", 0, 300)  # a jewel lifted early: D3's capture is forfeit
    assert rig.ctl.matcher.kept == 1
    assert ("forfeit", "C3 1") in rig.events.seen
    assert not rig.ctl.matcher.nxt[site("D3")]  # no longer asked for
    assert rig.ctl.matcher.nxt[site("a2")] == G.ROLE_STEP
    rig.set("a2", 1, 100)
    rig.step("S2", "a4")
    rig.step("S3", "a6", 1000)
    assert rig.ctl.record.moves_text() == "C3!1 S1-a2 S2-a4 S3-a6"
    pos = rig.ctl.pos
    assert pos.posts[site("C2")] == 1 and pos.posts[site("D3")] == 2  # D3 stays North's
    assert G.score(pos, 0) == 1
    # The record reads back (a power cut, a replay) to the same position.
    again = G.parse_position(CHAIN)
    again.make(G.parse_move(again, "C3!1 S1-a2 S2-a4 S3-a6"))
    assert G.format_position(again) == G.format_position(pos)
    rig2 = Rig(CHAIN)
    rig2.ctl.load(CHAIN, ["C3!1 S1-a2 S2-a4 S3-a6"])
    assert rig2.ctl.record.position_text() == G.format_position(pos)


def test_a_forfeit_before_any_swap_and_taken_back():
    rig = Rig(CHAIN)
    rig.set("C3", 1, 1000)
    rig.set("S2", 0, 300)  # lifted before any swap
    assert rig.ctl.matcher.kept == 0
    rig.set("S2", 1, 100)
    rig.set("C3", 0, 1000)  # everything back: a fresh turn
    assert rig.ctl.matcher.kept == -1 and rig.ctl.state == C.PLAY
    rig.set("C3", 1, 1000)
    rig.step("S1", "a2")
    rig.step("S2", "a4")
    rig.step("S3", "a6", 1000)
    assert rig.ctl.record.moves_text() == "C3!0 S1-a2 S2-a4 S3-a6"
    assert G.score(rig.ctl.pos, 0) == 0


def test_forfeit_notation():
    pos = G.parse_position(CHAIN)
    m = G.parse_move(pos, "C3!1 S1-a2 S2-a4 S3-a6")
    assert G.format_move(pos, m) == "C3!1 S1-a2 S2-a4 S3-a6"
    for bad in ("C3!2 S1-a2 S2-a4 S3-a6", "C3!x S1-a2 S2-a4 S3-a6", "C3!!1 S1-a2 S2-a4 S3-a6", "D5!0 S1-a2 S2-a4 S3-a6"):
        try:
            G.parse_move(pos, bad)
        except G.NotationError:
            continue
        assert False, bad
    # The plain turn is unchanged.
    assert G.format_move(pos, G.parse_move(pos, "C3 S1-a2 S2-a4 S3-a6")) == "C3 S1-a2 S2-a4 S3-a6"


# -- outcomes, modes and the tourney -------------------------------------------

BREACH = "..../...../....../......./....../...../.... S:f2,S2,S3 N:N2,N3,c6 s 0 0"
TRAP = "s.../...../....../......./....../...../.... S:S1,S2,S3 N:N1,N2,N3 s 0 0"
CAPTURE = "..../...../....../sn...../....../...../.... S:S1,S2,S3 N:N1,N2,N3 s 9 0"


def mode_rig(mode, position):
    rig = Rig(G.START)
    rig.ctl.set_option("mode", G.SETTING_CHOICES["mode"].index(mode))
    rig.ctl.load(position)
    rig.occ[:] = rig.ctl.expected
    rig.wait(1000)
    return rig


def play_breach(rig):
    rig.set("A1", 1, 100)
    rig.step("f2", "N1", 1000)


def play_trap(rig):
    rig.set("G2", 1, 100)
    for fr, to in (("S1", "a2"), ("S2", "a4"), ("S3", "a6")):
        rig.step(fr, to)
    rig.wait(1000)


def play_capture(rig):
    rig.set("D3", 1, 300)
    rig.set("D2", 0, 100)
    rig.set("D2", 1, 1000)


def test_each_outcome_is_shown():
    for mode, position, play, text in (
        ("standard", BREACH, play_breach, "s breach"),
        ("breach", BREACH, play_breach, "s breach"),
        ("standard", TRAP, play_trap, "s trap"),
        ("trap", TRAP, play_trap, "s trap"),
        ("standard", CAPTURE, play_capture, "s capture"),
        ("capture", CAPTURE, play_capture, "s capture"),
    ):
        rig = mode_rig(mode, position)
        play(rig)
        assert rig.ctl.state == C.OVER, (mode, text)
        assert ("over", text) in rig.events.seen
        # The win sweep in South's colour crosses the board.
        seen = set()
        for _ in range(30):
            rig.wait(40)
            for i in range(N):
                seen.add(rig.slot(i))
        assert SOUTH_RGB in seen and NORTH_RGB not in seen


def test_single_strategy_modes_ignore_the_other_outcomes():
    rig = mode_rig("trap", BREACH)  # no docks to enter in a game of Trap
    rig.set("A1", 1, 100)
    rig.step("f2", "N1", 1000)
    assert rig.ctl.state != C.OVER and rig.ctl.errors >= 1
    rig = mode_rig("breach", TRAP)  # the trapped jewel leaves play
    play_trap(rig)
    assert rig.ctl.state == C.FINISH and rig.ctl.matcher.nxt[site("N1")] == G.ROLE_REMOVE
    rig.set("N1", 0, 1000)  # taken off the board
    assert rig.ctl.state == C.PLAY and rig.ctl.pos.jewel[3] == 255
    assert rig.ctl.record.moves_text() == "G2 S1-a2 S2-a4 S3-a6"
    rig = mode_rig("breach", CAPTURE)  # a tally of 10 wins nothing: jewels step
    rig.set("D3", 1, 300)
    rig.set("D2", 0, 100)
    rig.set("D2", 1, 300)
    play_trap_steps = (("S1", "a2"), ("S2", "a4"), ("S3", "a6"))
    for fr, to in play_trap_steps:
        rig.step(fr, to)
    rig.wait(1000)
    assert rig.ctl.state == C.PLAY and G.score(rig.ctl.pos, 0) == 10


def test_status_leds_show_the_turn_and_the_tallies():
    rig = Rig("..../...../....../sn...../....../...../.... S:S1,S2,S3 N:N1,N2,N3 s 3 2")
    on = rig.status(tri_v1.STATUS_TURN[0])
    assert on != (0, 0, 0) and rig.status(tri_v1.STATUS_TURN[1]) == (0, 0, 0)
    lit = [rig.status(k) != (0, 0, 0) for k in tri_v1.STATUS_SCORE[0]]
    assert lit == [True] * 3 + [False] * 7
    lit = [rig.status(k) != (0, 0, 0) for k in tri_v1.STATUS_SCORE[1]]
    assert lit == [True] * 2 + [False] * 8


class FakeSettings:
    def __init__(self):
        self.values = {}
        self.saves = 0

    def set(self, k, v):
        self.values[k] = v

    def get(self, k):
        return self.values[k]

    def save(self):
        self.saves += 1


def test_a_tourney_keeps_its_game_tally_and_sets_the_next_rules():
    rig = mode_rig("tourney", BREACH)
    rig.ctl.record.settings = FakeSettings()
    assert rig.ctl.pos.mode == 15  # nobody has won anything: all outcomes
    play_breach(rig)
    assert ("series", "tally b:-") in rig.events.seen
    assert rig.ctl.record.options["series"] == 1 and rig.ctl.record.settings.values["series"] == 1
    # North wins by Breach too (12.2): the next game's docks are shut.
    rig.ctl.set_option("series", G.SETTING_CHOICES["series"].index("b:b"))
    rig.ctl.new_game()
    assert rig.ctl.pos.mode == 8 | 2 | 4  # jewels, Trap, Capture
    # 12.1: South wins by Trap, which North alone has: a drawn game.
    rig.ctl.set_option("series", G.SETTING_CHOICES["series"].index("b:bt"))
    rig.ctl.load(TRAP)
    rig.occ[:] = rig.ctl.expected
    rig.wait(1000)
    play_trap(rig)
    assert ("series", "drawn b:bt") in rig.events.seen
    assert rig.ctl.record.options["series"] == G.SETTING_CHOICES["series"].index("b:bt")
    # Both with Breach and Trap (12.4): gems only until a Capture, no jewels.
    rig.ctl.set_option("series", G.SETTING_CHOICES["series"].index("bt:bt"))
    rig.ctl.load(CAPTURE)
    assert rig.ctl.pos.mode == 4 and rig.ctl.pos.jewels_in_play() == 0
    rig.occ[:] = rig.ctl.expected
    rig.wait(1000)
    rig.set("D3", 1, 300)
    rig.set("D2", 0, 100)
    rig.set("D2", 1, 1000)
    assert ("series", "won s") in rig.events.seen
    assert rig.ctl.record.options["series"] == 0  # the next game begins a new tourney


class FailingSettings(FakeSettings):
    # The flash fails for the next `fails` writes (the change is kept in
    # memory, as store.Settings keeps it), then works: on flash is what the
    # last write that worked wrote.
    def __init__(self, fails):
        FakeSettings.__init__(self)
        self.fails = fails
        self.on_flash = {}

    def save(self):
        self.saves += 1
        if self.fails:
            self.fails -= 1
            raise OSError(5, "EIO")
        self.on_flash = dict(self.values)


def test_a_game_tally_whose_write_failed_is_written_again():
    # Issue 23 (found by the fuzzer): the tourney's deciding turn while the
    # flash failed. The game was written again, the Game Tally never: a
    # power cut lost the won tourney. Now the board keeps saying it is not
    # saved (status LEDs, evt unsaved) until both are on flash.
    rig = mode_rig("tourney", BREACH)
    st = FailingSettings(1)
    rig.ctl.record.settings = st
    play_breach(rig)
    assert ("series", "tally b:-") in rig.events.seen
    assert st.on_flash.get("series") is None and rig.ctl.record.unsaved
    assert ("unsaved", "setting series not saved") in rig.events.seen
    rig.wait(2500)  # the next write, 2 s on (record.FLUSH_MS)
    assert st.on_flash["series"] == G.SETTING_CHOICES["series"].index("b:-")
    assert not rig.ctl.record.unsaved
    assert rig.events.seen[-1] == ("saved", "all moves are on flash")


def test_a_new_game_starts_while_the_flash_fails():
    # Issue 23 (found by the fuzzer): the next game's first side alternates,
    # a setting the board writes; its write failing stopped the new game
    # (an OSError out of new_game). The game starts; the setting follows.
    rig = mode_rig("standard", BREACH)
    st = FailingSettings(1)
    rig.ctl.record.settings = st
    first = rig.ctl.record.next_start
    rig.ctl.new_game()
    assert rig.ctl.state == C.SETUP
    assert rig.ctl.record.next_start != first and "next_start" not in st.on_flash
    rig.wait(2500)
    assert st.on_flash["next_start"] == rig.ctl.record.next_start


def test_series_words():
    words = G.SETTING_CHOICES["series"]
    assert len(words) == 64 and len(set(words)) == 64
    assert words[0] == "-:-" and words[1] == "b:-" and words[7 | (4 << 3)] == "btc:c"


def test_the_mode_and_the_game_tally_on_the_status_leds():
    from triad.board import palette as pal  # noqa: F401

    rig = Rig(G.START)
    step_rgb = G.ROLE_RGB[G.ROLE_STEP - 16]
    base = tri_v1.N_SITES
    lit = [rig.slot(base + s) for s in tri_v1.STATUS_GAME]
    assert lit[0] == step_rgb and lit[1:4] == [(0, 0, 0)] * 3  # standard
    assert lit[4:] == [(0, 0, 0)] * 6  # no tourney
    rig.ctl.set_option("mode", 4)  # a tourney: South has won by Breach (code 1)
    rig.ctl.set_option("series", 1)
    rig.wait(20)
    lit = [rig.slot(base + s) for s in tri_v1.STATUS_GAME]
    assert lit[4] == G.SIDE_RGB[0] and lit[5:] == [(0, 0, 0)] * 5
    assert lit[0] == (0, 0, 0) and all(c == step_rgb for c in lit[1:4])  # every outcome still ends a game


FULL_NO_JEWELS = "ssss/nnnnn/ssssss/nnnnnnn/ssssss/nnnnn/ssss S:a2,a4,a6 N:- n 0 0"


def test_the_empty_turn_is_said_and_played_whoever_plays_that_side():
    # Issue 23, case 7: North's only turn is "-" (a full board, no jewels):
    # nothing physical can be done, so the board says so and plays it.
    for seats in (0, 2):
        rig = mode_rig("breach", FULL_NO_JEWELS)
        if seats:
            rig.ctl.seats.set(seats)  # the board plays North
        rig.wait(1000)
        assert rig.ctl.record.moves_text() == ""
        assert any(k == "pass" for k, t in rig.events.seen)
        rig.wait(1500)
        assert rig.ctl.record.moves_text() == "-", seats
        assert rig.ctl.pos.side == 0


FULL_BOARD = "ssss/nnnnn/ssssss/nnnnnnn/ssssss/nnnnn/ssss S:a2,a4,a6 N:f2,f4,f6 s 0 0"


def _jewel_turns(pos, n, seed=7):
    """n random legal turns from pos (changed), as ints."""
    from array import array

    buf = array("i", bytes(4 * G.MAX_MOVES))
    out = []
    for _ in range(n):
        k = G.gen(pos, buf, 0, -1)
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        m = buf[(seed >> 8) % k]
        pos.make(m)
        out.append(m)
    return out


def test_a_full_board_game_ends_drawn_after_60_turns_of_jewels_only():
    # Issue 23: once every post is taken only the jewels move, and they can
    # step round each other for ever; the board's rule ends it drawn.
    pos = G.parse_position(FULL_BOARD)
    w = G.draw_watch(pos.copy())
    turns = _jewel_turns(pos.copy(), 60)
    p = pos.copy()
    for i, m in enumerate(turns):
        p.make(m)
        assert m & 63 == 63  # (no post vacant: jewels only)
        assert w.push(p, m) == (G.DRAW_NO_GEM if i == 59 else 0), i
    assert G.DRAW_NAMES[G.DRAW_NO_GEM] == "no gem"
    from triad.games import cornelson

    assert cornelson.FULL_PLIES == 60


def test_a_placement_starts_the_count_again():
    pos = G.parse_position("ssss/nnnnn/ssssss/nnnnnnn/ssssss/nnnnn/sss. S:a2,a4,a6 N:f2,f4,f6 n 0 0")
    w = G.draw_watch(pos.copy())
    seen = []
    for m in _jewel_turns(pos.copy(), 61, seed=3):
        pos.make(m)
        seen.append(w.push(pos, m))
        if pos.result != -1:
            break
    # The first turn places the last gem: 60 jewel turns after it, not 59.
    assert seen[:60] == [0] * 60 and (len(seen) < 61 or seen[60] == G.DRAW_NO_GEM)


def test_the_board_says_the_draw_and_it_survives_a_resume():
    rig = Rig(FULL_BOARD)
    moves = []
    p = rig.ctl.pos.copy()
    for m in _jewel_turns(p.copy(), 60):
        moves.append(G.format_move(p, m))
        p.make(m)
    rig.ctl.load(FULL_BOARD, moves)
    assert rig.ctl.record.draw == G.DRAW_NO_GEM and not rig.ctl.matcher.live
    rig.occ[:] = rig.ctl.expected
    rig.wait(1000)
    assert rig.ctl.state == C.OVER
    rig.ctl.load(FULL_BOARD, moves[:59])
    assert rig.ctl.record.draw == 0 and rig.ctl.matcher.live


class _Saves:
    def __init__(self):
        self.starts = []
        self.moves = []

    def start(self, pos, meta="", rules=""):
        self.starts.append((pos, rules))
        self.moves = []

    def append(self, text):
        self.moves.append(text)


def test_a_mode_changed_mid_game_begins_the_save_afresh_under_it():
    # Issue 23, case 5: a save replays its moves under one set of rules, so
    # a mode set mid-game starts the saved game again at the position on the
    # table, under the new mode, and says so (a recorder starts a record).
    saves = _Saves()
    rig = Rig(G.START)
    rig.ctl.record.store = saves
    rig.ctl.start_position(G.START)
    assert saves.starts[-1] == (G.START, "mode=0,series=0")
    rig.occ[:] = rig.ctl.expected
    rig.wait(1000)
    rig.set("D4", 1, 1000)
    rig.step("S1", "a2")
    rig.step("S2", "a4")
    rig.step("S3", "a6", 1000)
    assert saves.moves == ["D4 S1-a2 S2-a4 S3-a6"]
    here = rig.ctl.record.position_text()
    rig.ctl.set_option("mode", G.SETTING_CHOICES["mode"].index("breach"))
    assert saves.starts[-1] == (here, "mode=1,series=0") and saves.moves == []
    assert ("position", here) in rig.events.seen
    assert rig.ctl.record.moves_text() == "" and rig.ctl.record.start_text == here
    # The same mode again changes nothing.
    n = len(saves.starts)
    rig.ctl.set_option("mode", G.SETTING_CHOICES["mode"].index("breach"))
    assert len(saves.starts) == n


def test_a_stray_object_blinks_and_the_turn_under_way_does_not():
    # Issue 24.6: a stray object after the gem and a jewel step is the one
    # fault; the gem, the jewel and the dock it left are the turn's own. The
    # lights of that fault allocate nothing.
    from triad.compat import micropython

    rig = Rig(G.START)
    rig.set("D4", 1, 1000)
    rig.step("S1", "a2", 300)
    rig.set("c5", 1, 1000)  # a coin on a trey
    assert rig.ctl.matcher.n_cand == 0 and rig.ctl.in_error
    assert pal.ERROR in rig.colours("c5", 600)
    for name in ("D4", "a2", "S1"):
        assert pal.ERROR not in rig.colours(name, 600), name
    ctl = rig.ctl
    occ = rig.occ
    frame = rig.frame
    t = rig.now
    micropython.heap_lock()
    try:
        for k in range(60):
            t += 10
            ctl.update(t, occ, t - rig.now, -1)
            ctl.render(frame, t, occ)
    finally:
        micropython.heap_unlock()
    rig.now = t
    rig.set("c5", 0, 1000)  # the coin off: the turn goes on
    rig.step("S2", "a4")
    rig.step("S3", "a6", 1000)
    assert rig.ctl.record.moves_text() == "D4 S1-a2 S2-a4 S3-a6"
