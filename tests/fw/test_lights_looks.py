# Each of the board's own displays has its own look (issue 16.7): a hint,
# the board's move waiting for a person, "thinking" and the level. They once
# all were steady cyan; now they differ in colour *and* in motion, so a
# player who cannot tell hues apart still tells them apart. Frames are
# rendered over time for each state, for every game on its own board, and
# compared; the rendering allocates nothing (heap_lock on MicroPython).
from array import array

from triad.compat import micropython
from triad.games import load, PLACE, TOUCH
from triad.board import palette as pal
from triad.board import controller as C
from triad.boards import pico_v1, hex_v1, tri_v1
from siterig import SiteRig

BOARDS = (("nehren", pico_v1), ("browne", hex_v1), ("cornelson", tri_v1))


def _rig(name, board):
    g = load(name)
    r = SiteRig(g, board, g.format_position(g.START) if not isinstance(g.START, str) else g.START)
    assert r.ctl.state == C.PLAY
    return r


def _a_move(r):
    """A legal move of the side to move and the two sites its light uses:
    (move, the piece to lift first or -1, its first placement). A move
    that begins with a placement (Cornelson's gem) lights only that."""
    g = r.game
    pos = r.ctl.pos
    buf = array("i", [0] * g.MAX_SEL_MOVES)
    fp = r.ctl.matcher.fp
    plain = None
    for site in range(g.N_SITES):
        n = g.gen(pos, buf, 0, site)
        for k in range(n):
            m = buf[k]
            nf = g.footprint(pos, m, fp)
            src = dst = -1
            for j in range(nf):
                act = (fp[j] >> 8) & 3
                s = fp[j] & 255
                if act == PLACE:
                    dst = s
                    break
                if src < 0 and act != TOUCH:
                    src = s
            if 0 <= dst < g.N_SITES and dst != src:
                if src >= 0:
                    return m, src, dst
                if plain is None:
                    plain = (m, src, dst)
    assert plain is not None, "no move with a placement in the start position"
    return plain


def _frames(r, sites, ms=2600, step=10):
    """The colours each site shows, tick by tick, over ms (render only)."""
    seen = [[] for _ in sites]
    t0 = r.now
    render = r.ctl.render
    frame = r.frame
    occ = r.occ
    for t in range(0, ms, step):
        now = t0 + t
        micropython.heap_lock()
        try:
            render(frame, now, occ)
        finally:
            micropython.heap_unlock()
        for k in range(len(sites)):
            j = sites[k] * 3
            seen[k].append((frame[j], frame[j + 1], frame[j + 2]))
    return seen


def _clear(ctl):
    ctl.seats.hint_move = 0
    ctl.matcher.engine_move = 0
    ctl.seats.thinking = False
    ctl.seats.hinting = False
    ctl.seats.banner = 0


def _distinct(seq):
    out = []
    for c in seq:
        if c not in out:
            out.append(c)
    return out


def _looks(name, board):
    r = _rig(name, board)
    ctl = r.ctl
    g = r.game
    m, src, dst = _a_move(r)
    far = r.now + 100000

    # The hint: the piece steady cyan, its destination steady in its role.
    _clear(ctl)
    ctl.seats.hint_move = m
    ctl.seats.hint_until = far
    sites = (dst,) if src < 0 else (src, dst)
    hint = _frames(r, sites)
    if src >= 0:
        assert _distinct(hint[0]) == [pal.HINT], name
    assert len(_distinct(hint[-1])) == 1 and hint[-1][0] != (0, 0, 0), name

    # The board's move at the same sites: the piece breathes in the mover's
    # colour, the destination in its role, in counter-phase.
    _clear(ctl)
    ctl.matcher.engine_move = m
    own = _frames(r, sites)
    rgb = g.SIDE_RGB[ctl.pos.side]
    assert len(_distinct(own[-1])) >= 10, name
    assert own[-1] != hint[-1], name
    if src >= 0:
        assert pal.HINT not in own[0], name
        assert len(_distinct(own[0])) >= 10, name
        shades = [tuple(v * k // 255 for v in rgb) for k in range(256)]
        assert all(c in shades for c in own[0]), name
        bright = [sum(c) for c in own[0]]
        dest = [sum(c) for c in own[1]]
        hi = bright.index(max(bright))
        lo = bright.index(min(bright))
        assert dest[hi] < dest[lo], name  # counter-phase: the light flows
        assert own[0] != hint[0], name

    # Thinking: one light circles the centre (with a faint tail).
    _clear(ctl)
    ctl.seats.thinking = True
    ring = g.CENTRE
    think = _frames(r, ring)
    for k in range(len(ring)):
        cols = _distinct(think[k])
        assert pal.THINK in cols and (0, 0, 0) in cols, (name, k, cols)
        assert pal.HINT not in cols
    # The bright light visits the ring's sites in their order.
    order = []
    for t in range(len(think[0])):
        for k in range(len(ring)):
            if think[k][t] == pal.THINK and (not order or order[-1] != k):
                order.append(k)
    if len(ring) > 1:
        assert order[: len(ring)] == [(order[0] + k) % len(ring) for k in range(len(ring))], (name, order)

    # The level: a gauge along the level row, its own colour, steady.
    _clear(ctl)
    ctl.seats.level = 2
    ctl.seats.banner = 2
    ctl.seats.banner_until = far
    lv = _frames(r, g.LEVEL_SITES, 600)
    for k in range(len(g.LEVEL_SITES)):
        cols = _distinct(lv[k])
        assert len(cols) == 1, (name, k, cols)
        if k < 2:
            assert cols[0] == pal.LEVEL
        else:
            assert cols[0] != pal.LEVEL and cols[0] != (0, 0, 0) and sum(cols[0]) < sum(pal.LEVEL) // 4

    # No two looks share a colour at full brightness.
    fulls = (pal.HINT, pal.THINK, pal.LEVEL, rgb)
    for a in range(4):
        for b in range(a + 1, 4):
            assert fulls[a] != fulls[b], name
    _clear(ctl)


def test_nehren_looks():
    _looks(*BOARDS[0])


def test_browne_looks():
    _looks(*BOARDS[1])


def test_cornelson_looks():
    _looks(*BOARDS[2])


def test_the_boards_own_move_breathes_through_the_controller():
    # Through update(), not set by hand: the seat set, the board chooses its
    # move, and the piece to lift breathes (never the hint's steady cyan).
    r = _rig("nehren", pico_v1)
    ctl = r.ctl
    ctl.seats.player.max_nodes = 2000
    ctl.seats.set_opponent(0)
    r.wait(20)
    m = ctl.engine_move
    assert m
    fp = ctl.matcher.fp
    ctl.game.footprint(ctl.pos, m, fp)
    src = fp[0] & 255
    seen = []
    for _ in range(80):
        r.wait(10)
        j = src * 3
        c = (r.frame[j], r.frame[j + 1], r.frame[j + 2])
        if c not in seen:
            seen.append(c)
    assert len(seen) >= 5 and pal.HINT not in seen
