# The board stays alive while it thinks (issue 15): the main loop (App.step)
# runs the engine's search between two ticks, and the engine's clock runs
# the loop's tick whenever one is due. Over fake pins and a fake clock that
# moves 1 ms at every clock read while the engine searches (about 2 ms per
# 4 nodes, slower than the RP2040), these tests check that ticks go on at the
# scan period, that a knocked piece shows during the search, that buttons and
# the serial line answer, that lifting one's own piece cancels a hint, that
# the budget and a cancel are kept within 20 ms, and that the board's move
# arrives, equals the one searched without the loop, and is carried out.
from triad.board import controller as C
from triad.board import thinker as T
from triad.games.nehren.engine.search import Engine
from test_scan import Desc, World, fresh_rp2, forget_rp2
from test_app_tick import tmp_dir, rm_tree

START = "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0"
MIDDLE = "w3...w1w1/..w1.../...w2../.w2.b1.b1/....b1./b1..b2b3. w 0 0"


class Serial:
    def __init__(self):
        self.inbox = b""
        self.out = []

    def read(self, limit=64):
        d = self.inbox
        self.inbox = b""
        return d

    def write(self, text):
        self.out.append(text)


class Clock:
    def __init__(self):
        self.t = 1000
        self.thinker = None

    def ticks_ms(self):
        th = self.thinker
        if th is not None and th.state == T.BUSY:
            self.t += 1  # the search costs time between its clock reads
        return self.t

    def sleep_ms(self, ms):
        self.t += ms


class Rig:
    def __init__(self, position, opponent):
        from triad.app import App

        self.d = d = Desc()
        self.w = World(d)
        self.root = tmp_dir()
        rp2 = fresh_rp2(self.w)
        self.clock = clk = Clock()
        self.serial = Serial()
        self.app = app = App(d, rp2.Hardware(d), self.serial, 7, self.root, ticks_ms=clk.ticks_ms,
                             sleep_ms=clk.sleep_ms)
        clk.thinker = app.thinker
        self.ctl = ctl = app.ctl
        ctl.seats.set_opponent(C.OPPONENT_OFF)
        ctl.start_position(position)
        self.put(ctl.expected)
        app.next_tick = clk.t
        self.ticks = []  # (time, thinker state) of every controller update
        self.hook = None  # called at every update (a tick inside the search or not)
        orig = ctl.update

        def update(now, occ, stable_ms, button=-1):
            self.ticks.append((now, app.thinker.state))
            if self.hook is not None:
                self.hook(now)
            orig(now, occ, stable_ms, button)

        ctl.update = update
        self.run_until(lambda: ctl.state == C.PLAY, 300)
        ctl.seats.opponent = opponent
        ctl.seats.level = 5  # as deep as the budget allows: a long search

    def put(self, occ):
        cmap = self.d.MATRIX_CELL
        for m in range(len(cmap)):
            self.w.closed[m] = 1 if occ[cmap[m]] else 0

    def site_of_matrix(self, site):
        cmap = self.d.MATRIX_CELL
        for m in range(len(cmap)):
            if cmap[m] == site:
                return m
        return -1

    def run_until(self, cond, steps):
        for _ in range(steps):
            if cond():
                return True
            self.app.step()
        return cond()

    def close(self):
        forget_rp2()
        rm_tree(self.root)


def press(rig, b):
    rig.w.buttons_down[b] = 1
    rig.run_until(lambda: False, 8)
    rig.w.buttons_down[b] = 0


def own_site(ctl, side):
    for i in range(ctl.n):
        if ctl.game.owner(ctl.pos, i) == side:
            return i
    return -1


def busy_gaps(ticks):
    """Largest gap between two ticks of which at least one ran in a search."""
    worst = 0
    for i in range(1, len(ticks)):
        if ticks[i][1] == T.BUSY or ticks[i - 1][1] == T.BUSY:
            g = ticks[i][0] - ticks[i - 1][0]
            if g > worst:
                worst = g
    return worst


def test_the_board_keeps_ticking_while_it_thinks_and_its_move_is_the_same():
    rig = Rig(START, 0)  # the board plays black, which moves first
    ctl = rig.ctl
    try:
        ctl.seats.think_ms = 60000
        ctl.seats.player.max_nodes = 600  # the node cap rules: the move is fixed
        ok = rig.run_until(lambda: ctl.engine_move != 0, 200)
        assert ok
        inside = [t for t in rig.ticks if t[1] == T.BUSY]
        assert len(inside) > 20, len(inside)
        gap = busy_gaps(rig.ticks)
        assert 10 <= gap <= 12, gap  # the scan period, plus one look at the clock
        # The same move as the engine's on its own with the same nodes.
        eng = Engine(ctl.seats.level, 512)
        pos = ctl.game.parse_position(START)
        assert ctl.engine_move == eng.choose(pos, 60000, lambda: 0, [], 600)
        said = "evt think " + ctl.record.move_text(ctl.engine_move)
        assert [x for x in rig.serial.out if x.startswith(said)], rig.serial.out
        # Carried out as before: lift its piece, put it on its destination.
        fp = ctl.matcher.fp
        nf = ctl.game.footprint(ctl.pos, ctl.engine_move, fp)
        occ = bytearray(ctl.expected)
        for j in range(nf):
            e = fp[j]
            occ[e & 255] = 1 if (e >> 8) & 3 == 1 else 0
        rig.put(occ)
        assert rig.run_until(lambda: len(ctl.record.history) == 1, 300)
        assert ctl.pos.side == 1 and ctl.engine_move == 0
    finally:
        rig.close()


def test_a_knocked_piece_buttons_and_the_serial_line_answer_during_the_search():
    rig = Rig(START, 0)
    ctl = rig.ctl
    app = rig.app
    seen = {}
    site = own_site(ctl, 1)  # a white piece (black to move)
    knock = rig.site_of_matrix(site)
    try:
        ctl.seats.think_ms = 60000
        ctl.seats.player.max_nodes = 1200

        def hook(now):
            if app.thinker.state != T.BUSY:
                return
            k = len([1 for t in rig.ticks if t[1] == T.BUSY])
            if k == 5:
                rig.w.closed[knock] = 0  # knocked over
                rig.w.buttons_down[3] = 1  # menu pressed
                rig.serial.inbox = b"hello\n"
                seen["errors"] = ctl.errors
            if k == 12:
                rig.w.buttons_down[3] = 0
            if k == 45:  # a fault is told once it rests (controller.PASS_MS)
                seen["error_seen"] = ctl.errors > seen["errors"]
                seen["missing_lit"] = app.frame[site * 3] | app.frame[site * 3 + 1] | app.frame[site * 3 + 2]
                seen["values"] = ctl.values_until != 0
                seen["hello"] = [x for x in rig.serial.out if x.startswith("ok hello")]
                rig.w.closed[knock] = 1  # put back

        rig.hook = hook
        assert rig.run_until(lambda: ctl.engine_move != 0, 300)
        assert seen["error_seen"], seen
        assert seen["missing_lit"], seen
        assert seen["values"], seen
        assert seen["hello"], seen
        assert busy_gaps(rig.ticks) <= 12
    finally:
        rig.close()


def test_the_budget_is_kept_within_20_ms():
    rig = Rig(START, 0)
    ctl = rig.ctl
    app = rig.app
    th = app.thinker
    span = []
    try:
        ctl.seats.think_ms = 300
        orig = th.run

        def run():
            t0 = rig.clock.t
            orig()
            span.append(rig.clock.t - t0)

        th.run = run
        assert rig.run_until(lambda: ctl.engine_move != 0, 300)
        assert len(span) == 1 and 300 <= span[0] <= 320, span
    finally:
        rig.close()


def test_lifting_an_own_piece_cancels_the_hint_within_20_ms():
    rig = Rig(MIDDLE, C.OPPONENT_OFF)
    ctl = rig.ctl
    app = rig.app
    th = app.thinker
    marks = {}
    own = own_site(ctl, ctl.pos.side)  # a die of white's, white to move
    assert ctl.game.owner(ctl.pos, own) == ctl.pos.side
    try:
        orig_cancel = th.cancel
        orig_run = th.run

        def cancel():
            marks.setdefault("cancel", rig.clock.t)
            orig_cancel()

        def run():
            marks["start"] = rig.clock.t
            orig_run()
            marks["end"] = rig.clock.t

        th.cancel = cancel
        th.run = run

        def hook(now):
            if th.state == T.BUSY and "lift" not in marks and now - marks["start"] >= 100:
                marks["lift"] = now
                rig.w.closed[rig.site_of_matrix(own)] = 0

        rig.hook = hook
        press(rig, 2)  # hint
        assert rig.run_until(lambda: "end" in marks, 300)
        assert "cancel" in marks, marks
        assert marks["end"] - marks["cancel"] <= 20, marks
        assert ctl.seats.hint_move == 0 and not ctl.seats.hinting
        assert marks["cancel"] - marks["lift"] <= 30, marks  # the scan's debounce, then at once
        # Put back, ask again: this time the hint arrives.
        rig.w.closed[rig.site_of_matrix(own)] = 1
        rig.hook = None
        ctl.seats.player.max_nodes = 300
        rig.run_until(lambda: False, 100)
        press(rig, 2)
        assert rig.run_until(lambda: ctl.seats.hint_move != 0, 300)
    finally:
        rig.close()


def test_a_cancel_while_the_engine_loads_stops_the_search_within_20_ms():
    # On the RP2040 loading the engine (first use) and the history keys take
    # tens of ms, and the loop ticks in the clock reads between them, before
    # the engine has read its deadline. A cancel there (here: the seat
    # changed over the serial line) must still stop the search at once, not
    # after the whole budget.
    rig = Rig(START, 0)
    ctl = rig.ctl
    app = rig.app
    th = app.thinker
    clk = rig.clock
    marks = {}
    try:
        ctl.seats.think_ms = 2000
        ctl.seats.player.engine = None  # the first use: the engine is loaded
        orig_tick = clk.ticks_ms

        def ticks_ms():
            if th.state == T.BUSY and "loading" not in marks:
                marks["loading"] = clk.t
                clk.t += 15  # what loading the engine costs on the chip
            return orig_tick()

        clk.ticks_ms = ticks_ms
        app.ticks_ms = ticks_ms
        ctl.seats.player.now_ms = ticks_ms
        orig_cancel = th.cancel
        orig_run = th.run

        def cancel():
            if th.state == T.BUSY:
                marks.setdefault("cancel", clk.t)
            orig_cancel()

        def run():
            orig_run()
            marks.setdefault("end", clk.t)

        th.cancel = cancel
        th.run = run

        def hook(now):
            if th.state == T.BUSY and "asked" not in marks:
                marks["asked"] = now
                rig.serial.inbox = b"set opponent off\n"

        rig.hook = hook
        assert rig.run_until(lambda: "end" in marks, 300)
        # cancelled while loading, in the tick that read the line (this
        # clock moves 1 ms at each read, and the tick reads it twice on its
        # way: App._read_if_late)
        assert "cancel" in marks and marks["cancel"] - marks["asked"] <= 2, marks
        assert marks["end"] - marks["cancel"] <= 20, marks
        assert ctl.engine_move == 0 and not ctl.seats.thinking
        assert not [x for x in rig.serial.out if x.startswith("evt error")], rig.serial.out
    finally:
        rig.close()
