# The face of Browne's Triad (docs/architecture.md, "The game face"): sites, footprints, lights,
# outcome texts, the quick move; and that the per-tick calls allocate
# nothing. Runs under CPython (pytest) and MicroPython (mp_run).
from array import array

import triad.games.browne as G
from triad.compat import micropython
from triad.games import DRAW, KIND_CELL, LIFT, PLACE, ROLE_GAME, ROLE_SOURCE

P = G.parse_position
F = G.format_position
# One turn buffer for the module: MAX_MOVES turns are 53 KB, and fresh ones
# per test fragment the 32-bit build's heap.
BUF = array("i", bytes(4 * G.MAX_MOVES))

FACE = (
    "NAME TITLE SIDES SIDE_NAMES SIDE_RGB N_SITES SITE_NAMES SITE_KIND site_xy "
    "site_shape site_index NotationError START parse_position format_position "
    "parse_move format_move Position MAX_MOVES outcome outcome_text score perft "
    "draw_watch expected footprint marks shows ROLE_RGB new_game "
    "FIRST_ALTERNATES SETTINGS apply_setting new_engine quick_move"
).split()


def step(site, act, role):
    return site | act << 8 | role << 10


def S(name):
    return G.site_index(name)


def test_face_is_complete():
    for name in FACE:
        assert hasattr(G, name), name
    assert G.NAME == "browne" and G.SIDES == "rgb" and len(G.SIDE_NAMES) == 3
    assert len(G.SIDE_RGB) == 3 and len(G.ROLE_RGB) == 3
    assert G.draw_watch is None and G.marks is None and callable(G.new_engine)
    assert G.FIRST_ALTERNATES is False and G.SETTINGS == {}
    assert issubclass(G.NotationError, ValueError)


def test_sites():
    assert G.N_SITES == 61 == len(G.SITE_NAMES) == len(G.SITE_KIND)
    for i in range(G.N_SITES):
        assert G.SITE_KIND[i] == KIND_CELL
        assert G.site_shape(i) == "hex"
        assert G.site_index(G.SITE_NAMES[i]) == i
    assert G.site_index("Z9") == -1
    # Neighbours are one unit apart, row A above row I, E5 in the middle.
    def dist2(a, b):
        xa, ya = G.site_xy(S(a))
        xb, yb = G.site_xy(S(b))
        return (xa - xb) ** 2 + (ya - yb) ** 2

    for a, b in (("E5", "E6"), ("E5", "F6"), ("E5", "F5"), ("E5", "D4"), ("E5", "D5"), ("A1", "B2")):
        assert abs(dist2(a, b) - 1.0) < 1e-4, (a, b)  # single floats on the board
    assert G.site_xy(S("A3"))[1] < G.site_xy(S("I7"))[1]
    x5, y5 = G.site_xy(S("E5"))
    for corner in ("A1", "A5", "E1", "E9", "I5", "I9"):
        x, y = G.site_xy(S(corner))
        assert abs((x - x5) ** 2 + (y - y5) ** 2 - 16.0) < 1e-3


def test_new_game_red_starts():
    text, meta = G.new_game(lambda: 1, 2)
    assert text == G.START and meta == ""
    assert P(text).side == 0


def test_expected_and_shows():
    pos = P(G.START)
    out = bytearray(G.N_SITES)
    G.expected(pos, out)
    assert sum(out) == 27 and out[S("C1")] == 1 and out[S("E5")] == 0
    assert G.shows(pos, S("C1")) == ROLE_GAME + 0
    assert G.shows(pos, S("A3")) == ROLE_GAME + 1
    assert G.shows(pos, S("I9")) == ROLE_GAME + 2
    assert G.shows(pos, S("E5")) == 0
    assert G.score(pos, 0) == G.score(pos, 1) == G.score(pos, 2) == 9


def test_footprint_of_a_turn_and_of_an_elimination():
    pos = P(G.START)
    m = G.parse_move(pos, "E3-H6@G5")
    out = [0] * 12
    n = G.footprint(pos, m, out)
    # Red lifts E3 and places it on H6; Blue's H7 and I7 come off; H6 is
    # green, so the bunny is Blue: a blue piece goes on G5.
    assert out[:n] == [
        step(S("E3"), LIFT, ROLE_SOURCE),
        step(S("H6"), PLACE, ROLE_GAME + 0),
        step(S("H7"), LIFT, ROLE_GAME + 2),
        step(S("I7"), LIFT, ROLE_GAME + 2),
        step(S("G5"), PLACE, ROLE_GAME + 2),
    ]
    pos = P("R:A1,E3 G:E7 B:F7,I9 r")
    m = G.parse_move(pos, "E3-E6")
    n = G.footprint(pos, m, out)
    got = sorted(out[2:n])
    assert out[:2] == [step(S("E3"), LIFT, ROLE_SOURCE), step(S("E6"), PLACE, ROLE_GAME)]
    assert got == sorted([step(S("E7"), LIFT, ROLE_GAME + 1), step(S("F7"), LIFT, ROLE_GAME + 2)])


class Lcg:
    def __init__(self, seed):
        self.s = seed

    def next(self, n):
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.s >> 8) % n


def test_footprint_replays_every_turn_on_the_expected_sites():
    rng = Lcg(5)
    buf = BUF
    out = [0] * 12
    occ = bytearray(G.N_SITES)
    after = bytearray(G.N_SITES)
    for g in range(6):
        pos = P(G.START)
        while True:
            n = pos.gen(buf, 0)
            if n == 0:
                break
            for i in range(0, n, 5):
                m = buf[i]
                G.expected(pos, occ)
                k = G.footprint(pos, m, out)
                assert out[0] & 255 == m & 63  # the lifted piece first (sel)
                for j in range(k):
                    site = out[j] & 255
                    act = (out[j] >> 8) & 3
                    assert occ[site] == (1 if act == LIFT else 0)
                    occ[site] = 1 if act == PLACE else 0
                pos.make(m)
                G.expected(pos, after)
                assert occ == after
                # What each site shows afterwards matches the roles placed.
                for j in range(k):
                    site = out[j] & 255
                    if (out[j] >> 8) & 3 == PLACE:
                        assert G.shows(pos, site) == out[j] >> 10
                pos.unmake(m)
            pos.make(buf[rng.next(n)])


def test_outcome_texts():
    assert G.outcome_text(P(G.START)) == ""
    pos = P("R:A1,E3 G:E7 B:F7,I9 r")
    pos.make(G.parse_move(pos, "E3-E6"))
    assert G.outcome(pos) == 0 and G.outcome_text(pos) == "r wins: g eliminated"
    pos = P("R:E3 G:E7 B:F7 r")
    pos.make(G.parse_move(pos, "E3-E6"))
    assert G.outcome_text(pos) == "r wins: g b eliminated"
    pos = P("R:E3 G:E7 B:F7,I9 r")
    pos.make(G.parse_move(pos, "E3-E6"))
    assert G.outcome(pos) == DRAW and G.outcome_text(pos) == "draw r b: g eliminated"
    assert G.outcome_text(P("R:A4,B5 G:A5 B:B6 g")) == "r wins: g cannot move"
    assert G.outcome_text(P("R:A3,B2,C1 G:I7,I8,I9 B:A1 b")) == "draw r g: b cannot move"


def test_quick_move_is_legal_and_takes_a_winning_elimination():
    rng = Lcg(11)
    buf = BUF
    for g in range(6):
        pos = P(G.START)
        while True:
            n = pos.gen(buf, 0)
            if n == 0:
                assert G.quick_move(pos) == 0
                break
            legal = [buf[i] for i in range(n)]
            before = F(pos)
            q = G.quick_move(pos)
            assert F(pos) == before
            assert q in legal
            pos.make(legal[rng.next(n)])
    # Red can end the game at once and win (A1 stays, Blue keeps one).
    pos = P("R:A1,E3 G:E7 B:F7,I9 r")
    assert G.format_move(pos, G.quick_move(pos)) == "E3-E6"
    # Nothing to choose between the slides (first one); the drop goes next
    # to Red's piece on A2 (A1 is the first such cell).
    pos = P("R:A1 G:A4 B:C3 r")
    assert G.format_move(pos, G.quick_move(pos)) == "A1-A2@A1"


def test_perft_through_the_face():
    pos = P(G.START)
    assert G.perft(pos, 1) == 144
    lines = []
    for m in pos.legal_moves():
        pos.make(m)
        lines.append(G.perft(pos, 1))
        pos.unmake(m)
    assert sum(lines) == 14161


def test_per_tick_calls_allocate_nothing():
    pos = P(G.START)
    buf = BUF
    out = bytearray(G.N_SITES)
    fp = array("i", bytes(4 * 12))
    n = pos.gen(buf, 0)
    m = buf[n // 2]
    sel = G.site_index("E3")
    micropython.heap_lock()
    try:
        k = pos.gen(buf, 0, sel)
        k += pos.gen(buf, 0)
        pos.make(m)
        pos.unmake(m)
        G.expected(pos, out)
        k += G.footprint(pos, m, fp)
        k += G.shows(pos, 0)
        k += G.outcome(pos) + 1
        k += G.score(pos, 2) - 9
    finally:
        micropython.heap_unlock()
    # E3's two slides with 36 drops each, all 144 turns, five steps.
    assert k == 72 + 144 + 5
