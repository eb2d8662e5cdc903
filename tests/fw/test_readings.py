# When the switches are read (issue 48): a tick reads them every 10 ms; a
# switch whose reading differs from the snapshot is read once more halfway
# to the next tick, so the debounce's agreeing readings take 10 ms instead
# of 20 (a lifted piece's lights come a scan sooner); and while the engine
# searches the switches are read whenever the next read of the engine's
# clock could come after the period, so no gap between two readings is
# longer than the period (the emulated chip's figures: bench/pico_board.py).
# Over fake pins and fake clocks, on CPython and on MicroPython.
from triad.board import controller as C
from triad.board import scan
from triad.board import thinker as T
from triad.compat import micropython
from test_scan import Desc, World, fresh_rp2, forget_rp2
from test_app_tick import tmp_dir, rm_tree
from test_tick_fast_paths import Lcg
import test_thinking

START = "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0"


def test_unsettled_equals_the_plain_loop():
    rng = Lcg(3)
    for n in (36, 64, 110):
        for limit in (1, 2, 3, 5):
            for k in range(60):
                count = bytearray(n)
                for _ in range(rng.next(4)):
                    count[rng.next(n)] = rng.next(limit + 1)
                if k % 3 == 0:
                    count[rng.next(n)] = limit  # the ends only, now and then
                assert scan._mid(count, n, limit) == scan.mid_py(count, n, limit), (n, limit, k, count)
    assert scan._mid(bytearray(b"\x00\x03\x03"), 3, 3) == 0
    assert scan._mid(bytearray(b"\x00\x03\x02"), 3, 3) == 1


def test_a_reading_between_scans_steps_the_debounce_but_not_the_rhythm():
    sc = scan.MatrixScanner(Desc(DEBOUNCE=3), now=1000)
    n = sc.n
    raw = bytearray(n)
    raw[4] = 1
    for t in (1000, 1010, 1020):
        sc.update(raw, t)
    assert sc.stable[Desc().MATRIX_CELL[4]] == 1 and not sc.unsettled()
    lost = sc._lost
    raw[4] = 0  # lifted
    assert not sc.update(raw, 1030) and sc.unsettled()
    assert not sc.read_between(raw, 1035) and sc.unsettled()
    assert sc._lost == lost and sc._last == 1030  # (the rhythm's lateness untouched)
    assert sc.update(raw, 1040) and not sc.unsettled()
    assert sc.stable[Desc().MATRIX_CELL[4]] == 0 and sc.changed_at == 1040


class Clock:
    def __init__(self):
        self.t = 1000

    def ticks_ms(self):
        return self.t

    def sleep_ms(self, ms):
        self.t += ms


class Serial:
    def read(self, limit=64):
        return b""

    def write(self, text):
        pass


def _reads_logged(app, clock):
    reads = []
    read_into = app.hw.matrix.read_into

    def logged(raw):
        reads.append(clock.t)
        read_into(raw)

    app.hw.matrix.read_into = logged
    return reads


def test_a_lifted_piece_is_believed_10_ms_after_it_was_first_seen():
    from triad.app import App

    d = Desc()
    w = World(d)
    root = tmp_dir()
    try:
        rp2 = fresh_rp2(w)
        clk = Clock()
        app = App(d, rp2.Hardware(d), Serial(), 7, root, ticks_ms=clk.ticks_ms, sleep_ms=clk.sleep_ms)
        ctl = app.ctl
        ctl.start_position(START)
        cmap = d.MATRIX_CELL
        at = bytearray(36)
        for m in range(36):
            at[cmap[m]] = m
            w.closed[m] = ctl.expected[cmap[m]]
        app.next_tick = clk.t
        for _ in range(150):
            app.step()
        assert ctl.state == C.PLAY
        reads = _reads_logged(app, clk)
        for _ in range(20):
            app.step()
        # At rest: one reading a tick, 10 ms apart (no reading between).
        assert [b - a for a, b in zip(reads, reads[1:])] == [10] * 19, reads
        c1 = 2  # a black 2 (black to move)
        del reads[:]
        w.closed[at[c1]] = 0  # lifted just before the next tick
        t_lift = clk.t
        seen = -1
        micropython.heap_lock()  # (the reading halfway allocates nothing either)
        try:
            for _ in range(5):
                app.step()
                if seen < 0 and not app.scanner.stable[c1]:
                    seen = clk.t
        finally:
            micropython.heap_unlock()
        assert reads[:3] == [t_lift, t_lift + 5, t_lift + 10], reads
        # believed on the third agreeing reading, at the tick 10 ms on, and
        # the controller has the piece in the hand there
        assert ctl.matcher.lifted == c1
        assert seen - 10 <= t_lift + 10, (seen, t_lift)
        # A switch that opens for one reading only is never believed.
        w.closed[at[c1]] = 1
        for _ in range(10):
            app.step()
        del reads[:]
        b1 = 1
        w.closed[at[b1]] = 0
        app.step()  # read open at the tick and halfway to the next
        w.closed[at[b1]] = 1
        for _ in range(5):
            app.step()
        assert app.scanner.stable[b1] == 1 and not app.scanner.unsettled()
        assert ctl.matcher.lifted != b1
        # (read open twice, 5 ms apart, closed at the next tick: a reading
        # that agrees with the snapshot ends the change, so at rest at once)
        steps = [b - a for a, b in zip(reads, reads[1:])]
        assert steps == [5, 5] + [10] * (len(steps) - 2), steps
    finally:
        forget_rp2()
        rm_tree(root)


class StillClock(test_thinking.Clock):
    """Time stands still at the App's own reads of the clock: the search's
    slices are charged at the engine's clock reads (below)."""

    def ticks_ms(self):
        return self.t


def still_rig():
    """test_thinking's board on a StillClock, the board playing black."""
    saved = test_thinking.Clock
    test_thinking.Clock = StillClock
    try:
        return test_thinking.Rig(START, 0)
    finally:
        test_thinking.Clock = saved


def test_no_gap_between_two_readings_is_longer_than_the_period_while_the_board_thinks():
    rig = still_rig()  # the board plays black, which moves first
    ctl = rig.ctl
    app = rig.app
    clk = rig.clock
    game = ctl.game
    new_engine = game.new_engine

    searching = [False]
    slices = [0]

    def slow_engine(level, tt, now_ms=None):
        clk.t += 9  # the engine's buffers: one step of 9 ms (LOAD_SLICE_MS)
        eng = new_engine(level, tt, now_ms)
        choose = eng.choose

        def timed_choose(*args):
            searching[0] = True
            slices[0] = 0
            try:
                return choose(*args)
            finally:
                searching[0] = False

        eng.choose = timed_choose
        return eng

    reads = []
    read_into = app.hw.matrix.read_into

    def logged(raw):
        reads.append((clk.t, app.thinker.state))
        read_into(raw)

    app.hw.matrix.read_into = logged
    game.new_engine = slow_engine
    th = app.thinker
    clock = th.clock

    def engine_clock(ahead=0):
        # The engine's slice before this read: 1 to 5 ms (SEARCH_SLICE_MS
        # is 5, the longest the engines are held to), varied.
        if searching[0]:
            # (the first: the engine's start, 8 ms before its first read)
            clk.t += 8 if slices[0] == 0 else 1 + (slices[0] * 7) % 5
            slices[0] += 1
        return clock(ahead)

    th.clock = engine_clock
    try:
        ctl.seats.player.engine = None  # loaded in the search, as at a first move
        ctl.seats.think_ms = 60000
        ctl.seats.player.max_nodes = 600
        assert rig.run_until(lambda: ctl.engine_move != 0, 200)
        inside = [i for i in range(1, len(reads)) if reads[i][1] == T.BUSY or reads[i - 1][1] == T.BUSY]
        assert len(inside) > 30, len(inside)
        gaps = [reads[i][0] - reads[i - 1][0] for i in inside]
        assert max(gaps) <= 10, gaps
        assert 9 in gaps or 10 in gaps  # (the 9 ms step and the slices did come close)
        # The controller still ticks once a period (the readings between
        # are readings only): as many ticks in the search as 10 ms periods.
        ticks = [t for t, st in rig.ticks if st == T.BUSY]
        span = ticks[-1] - ticks[0]
        assert span // 10 - 1 <= len(ticks) <= span // 10 + 2, (len(ticks), span)
        assert len(inside) > len(ticks)
    finally:
        game.new_engine = new_engine
        rig.close()


def test_inside_a_search_a_long_tick_reads_before_its_frame_and_at_rest_the_lift_goes_first():
    # A piece knocked over while the board searches: that tick's update
    # and lights ran 7.3 ms on the chip and tri_v1's frame 5.2 ms, a gap of
    # 12.5 ms between two readings. Inside a search the tick reads the
    # switches before its frame when the frame would end past the period;
    # at rest a lifted piece's frame goes out first (its light within 25 ms).
    rig = still_rig()  # the board plays black, which moves first
    ctl = rig.ctl
    app = rig.app
    clk = rig.clock
    th = app.thinker
    log = []  # ("read" | "frame", time, thinker state)
    read_into = app.hw.matrix.read_into

    def logged(raw):
        log.append(("read", clk.t, th.state))
        read_into(raw)

    app.hw.matrix.read_into = logged
    show = app.hw.leds.show

    def slow_show(frame):
        log.append(("frame", clk.t, th.state))
        clk.t += 5  # tri_v1's 141 LEDs
        show(frame)

    app.hw.leds.show = slow_show
    render = ctl.render
    slow = [False]

    def slow_render(frame, now, occ):
        if slow[0]:
            clk.t += 7  # the knock's or the lift's update and lights
        render(frame, now, occ)

    ctl.render = slow_render
    clock = th.clock

    def engine_clock(ahead=0):
        if th.state == T.BUSY:
            clk.t += 2  # the engine's slices
        return clock(ahead)

    th.clock = engine_clock
    knocked = rig.site_of_matrix(30)  # a white piece (black to move)
    try:
        ctl.seats.think_ms = 60000
        ctl.seats.player.max_nodes = 400

        def knock(now):
            if th.state == T.BUSY and len([1 for e in log if e[2] == T.BUSY]) > 20 and not slow[0]:
                rig.w.closed[knocked] = 0
                slow[0] = True

        rig.hook = knock
        assert rig.run_until(lambda: ctl.engine_move != 0, 400)
        frames = [i for i, e in enumerate(log) if e[0] == "frame" and e[2] == T.BUSY]
        assert slow[0] and frames
        # (to the reading after the tick that took the answer: that tick,
        # the board's move with its lights and words, is the search's last)
        reads = [(e[1], e[2]) for e in log if e[0] == "read"]
        gaps = [b[0] - a[0] for a, b in zip(reads, reads[1:]) if a[1] in (T.BUSY, T.DONE)]
        assert len(gaps) > 20 and max(gaps) <= 10, gaps
        # (a frame inside the search came right after a reading of its own)
        assert any(log[i - 1][0] == "read" and log[i - 1][1] == log[i][1] for i in frames)
    finally:
        rig.close()
    # At rest (the board plays nobody): a lifted piece's frame is sent with
    # no reading between the tick's own and it.
    rig = test_thinking.Rig(START, C.OPPONENT_OFF)
    try:
        ctl = rig.ctl
        clk = rig.clock
        log = []
        read_into = rig.app.hw.matrix.read_into

        def logged_at_rest(raw):
            log.append(("read", clk.t))
            read_into(raw)

        rig.app.hw.matrix.read_into = logged_at_rest
        show = rig.app.hw.leds.show

        def slow_show_at_rest(frame):
            log.append(("frame", clk.t))
            clk.t += 5
            show(frame)

        rig.app.hw.leds.show = slow_show_at_rest
        render = ctl.render

        def slow_render_at_rest(frame, now, occ):
            clk.t += 7
            render(frame, now, occ)

        ctl.render = slow_render_at_rest
        rig.run_until(lambda: False, 5)
        del log[:]
        lifted = 2  # a black 2 (black to move)
        rig.w.closed[rig.site_of_matrix(lifted)] = 0
        assert rig.run_until(lambda: ctl.matcher.lifted == lifted, 20)
        k = [i for i, e in enumerate(log) if e[0] == "frame"][-1]
        assert log[k - 1][0] == "read" and log[k][1] - log[k - 1][1] >= 7, log[k - 2:k + 1]
    finally:
        rig.close()


class MicroClock:
    """A clock in microseconds: ticks_ms is the whole ms (as on the chip),
    every read of it takes 50 us, a tick 3.65 ms, sleep_ms(n) n ms from the
    call (MicroPython's rp2 port: from inside a ms it wakes that much late)."""

    def __init__(self):
        self.us = 1000000

    def ticks_ms(self):
        self.us += 50
        return self.us // 1000

    def sleep_ms(self, ms):
        self.us += ms * 1000


def test_on_the_chip_the_loop_wakes_on_the_grid_not_a_fraction_of_a_ms_late():
    from triad.app import App

    d = Desc()
    w = World(d)
    root = tmp_dir()
    try:
        rp2 = fresh_rp2(w)
        clk = MicroClock()
        hw = rp2.Hardware(d)
        for exact in (False, True):
            app = App(d, hw, Serial(), 7, root, ticks_ms=clk.ticks_ms, sleep_ms=clk.sleep_ms)
            app._exact_wake = exact  # (drivers/rp2.py: on the chip only)
            starts = []
            tick = app.tick

            def timed(now, tick=tick):
                starts.append(clk.us)
                clk.us += 3650  # the tick's own time, ending inside a ms
                tick(now)

            app.tick = timed
            app.next_tick = clk.ticks_ms()
            for _ in range(30):
                app.step()
            gaps = [b - a for a, b in zip(starts[5:], starts[6:])]
            if exact:
                assert max(gaps) <= 10200, gaps  # (within the clock's reads of the grid point)
            else:
                assert max(gaps) >= 10500, gaps  # (what it was: a fraction of a ms late, each tick)
    finally:
        forget_rp2()
        rm_tree(root)
