# Browne's three-player Triad on the generic controller and the hex_v1
# board description: a slide lights its landing cells, the captured pieces
# are taken off, the bunny piece dropped, the candidate moves next; errors
# and the board's own seat as in the first game. CPython and MicroPython.
from triad.board import controller as C
from triad.board import presses
from triad.board.seats import seats_word
from triad.board import palette as pal
from triad.boards import hex_v1
from triad.games import load
from siterig import SiteRig

G = load("browne")
N = G.N_SITES


def site(name):
    return G.site_index(name)


def Rig(position=G.START):
    return SiteRig(G, hex_v1, position)


RED, GREEN, BLUE = G.ROLE_RGB  # (a piece's light: Red's is orange red)


def legal(rig):
    return [G.format_move(rig.ctl.pos, m) for m in rig.ctl.pos.legal_moves()]


def steps(pos, m):
    """A move's footprint as (act, site name) pairs."""
    from array import array

    fp = array("i", bytes(4 * 32))
    n = G.footprint(pos, m, fp)
    return [((fp[j] >> 8) & 3, G.SITE_NAMES[fp[j] & 255]) for j in range(n)]


def test_a_turn_slide_captures_off_then_drop():
    rig = Rig()
    assert rig.ctl.state == C.PLAY and rig.status(hex_v1.STATUS_TURN[0]) == pal.TURN
    landings = sorted({t.split("@")[0] for t in legal(rig) if t.startswith("E3-")})
    assert "E3-H6" in landings, landings
    rig.lift("E3")
    # Landing cells light in the mover's colour; the others stay dark.
    for i in range(N):
        lit = rig.led(G.SITE_NAMES[i]) == RED
        assert lit == ("E3-" + G.SITE_NAMES[i] in landings), G.SITE_NAMES[i]
    rig.place("H6", 1000)  # a Green cell: Green is the candidate, Blue the bunny
    assert rig.ctl.state == C.FINISH
    assert ("landed", "E3H6") in rig.events.seen
    # Blue's H7 and I7 are captured: they blink in Blue.
    assert BLUE in rig.colours("H7", 1300) and BLUE in rig.colours("I7", 1300)
    assert rig.led("C4") == (0, 0, 0)  # no drop before the captures are off
    rig.lift("H7", 1000)
    rig.lift("I7", 1000)
    assert rig.ctl.record.moves_text() == ""
    assert BLUE in rig.colours("C4", 700)  # empty cells show the bunny's colour
    rig.place("C4", 1000)
    assert rig.ctl.record.moves_text() == "E3-H6@C4"
    assert rig.ctl.pos.side == 1  # Green moves next
    assert rig.status(hex_v1.STATUS_TURN[1]) == pal.TURN


def test_reds_landings_are_not_the_red_of_wrong():
    # Issue 35, defect 13: Red's landing cells were lit (255, 0, 0), the
    # colour of "wrong" (a piece where it may not stand, palette.ERROR), and
    # the page named them so; the legend says what shows.
    rig = Rig()
    assert rig.ctl.pos.side == 0  # Red to move
    landings = sorted({t.split("@")[0][3:] for t in legal(rig) if t.startswith("E3-")})
    rig.lift("E3")
    assert landings
    for name in landings:
        assert rig.led(name) != pal.ERROR and rig.led(name) == G.ROLE_RGB[0], (name, rig.led(name))
    from triad.games import text

    landing = [e for e in text.words(G, "LEGEND") if e[2].startswith("landing:")][0]
    assert tuple(landing[0][0]) == tuple(G.ROLE_RGB[0]) != tuple(pal.ERROR)


def test_captured_pieces_blink_and_must_come_off_before_the_drop():
    pos = "R:E3 G:E5,F6 B:A1,I9 r"
    rig = Rig(pos)
    moves = legal(rig)
    assert [t for t in moves if t.startswith("E3-E4@")], moves  # E4 is next to Green's E5
    rig.lift("E3")
    rig.place("E4", 1000)
    assert rig.ctl.state == C.FINISH
    assert GREEN in rig.colours("E5", 1300)  # the captured piece, in its owner's colour
    rig.place("A2", 1000)  # dropping before taking the capture off: refused
    assert rig.ctl.record.moves_text() == ""
    rig.lift("A2", 200)
    rig.lift("E5", 200)
    rig.place("A2", 1000)
    assert rig.ctl.record.moves_text().startswith("E3-E4@A2")


def landed(rig):
    return [t for k, t in rig.events.seen if k == "landed"]


def test_a_landing_that_captures_nothing_is_named_where_it_stands():
    # Issue 35.13 (Browne): "the event log named E5C5 for a landing on E6".
    # With no capture anywhere, the piece put on E6 also fitted E5-C5 with
    # the bunny piece dropped on E6 before the slide to C5 was made, and
    # that move was the one announced (and C5 was lit as still to fill).
    rig = Rig("R:E5 G:A3 B:I9 r")
    moves = legal(rig)
    assert "E5-E6@C4" in moves and "E5-C5@E6" in moves, moves
    rig.lift("E5")
    rig.place("E6", 1000)
    assert rig.ctl.state == C.FINISH
    assert landed(rig) == ["E5E6"]
    # C5 is an empty cell like any other: lit for the bunny's drop (Blue).
    assert rig.colours("C5", 700) == rig.colours("C4", 700) == [BLUE]
    rig.place("C4", 1000)
    assert rig.ctl.record.moves_text() == "E5-E6@C4"


def test_a_piece_moved_on_after_its_landing_is_named_again():
    # Issue 35.13: the piece rested on C5 (announced "E5C5"), then went on
    # to E6 within a settle time: the board stayed in its landed phase and
    # its words still named C5. Announced again once it rests on E6.
    rig = Rig("R:E5 G:A3 B:I9 r")
    rig.lift("E5")
    rig.place("C5", 1000)
    assert landed(rig) == ["E5C5"]
    rig.lift("C5", 100)
    rig.place("E6", 1000)
    assert landed(rig) == ["E5C5", "E5E6"]
    rig.place("C4", 1000)
    assert rig.ctl.record.moves_text() == "E5-E6@C4"


def test_a_stray_piece_is_an_error_and_commits_nothing():
    rig = Rig()
    rig.place("E5", 2000)
    assert rig.ctl.record.moves_text() == "" and rig.ctl.errors == 1
    assert pal.ERROR in rig.colours("E5", 600)


def test_the_board_plays_a_seat():
    rig = Rig()
    rig.ctl.seats.set_opponent(0)  # the board plays Red
    rig.wait(50)
    m = rig.ctl.engine_move
    assert m
    text = G.format_move(rig.ctl.pos, m)
    plan = steps(rig.ctl.pos, m)
    assert plan[0][0] == 0 and plan[1][0] == 1  # lift, then place
    rig.lift(plan[0][1])
    assert rig.ctl.matcher.dest[site(plan[1][1])]
    for act, name in plan[1:]:
        rig.set(name, act, 1000)
    assert rig.ctl.record.moves_text() == text


def test_the_board_plays_two_seats_for_one_person():
    rig = Rig()
    seen = []
    for _ in range(7):
        presses.press(rig.ctl, C.BTN_HINT * 2 + 1, rig.now)  # hold hint
        seen.append(seats_word(G.SIDES, rig.ctl.seats.bits))
    # One person against the board first, from the first seat (issue 24.12).
    assert seen == ["gb", "rb", "rg", "b", "g", "r", "off"]
    rig.ctl.seats.set(0b110)  # Green and Blue: a person plays Red
    rig.wait(50)
    assert not rig.ctl.engine_move  # Red (the person) is to move
    assert ("opponent", "gb") in rig.events.seen


def test_a_piece_that_cannot_move_shows_the_pieces_that_can():
    # Max-capture: only a slide that captures may be played; Red's A1 has no
    # capturing slide, E3 has one.
    pos = "R:A1,E3 G:E7,F6 B:I9 r"
    rig = Rig(pos)
    movers = {t.split("-")[0] for t in legal(rig)}
    assert "A1" not in movers and "E3" in movers
    rig.lift("A1", 100)
    assert rig.ctl.matcher.blocked == site("A1")
    assert pal.SOURCE in rig.colours("E3", 1300)  # the piece that can move pulses
    assert rig.ctl.record.moves_text() == ""
    rig.place("A1", 1000)
    assert rig.ctl.matcher.blocked == -1 and rig.colours("E3", 700) == [(0, 0, 0)]


def test_the_pieces_that_can_move_light_at_the_lift_of_one_that_cannot():
    # Their pulse starts lit when the piece is lifted, whatever the slow
    # blink's phase (issue 48: a lift's light within 25 ms; in the blink's
    # dark half it came up to 600 ms later), and goes dark after its lit half.
    for offset in range(0, 1200, 100):
        rig = Rig("R:A1,E3 G:E7,F6 B:I9 r")
        rig.wait(offset)
        rig.lift("A1", 10)  # the tick that sees it
        assert rig.ctl.matcher.blocked == site("A1")
        assert rig.led("E3") == pal.SOURCE, offset
        assert (0, 0, 0) in rig.colours("E3", 1200), offset  # (and it pulses)


def test_the_sources_from_one_generation_are_those_of_each_piece():
    # With the face's first_site the controller finds the pieces that can
    # move from one generation of all slides; it must light exactly the
    # pieces whose own moves it would find one site at a time.
    from array import array

    rig = Rig()
    ctl = rig.ctl
    fp = array("i", bytes(4 * len(ctl.matcher.fp)))
    buf = array("i", bytes(4 * G.MAX_MOVES))
    pos = G.parse_position(G.START)
    seed = 99
    compared = 0
    for ply in range(60):
        if G.outcome(pos) >= 0:
            break
        ctl.load(G.format_position(pos))
        for k in range(G.gen_open(pos, buf, 0)):
            m = buf[k]
            G.footprint(pos, m, fp)
            assert G.first_site(pos, m) == fp[0] & 255  # the footprint's first site
        ctl.matcher.fill_sources()
        fast = bytes(ctl.matcher.sources)
        ctl.matcher.fill_sources(first_site=False)  # one site's moves at a time
        assert fast == bytes(ctl.matcher.sources), G.format_position(pos)
        assert any(fast)
        compared += 1
        n = G.gen(pos, buf, 0)
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        pos.make(buf[seed % n])
    assert compared > 5


def test_a_lifted_piece_paints_the_cells_faintly_and_allocates_nothing():
    # Issue 24.1: while a piece is in the hand, an empty cell that is no
    # landing glows faintly in its owner's colour (E5, the centre, is Red's;
    # E6 Green's; E7 Blue's), a landing bright in the mover's; nothing in
    # the hand: dark. The frames of a lifted piece allocate nothing.
    from triad.compat import micropython

    rig = Rig()
    for name in ("E5", "E6", "E7"):
        assert rig.led(name) == (0, 0, 0)
    rig.lift("E3", 100)
    red, green, blue = rig.led("E5"), rig.led("E6"), rig.led("E7")
    assert red[0] and not red[1] and not red[2]
    assert green[1] and not green[0] and not green[2]
    assert blue[2] and not blue[0] and not blue[1]
    landing = [i for i in range(G.N_SITES) if rig.ctl.matcher.dest[i]]
    assert landing and all(rig.slot(i)[0] > 3 * red[0] for i in landing)
    ctl = rig.ctl
    t = rig.now
    micropython.heap_lock()
    try:
        for k in range(30):
            t += 10
            ctl.update(t, rig.occ, t - rig.changed, -1)
            ctl.render(rig.frame, t, rig.occ)
    finally:
        micropython.heap_unlock()
    rig.now = t
    rig.place("E3", 1000)
    assert rig.led("E5") == (0, 0, 0) and rig.led("E6") == (0, 0, 0)


def test_every_landing_announced_names_the_cells_the_person_touched():
    # Issue 35.13, as a property over random turns from random positions:
    # each `evt landed` names the lifted piece's cell and the cell it stands
    # on, also when it rested first on another landing cell long enough to
    # be announced there and then went on, and the turn committed is the
    # one made (captured pieces off, the bunny piece dropped last).
    from triad.games.engine_kit import Rng

    rng = Rng(35)
    turns = 0
    while turns < 24:
        pos = G.parse_position(G.START)
        for _ in range(rng.below(8)):
            if G.outcome(pos) >= 0:
                break
            ms = pos.legal_moves()
            pos.make(ms[rng.below(len(ms))])
        if G.outcome(pos) >= 0:
            continue
        rig = Rig(G.format_position(pos))
        ms = pos.legal_moves()
        m = ms[rng.below(len(ms))]
        st = steps(pos, m)
        src, land = st[0][1], st[1][1]
        # (a landing whose slide ends the game with nothing more to do
        # commits as it rests: not one to pass through)
        others = sorted({steps(pos, k)[1][1] for k in ms if steps(pos, k)[0][1] == src and len(steps(pos, k)) > 2} - {land})
        rig.lift(src)
        if others and rng.below(2):
            # First on another landing cell, announced there, then on.
            other = others[rng.below(len(others))]
            rig.place(other, 1000)
            assert landed(rig)[-1:] == [src + other], (G.format_position(pos), rig.events.seen)
            rig.lift(other, (50, 100, 300)[rng.below(3)])
        rig.place(land, 1000)
        want = G.format_move(pos, m)
        assert landed(rig)[-1:] == [src + land], (G.format_position(pos), want, rig.events.seen)
        for act, name in st[2:]:
            if act == 0:  # a capture taken off
                rig.lift(name, 150)
        rig.wait(1000)
        for act, name in st[2:]:
            if act == 1:  # the bunny piece dropped
                rig.place(name, 1000)
        rig.wait(1000)
        assert rig.ctl.record.moves_text() == want, (G.format_position(pos), want, rig.events.seen)
        turns += 1
