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

    def tick(ahead=0):
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


class _Pos:
    def copy(self):
        return self


class _StillClock:
    """Time moves only by work (1 ms between two reads) and by ticks."""

    def __init__(self):
        self.t = 5000

    def now(self):
        return self.t


class _LoopPlayer:
    """An engine's pattern: 1 ms of work between clock reads until the
    budget is spent, then `extra` reads more (an engine finishing work to
    have a move)."""

    def __init__(self, clk, extra):
        self.clk = clk
        self.now_ms = clk.now
        self.extra = extra
        self.reads_after = []
        self.game = None

    def choose(self, pos, start_text, history, level, budget_ms, events, clock):
        from triad.compat import ticks_diff

        t0 = self.now_ms()  # (as the board's player: the raw clock)
        while ticks_diff(clock(), t0 + budget_ms) < 0:
            self.clk.t += 1
        for _ in range(self.extra):
            self.clk.t += 1
            self.reads_after.append(clock())
        return 7


def test_the_read_that_ends_the_budget_leaves_its_tick_to_the_loop():
    # The tick due at the budget's last read would run inside the search and
    # make it end that much later; the thinker answers that read at once
    # (the loop ticks right after run() returns), and only that one.
    for extra in (0, 30):
        clk = _StillClock()
        pl = _LoopPlayer(clk, extra)
        th = T.Thinker(pl, Events())
        th.inline = False
        ticks = []
        next_due = [0]

        next_due[0] = clk.t
        read_only = []

        def tick(ahead=0):
            t = clk.t
            if ahead == T.READ_ONLY:
                read_only.append(t)  # (the App reads the switches only)
                return
            if t >= next_due[0]:
                ticks.append(t)
                clk.t += 5  # a tick costs 5 ms, one is due every 20 ms:
                next_due[0] += 20  # one falls due at the budget's last read

        th.tick = tick
        th.ask(T.MOVE, _Pos(), "", [], 5, 200)
        t_run = clk.t
        th.run()
        assert th.state == T.DONE and th.take() == 7
        end = t_run + 200
        if extra == 0:
            assert ticks and ticks[-1] < end, ticks  # no tick at the budget's last read ...
            assert clk.t - t_run == 200, clk.t - t_run  # ... so the search ended at its budget
            assert read_only == [end], read_only  # (the switches may still be read there)
        else:
            # an engine that goes on gets its ticks again from the next read
            # (the loop must not stall for it)
            assert [t for t in ticks if t > end], ticks
            assert len(pl.reads_after) == 30
        # and the ticks kept their period all through
        gaps = [b - a for a, b in zip(ticks, ticks[1:])]
        assert gaps and max(gaps) <= 21, gaps


def test_giving_the_engine_back_collects_at_once_but_not_inside_a_search():
    # A collection costs 12-20 ms on the RP2040: done when the engine is
    # given back (nobody plays), not forced later by the engine's buffers
    # when a hint loads it again; never from a tick inside a search (which
    # still holds the engine: nothing would come back).
    import triad.board.player as P

    class Gc:
        n = 0

        def collect(self):
            Gc.n += 1

    real = P.gc
    P.gc = Gc()
    try:
        for name, g in _games():
            th, pl, ev = _thinker(g)
            pl.max_nodes = 40
            done = []

            def tick(ahead=0):
                if not done and pl.engine is not None:
                    done.append(Gc.n)
                    pl.release()  # the seat changed during the search
                    done.append(Gc.n)

            th.tick = tick
            th.ask(T.MOVE, g.parse_position(g.START), g.START, [], 5, 100000)
            th.run()
            assert done and done[0] == done[1], (name, done)  # not inside the search
            assert th.state == T.DONE and th.take(), name  # the search kept its engine
            assert pl.engine is None
            th.tick = None
            th.ask(T.HINT, g.parse_position(g.START), g.START, [], 5, 100000)
            th.run()
            assert pl.engine is not None
            n = Gc.n
            pl.release()
            assert pl.engine is None and Gc.n == n + 1, name
            pl.release()  # nothing to give back: no collection
            assert Gc.n == n + 1, name
    finally:
        P.gc = real
