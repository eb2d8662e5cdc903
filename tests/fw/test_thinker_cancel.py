# A cancel stops the search at the clock read that sees it, in every game
# with an engine (issue 15: "the search stops within 20 ms of a cancel").
# The thinker's clock raises Cancelled into the engine, so no engine may
# read the clock again, finish a root pass, score drops or play for
# mistakes after the cancel; and the interrupted engine must answer the
# next request as well as one that never was interrupted.
from array import array

from triad import games
from triad.board import thinker as T
from triad.board.player import Player


class Events:
    def __init__(self):
        self.seen = []

    def event(self, kind, text=""):
        self.seen.append((kind, text))


class Clock:
    def __init__(self):
        self.t = 5000

    def now(self):
        self.t += 1  # a clock read costs the search 1 ms
        return self.t


def _games():
    out = []
    for name in games.NAMES:
        g = games.load(name)
        if g.new_engine is not None:
            out.append((name, g))
    return out


def _thinker(g):
    clk = Clock()
    pl = Player(g, clk.now)
    ev = Events()
    th = T.Thinker(pl, ev)
    th.inline = False  # the loop runs the request (App.step), as on the board
    return th, pl, ev


def _legal(g, pos, m):
    buf = array("i", bytes(4 * 2000))
    n = g.gen(pos, buf, 0)
    for i in range(n):
        if buf[i] == m:
            return True
    return False


def _search(th, g, pos, cancel_at):
    """Ask for a hint and run it, cancelling from the loop's tick at the
    cancel_at-th clock read (0: never). Returns the reads after the cancel."""
    after = [0]
    reads = [0]

    def tick():
        reads[0] += 1
        if th.cancelled:
            after[0] += 1
        elif cancel_at and reads[0] == cancel_at:
            th.cancel()

    th.tick = tick
    th.ask(T.HINT, g.parse_position(g.START), g.START, [], 5, 100000)
    th.run()
    return reads[0], after[0]


def test_a_cancel_stops_every_engine_at_the_clock_read_that_sees_it():
    for name, g in _games():
        for cancel_at in (1, 2, 3, 40, 400):
            th, pl, ev = _thinker(g)
            reads, after = _search(th, g, None, cancel_at)
            assert reads == cancel_at, (name, cancel_at, reads)  # not one read more
            assert after == 0, (name, cancel_at)
            assert th.state == T.IDLE and th.move == 0, (name, cancel_at, th.state)
            assert ev.seen == [], (name, ev.seen)  # no "engine error", no quick move
            assert th.pos is None and th.history is None  # the copies are given back


def test_an_interrupted_engine_answers_the_next_request_as_a_fresh_one():
    for name, g in _games():
        pos = g.parse_position(g.START)
        # a fresh engine at a node cap
        th0, pl0, _ = _thinker(g)
        pl0.max_nodes = 120
        _search(th0, g, pos, 0)
        fresh = th0.take()
        assert fresh and _legal(g, pos, fresh), name
        # the same request after a search cancelled deep inside (the engine
        # is kept: the player still holds it)
        th, pl, ev = _thinker(g)
        _search(th, g, pos, 300)
        eng = pl.engine
        assert eng is not None, name
        pl.max_nodes = 120
        _search(th, g, pos, 0)
        again = th.take()
        assert pl.engine is eng, name
        assert again and _legal(g, pos, again), (name, again)
        if not hasattr(eng, "tt_lock"):  # (a table of earlier results may change the order)
            assert again == fresh, (name, g.format_move(pos, again), g.format_move(pos, fresh))
        assert ev.seen == [], (name, ev.seen)
