# Pieces lifted and put back where they stood leave no turn under way, in
# every game: the board is at rest again, and a seat the board plays then
# searches and names its move (issue 48: on Browne's board a lifted and
# put back piece left one to four moves "started" with every piece in
# place, and the board never played its move). CPython and MicroPython.
from array import array

from triad.boards import hex_v1, pico_v1, tri_v1
from triad.board import match_kernels as K
from triad.games import load, LIFT, PLACE, WILD
from siterig import SiteRig

BOARDS = (("browne", hex_v1), ("nehren", pico_v1), ("cornelson", tri_v1))
# A position of each game with its pieces about (Browne's is one where the
# old matcher read six moves of B4 as begun after B4 was put back).
LATER = {
    "browne": "R:C1,C6,D1,E1,F2,F8,G3 G:A4,A5,B4,B6 B:E3,G7,G8,G9,H4,H7,H8,H9,I8,I9 g",
    "nehren": None,
    "cornelson": "..../...../..s.../..n..../sn..../...../.... S:S1,S2,S3 N:N1,N2,N3 s 0 0",
}


def _put_back_every_piece(rig):
    """Lift each piece on the board and put it back (150 ms up, 120 ms
    down: a person's pace); the sites after which a turn stood begun."""
    begun = []
    for i in range(rig.n):
        if rig.occ[i]:
            rig.lift(i, 150)
            rig.place(i, 120)
            if rig.ctl.matcher.n_started:
                begun.append(rig.game.SITE_NAMES[i])
    return begun


def _board_plays(rig):
    """The side to move becomes the board's seat: does it search and choose
    its move within 3 s (the 'think' event, as the serial line says it)?"""
    rig.ctl.seats.set_opponent(rig.ctl.pos.side)
    k = 0
    while k < 300 and not rig.ctl.engine_move:
        rig.wait(10)
        k += 1
    return bool(rig.ctl.engine_move) and any(e[0] == "think" for e in rig.events.seen)


def _positions(name, game):
    yield game.START
    if LATER[name]:
        yield LATER[name]


def test_pieces_put_back_leave_no_turn_begun_and_the_board_plays():
    for name, board in BOARDS:
        game = load(name)
        for position in _positions(name, game):
            rig = SiteRig(game, board, position)
            assert rig.ctl.matcher.n_started == 0
            begun = _put_back_every_piece(rig)
            assert begun == [], (name, position, begun)
            assert bytes(rig.occ) == bytes(rig.ctl.expected)  # (every piece in place)
            assert _board_plays(rig), (name, position, rig.events.seen[-3:])


def test_brownes_board_plays_after_the_mover_put_back_a_piece():
    # The case seen on the emulated chip: Red lifts D2 (a piece with a
    # capturing slide) and puts it back, then hands the turn to the board.
    game = load("browne")
    rig = SiteRig(game, hex_v1, game.START)
    rig.lift("D2", 150)
    rig.place("D2", 120)
    assert rig.ctl.matcher.n_started == 0
    rig.ctl.seats.set_opponent(0)
    rig.wait(50)
    assert rig.ctl.engine_move
    assert any(e[0] == "think" for e in rig.events.seen)


def test_a_drop_is_a_piece_put_down_this_turn():
    # The kernel that binds a free drop ("any empty site") to where a piece
    # now stands: a source lifted and put back before the board was at rest
    # (its stamps cleared) holds the piece that stood there, no drop.
    n = 8
    occ = bytearray(b"\x01\x00\x00\x00\x00\x00\x00\x00")  # site 0 as the game has it
    exp = bytearray(occ)
    vis = bytearray(n)
    vis[0] = 1  # lifted and put back this turn
    fp = array("i", [(LIFT << 8) | (1 << 10) | 0, (PLACE << 8) | 3, (PLACE << 8) | WILD])
    arr = array("i", bytes(8 * n))
    dep = array("i", bytes(8 * n))
    assert K.free_extra(occ, exp, vis, fp, 2, n, arr, dep) == -1
    # The same piece put down on its source after the slide's landing:
    # the drop, there.
    occ[3] = 1
    dep[0] = dep[n] = 1
    arr[3] = arr[n + 3] = 2
    arr[0] = arr[n] = 3
    assert K.free_extra(occ, exp, vis, fp, 2, n, arr, dep) == 0


def _lift_work(rig, names):
    """Each piece in names lifted and put back in turn: the sites whose
    moves were generated on each lift (the game's gen_open counted)."""
    g = rig.game
    real = g.gen_open
    calls = []

    def counting(pos, buf, k, sel):
        calls.append(sel)
        return real(pos, buf, k, sel)

    g.gen_open = counting
    try:
        out = []
        for name in names:
            del calls[:]
            rig.lift(name, 150)
            out.append(sorted(calls))
            rig.place(name, 120)
            assert not any(rig.ctl.matcher.visited), name  # nothing of it carried on
        return out
    finally:
        g.gen_open = real


def test_a_lift_after_pieces_put_back_costs_what_it_costs_at_once():
    # Issue 48.2: the lift's frame grew within a turn on the chip (Browne:
    # 30.7 ms for D2, 76.8 for E1, then 37.9 to 49.5 ms): every site lifted
    # and put back stayed "visited" (the turn never came back to rest), and
    # each lift generated the moves of all of them again.
    game = load("browne")
    names = ("C1", "D2", "E1", "E2", "E3", "F3", "G3")
    in_turn = _lift_work(SiteRig(game, hex_v1, game.START), names)
    for k in range(len(names)):
        alone = _lift_work(SiteRig(game, hex_v1, game.START), names[k:k + 1])[0]
        assert in_turn[k] == alone, (names[k], in_turn[k], alone)
    # (and none lists another piece's moves: -1 is the whole list, which
    # a lift of a piece that cannot move asks for to show the ones that can)
    assert set(in_turn[-1]) == set([-1, game.site_index("G3")]), in_turn[-1]
