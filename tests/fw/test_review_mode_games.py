# The board's review mode (triad/board/review_mode.py, issue 46) in Browne's
# and Cornelson's games on their own boards (hex_v1, tri_v1): a seeded game
# on the table, looked back on; at a marked turn the move played blinks and
# the better move stands in the hint's cyan (the first site of its
# footprint); try again sets up the position before it and the better move,
# carried out with the pieces, is judged as good. (Nehren's, with its
# buttons and misses: test_review_mode.py.) Both interpreters.
from array import array

from siterig import SiteRig
from triad import games
from triad.board import controller as C
from triad.board import palette as pal
from triad.board import review as R
from triad.board.review_mode import ReviewMode, STEP, TRY
from triad.boards import hex_v1, tri_v1
from triad.games import LIFT, PLACE
from triad.games.engine_kit import Rng

BOARDS = (("browne", hex_v1), ("cornelson", tri_v1))
MOST = 30  # moves of a seeded game looked at


def _random_game(g, seed):
    rng = Rng(seed)
    pos = g.parse_position(g.START)
    buf = array("i", bytes(4 * g.MAX_SEL_MOVES))
    moves = []
    while g.outcome(pos) < 0 and len(moves) < MOST:
        # A random piece's (site's) move: the whole list of Browne's turns
        # is too big for a test's buffer (the review walks it a site at a time).
        sites = [s for s in range(g.N_SITES) if g.gen(pos, buf, 0, s)]
        if not sites:
            break
        s = sites[rng.below(len(sites))]
        m = buf[rng.below(g.gen(pos, buf, 0, s))]
        moves.append(m)
        pos.make(m)
    return moves


def _steps(g, pos, m):
    fp = array("i", bytes(4 * 64))
    n = g.footprint(pos, m, fp)
    return [((fp[j] >> 8) & 3, fp[j] & 255) for j in range(n) if fp[j] & 255 < g.N_SITES]


def _a_marked_game(g):
    """(moves up to and with a marked one, its mark), from the seeded games:
    the rules' marks (missed win, allows win) at once (no engine)."""
    for seed in range(1, 40):
        moves = _random_game(g, seed)
        rv = R.Review(g, g.parse_position(g.START), moves, nodes=0)
        while not rv.step() and not rv.marks:  # (the marks come in order: the first will do)
            pass
        for mk in rv.marks:
            return moves[:mk[0]], mk
    raise AssertionError("no seeded game of %s has a mark" % g.NAME)


def _tick(rig, rv, ev=-1):
    # The App's tick, its review hook written out.
    ev = rv.button(ev, rig.now) if ev >= 0 else ev
    if not rv.holds:
        rig.ctl.update(rig.now, rig.occ, rig.now - rig.changed, ev)
    if rv.active:
        rv.update(rig.now)
    if not rv.holds:
        rig.ctl.render(rig.frame, rig.now, rig.occ)
    if rv.active:
        rv.render(rig.frame, rig.now, rig.occ)
        rv.work()


def _wait(rig, rv, ms):
    end = rig.now + ms
    while rig.now < end:
        rig.now += 10
        _tick(rig, rv)


def _review_one(name, board):
    g = games.load(name)
    moves, mark = _a_marked_game(g)
    ply, kind, played, best = mark[0], mark[1], mark[2], mark[3]
    start = g.parse_position(g.START)
    pos = start.copy()
    texts = []
    for m in moves:
        texts.append(g.format_move(pos, m))
        pos.make(m)
    rig = SiteRig(g, board, g.START)
    rig.ctl.load(g.START, texts)
    rig.occ[:] = rig.ctl.expected
    rig.changed = rig.now
    rv = ReviewMode(rig.ctl, rig.events)
    rv.nodes = 0
    _wait(rig, rv, 1000)
    rv.start()
    _wait(rig, rv, 1000)
    assert rv.analysis.done
    rv.go(ply)
    before = start.copy()
    for m in moves[:ply - 1]:
        before.make(m)
    said = [t for k, t in rig.events.seen if k == "review"]
    best_text = g.format_move(before, best)
    assert said[-2:] == ["move %d %s" % (ply, texts[ply - 1]),
                         "mark %d %s better %s" % (ply, R.KIND_WORDS[kind], best_text)], said
    # The better move's first site steady in the hint's cyan, the move
    # played blinking at its own first site (when the two differ).
    hint_site = _steps(g, before, best)[0][1]
    own_site = _steps(g, before, played)[0][1]
    seen = set()
    for t in range(12):
        _wait(rig, rv, 100)
        assert rig.slot(hint_site) == pal.HINT
        seen.add(rig.slot(own_site) != (0, 0, 0))
    if own_site != hint_site:
        assert seen == {True, False}
    # Try again: the position before the marked move set up, then the
    # better move carried out with the pieces.
    assert rv.try_again() is None and rv.phase == TRY
    rig.occ[:] = rig.ctl.expected
    rig.changed = rig.now
    _wait(rig, rv, 1500)
    assert rig.ctl.state == C.PLAY and g.format_position(rig.ctl.pos) == g.format_position(before)
    for act, s in _steps(g, before, best):
        if act == LIFT:
            rig.occ[s] = 0
        elif act == PLACE:
            rig.occ[s] = 1
        else:  # lifted and put back
            rig.occ[s] = 0
            rig.changed = rig.now
            _wait(rig, rv, 300)
            rig.occ[s] = 1
        rig.changed = rig.now
        _wait(rig, rv, 1000)
    _wait(rig, rv, 1000)
    said = [t for k, t in rig.events.seen if k == "review"]
    assert "good %d %s" % (ply, best_text) in said, (said, best_text)
    assert rv.phase == STEP and rv.status().endswith("last try good " + best_text)
    rv.stop()
    assert not rv.active and rig.ctl.record.moves_text() == " ".join(texts)  # the game reviewed is back


def test_browne_reviewed_on_its_board():
    _review_one("browne", hex_v1)


def test_cornelson_reviewed_on_its_board():
    _review_one("cornelson", tri_v1)
