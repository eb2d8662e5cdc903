# Issue 16: a die slid across the board brushes the cells in its way; that
# must not flash red or count as a fault (defect 10). A knocked-over piece
# while the board's own move is shown: the board's move gives way to the
# fault's lights until the piece is back (defect 4).
from ctlrig import Rig, GAME
from triad.board import palette as pal

START = "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0"


def slide(rig, path, dwell):
    """Lift path[0], rest dwell ms on each cell between, put it on the
    last; every colour seen on the cells passed over, tick by tick."""
    seen = []
    rig.lift(path[0], 60)
    for name in path[1:-1]:
        rig.set(name, 1)
        for _ in range(dwell // 10):
            rig.now += 10
            rig.tick()
            for other in path[1:-1]:
                seen.append(rig.led(other))
        rig.set(name, 0)
        rig.wait(20)
    rig.place(path[-1], 1500)
    return seen


def test_a_die_sliding_over_cells_it_may_not_stop_on_never_flashes_red():
    rig = Rig(START)
    before = rig.ctl.errors
    # c1 holds a 2: it may stop on c2 (1 cell) and c4 (3), never on c3.
    seen = slide(rig, ["c1", "c2", "c3", "c4"], 120)
    assert pal.ERROR not in seen, seen
    assert rig.ctl.errors == before
    assert rig.moves() == "c1c4"


def test_a_die_that_rests_where_it_may_not_stand_is_a_fault():
    rig = Rig(START)
    before = rig.ctl.errors
    rig.lift("c1", 60)
    rig.set("c3", 1)  # c1 holds a 2: it may not move 2 cells
    seen = rig.leds_over("c3", 800)
    assert pal.ERROR in seen
    assert rig.ctl.errors == before + 1
    assert rig.moves() == ""


def test_a_knocked_piece_hides_the_boards_move_until_it_is_back():
    rig = Rig(START.replace(" b 0 0", " w 0 0"))
    rig.ctl.seats.player.max_nodes = 2000  # no clock in this rig: a node budget instead
    rig.ctl.seats.set_opponent(1)
    rig.wait(50)
    m = rig.ctl.engine_move
    assert m, "the board chose no move"
    GAME.footprint(rig.ctl.pos, m, rig.ctl.matcher.fp)
    fr = GAME.SITE_NAMES[rig.ctl.matcher.fp[0] & 255]  # the board's die to lift
    assert any(c != (0, 0, 0) for c in rig.leds_over(fr, 1500)), "the board's move is shown"
    # One of Black's dice (the person's side) knocked over.
    knocked = "a1"
    rig.set(knocked, 0)
    rig.wait(400)
    assert rig.ctl.errors >= 1
    assert set(rig.leds_over(fr, 1500)) == {(0, 0, 0)}, "the board's move gives way"
    assert pal.MISSING in rig.leds_over(knocked, 1500)
    rig.set(knocked, 1)
    rig.wait(100)
    assert any(c != (0, 0, 0) for c in rig.leds_over(fr, 1500)), "shown again once it is back"
