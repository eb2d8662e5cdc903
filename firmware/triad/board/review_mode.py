# The board's review mode (issue 46): back through the game just played,
# each move in light and said on the serial line, the turns to learn from
# marked (board/review.py's analysis, which runs a slice at a time between
# the loop's ticks: work()), the better move in light, and a try again from
# the position before a marked turn.
#
# Like the lessons it borrows the controller (Controller.lend: nothing is
# written to flash, the board's seats rest) and knows no game: moves are
# shown by their footprints (the face), positions set up by the controller's
# set-up light (load_setup, as a lesson's), the try checked by the face's
# rules and the analysis.
#
# Two phases. STEP: the pieces stay as they are; the lights are the review's
# own (the App skips the controller's update and frame, `holds`): move ply's
# piece in its side's colour, where it went and what it took in their roles;
# a marked move blinks and the better move stands in the hint's cyan. TRY:
# the controller runs a turn from the position before the marked move (its
# set-up light guides the pieces back); the first move committed is judged.
#
# Buttons in STEP: menu the next move, hint the one before, confirm try
# again (a marked move), new leaves the review (the saved game resumes).
# In TRY: new goes back to the steps; the rest are the controller's.
# Entry: a short hint press once the game is over (also the finished game
# resumed from flash), or the serial line's `review on`.
from triad.compat import const, ticks_add, ticks_diff
from triad.board import palette as pal
from triad.board import review as R
from triad.board.lights import colour
from triad.board.player import ENGINE_TT
from triad.board.seats import THINK_BUDGET_MS
from triad.games import LIFT, ROLE_GAME, ROLE_REMOVE
from triad.games.face import MAX_STEPS

from triad.board.states import OVER as _OVER, SYNC as _SYNC, PLAY as _PLAY, SELFTEST as _SELFTEST  # noqa: E402
from triad.board.states import BTN_NEW as _BTN_NEW, BTN_HINT as _BTN_HINT, BTN_MENU as _BTN_MENU  # noqa: E402
from triad.board.states import BTN_CONFIRM as _BTN_CONFIRM  # noqa: E402

STEP = const(0)
TRY = const(1)
WRONG_TRIES = const(2)  # misses before the better move is shown
SHOW_MS = const(600000)  # the better move stays lit this long (until moved)
SLICE_MS = const(4)  # the analysis's share of a loop period (ms)
SLICES = const(200)  # and at most this many slices (a clock that stands still: the simulator's)
BOARD_NODES = const(300)  # the chip's effort: nodes a position (about 0.4 s of the RP2040's)
SEARCH_MS = THINK_BUDGET_MS  # a position's search at most: the board's thinking budget, not a second figure
BLINK_MS = const(600)  # a marked move blinks: 600 ms on, 600 off


class ReviewMode:
    def __init__(self, ctl, events, tick=None, ticks_ms=None):
        self.ctl = ctl
        self.events = events
        self.tick = tick  # the loop's "tick if one is due" (the App's), run from the search's clock
        self.ticks_ms = ticks_ms
        self.active = False
        self.phase = STEP
        self.ply = 0
        self.n = 0
        self.texts = []
        self.hist = []  # the moves (ints) reviewed
        self.m = 0  # the move shown
        self.start_text = ""
        self.meta = ""
        self.analysis = _unset()  # board/review.Review while the review runs
        self.pos = _unset()  # the position before move `ply` (STEP)
        self.wrong = 0
        self.last = ""  # the last try's outcome, for the status ("good c1c4")
        self.told = -1  # the ply whose mark was last said
        self.said_done = False
        self.now = 0
        self.nodes = BOARD_NODES
        self._lent = None
        self._fp = _unset()

    @property
    def holds(self):
        """The review draws and the controller rests (STEP)."""
        return self.active and self.phase == STEP

    # -- start and stop --------------------------------------------------------

    def can_start(self):
        """None, or why review cannot start now."""
        ctl = self.ctl
        if self.active:
            return None
        if ctl.state == _SELFTEST:
            return "busy the switch self-test is running"
        if not ctl.record.history:
            return "value no moves to review"
        return None

    def start(self):
        """Enter review of the game on the table (its moves so far)."""
        why = self.can_start()
        if why:
            raise ValueError(why)
        if self.active:
            return
        ctl = self.ctl
        rec = ctl.record
        g = ctl.game
        hist = list(rec.history)
        self.start_text = rec.start_text
        self.meta = rec.meta
        pos = self._start_pos()
        texts = []
        for m in hist:
            texts.append(g.format_move(pos, m))
            pos.make(m)
        self.texts = texts
        self.hist = hist
        self.n = len(hist)
        ctl.seats.stop()
        self._lent = ctl.lend()
        self.active = True
        self.phase = STEP
        self.wrong = 0
        self.told = -1
        self.said_done = False
        self._fp = _steps_buffer()
        eng = self._engine()
        self.analysis = R.Review(g, self._start_pos(), hist, nodes=self.nodes if eng is not None else 0,
                                 clock=self._clock, budget_ms=SEARCH_MS, engine=eng)
        self.events.event("review", "on %d" % self.n)
        self.go(self.n)

    def _engine(self):
        # The review's engine (None: no deeper marks).
        g = self.ctl.game
        if g.new_engine is None or not self.nodes:
            return None
        # A fresh one, as the page's review makes (the same marks as the
        # board's lights): the player's, with its table, is given back first.
        self.ctl.seats.player.release()
        try:
            return g.new_engine(R.LEVEL, ENGINE_TT)
        except MemoryError:
            return None

    def _start_pos(self):
        ctl = self.ctl
        g = ctl.game
        pos = g.parse_position(self.start_text)
        opts = ctl.record.options
        for k in opts:
            g.apply_setting(pos, k, opts[k])
        return pos

    def stop(self, resume=True):
        """Leave the review: the store back, and (resume) the game reviewed
        back on the table (its pieces put back as the lights show)."""
        if not self.active:
            return
        ctl = self.ctl
        ctl.give_back(self._lent)
        self._lent = None
        self.active = False
        self.analysis = None
        self.pos = None
        ctl.seats.show_hint(0, 0)
        self.events.event("review", "off")
        if resume:
            self._game_back()

    def _game_back(self):
        ctl = self.ctl
        if not ctl.load_saved():
            ctl.load(self.start_text, self.texts, self.meta)

    # -- stepping -----------------------------------------------------------------

    def go(self, ply):
        """Show move `ply` (1..n) in light and say it."""
        if ply < 1:
            ply = 1
        if ply > self.n:
            ply = self.n
        pos = self._start_pos()
        hist = self.hist
        for k in range(ply - 1):
            pos.make(hist[k])
        self.pos = pos
        self.ply = ply
        self.m = hist[ply - 1]
        self.told = -1
        self.events.event("review", "move %d %s" % (ply, self.texts[ply - 1]))
        self._tell_mark()

    def decided(self, ply):
        """Whether the analysis has decided move ply's mark."""
        a = self.analysis
        return a is not None and (a.done or a.ply >= ply)

    def mark(self):
        """The shown move's mark (ply, kind, move, best, reply), or None."""
        if not self.decided(self.ply):
            return None
        return self.analysis.mark_at(self.ply)

    def mark_text(self, mk):
        a = self.analysis
        g = self.ctl.game
        return "mark %d %s better %s" % (mk[0], a.kind_text(mk[1]), g.format_move(self.pos, mk[3]))

    def _tell_mark(self):
        if self.told == self.ply or not self.decided(self.ply):
            return
        self.told = self.ply
        mk = self.mark()
        if mk is not None:
            self.events.event("review", self.mark_text(mk))

    def status(self):
        """The `review` reply's text."""
        if not self.active:
            return "off"
        a = self.analysis
        out = "%d of %d %s" % (self.ply, self.n, self.texts[self.ply - 1])
        out += " analysed %s" % ("all" if a.done else a.ply)
        mk = self.mark()
        if mk is not None:
            out += " " + self.mark_text(mk)
        if self.phase == TRY:
            out += " trying"
            if self.wrong:
                out += " missed %d" % self.wrong
        elif self.last:
            out += " last try " + self.last
        return out

    # -- try again -----------------------------------------------------------------

    def try_again(self):
        """Set up the position before the shown (marked) move and wait for
        a better one. Returns None, or why not."""
        mk = self.mark()
        if mk is None:
            return "value move %d is not marked%s" % (self.ply, "" if self.decided(self.ply) else " (yet)")
        self.phase = TRY
        self.wrong = 0
        self.last = ""
        self.events.event("review", "try %d" % self.ply)
        self._setup()
        return None

    def _setup(self):
        ctl = self.ctl
        ctl.load_setup(ctl.game.format_position(self.pos))
        self.events.event("setup", ctl.record.position_text())

    def _end_try(self):
        self.phase = STEP
        self.ctl.seats.show_hint(0, 0)
        self._game_back()
        self.go(self.ply)

    def good(self, m):
        """Whether m, played before the marked move, is as good as the
        better move: the better move itself, a win, and for a win allowed
        a move after which the next player has no win at once."""
        mk = self.mark()
        g = self.ctl.game
        pos = self.pos
        if m == mk[3]:
            return True
        me = pos.side
        pos.make(m)
        won = g.outcome(pos) == me
        pos.unmake(m)
        if won:
            return True
        if mk[1] == R.ALLOWS:
            # (a checker of its own: the analysis may be walking its buffers)
            return R.Review(g, pos, (), nodes=0).allows_win(pos, m) == 0
        return False

    # -- the tick (only while active) ---------------------------------------------------

    def update(self, now):
        self.now = now
        a = self.analysis
        if a is not None and a.done and not self.said_done:
            self.said_done = True
            self.events.event("review", "done %d" % len(a.marks))
        if self.phase == STEP:
            self._tell_mark()
            return
        ctl = self.ctl
        hist = ctl.record.history
        if not hist:
            return
        m = hist[0]
        g = ctl.game
        text = g.format_move(self.pos, m)
        if self.good(m):
            self.last = "good " + text
            self.events.event("review", "good %d %s" % (self.ply, text))
            self._end_try()
            return
        wrong = self.wrong + 1
        self._setup()
        self.wrong = wrong
        self.events.event("review", "wrong %d %s" % (self.ply, text))
        if wrong >= WRONG_TRIES:
            best = self.mark()[3]
            ctl.seats.show_hint(best, ticks_add(now, SHOW_MS))
            self.events.event("review", "better %d %s" % (self.ply, g.format_move(self.pos, best)))

    def work(self):
        """The analysis's slices for SLICE_MS (the App's loop, between two
        ticks; a search inside reads the clock, which ticks the loop).
        True while there is more to do."""
        a = self.analysis
        if a is None or a.done:
            return False
        clock = self.ticks_ms
        t0 = clock() if clock is not None else 0
        k = 0
        while True:
            if a.step():
                return False
            if self.analysis is not a:
                return False  # (left from a tick inside a search)
            k += 1
            if k >= SLICES or (clock is not None and ticks_diff(clock(), t0) >= SLICE_MS):
                return True

    def _clock(self):
        # The search's clock: the loop ticks from here when one is due.
        if self.tick is not None:
            self.tick()
        return self.ticks_ms() if self.ticks_ms is not None else 0

    # -- buttons --------------------------------------------------------------------------

    def button(self, ev, now):
        """A button event seen before the controller: returns it, or -1
        when the review took it. Outside review a short hint once the game
        is over starts it."""
        if ev < 0:
            return ev
        self.now = now
        btn = ev >> 1
        long = ev & 1
        ctl = self.ctl
        if not self.active:
            if (btn == _BTN_HINT and not long and (ctl.state == _OVER or ctl.state == _SYNC)
                    and _over(ctl) and ctl.record.history):
                self.start()
                return -1
            return ev
        if self.phase == TRY:
            if btn == _BTN_NEW:
                self._end_try()
                return -1
            if long:
                return -1
            if btn == _BTN_HINT and ctl.state == _PLAY:
                best = self.mark()[3]
                ctl.seats.show_hint(best, ticks_add(now, SHOW_MS))
                self.events.event("review", "better %d %s" % (self.ply, ctl.game.format_move(self.pos, best)))
                return -1
            return ev  # (menu and confirm: a hidden outcome's choice)
        if btn == _BTN_NEW:
            self.stop()
        elif long:
            pass
        elif btn == _BTN_MENU:
            self.go(self.ply + 1)
        elif btn == _BTN_HINT:
            self.go(self.ply - 1)
        elif btn == _BTN_CONFIRM:
            why = self.try_again()
            if why:
                self.events.event("review", "nomark %d" % self.ply)
        return -1

    # -- light ----------------------------------------------------------------------------

    def render(self, frame, now, occ):
        """STEP: the whole frame (the controller's is not drawn): the move
        shown, its mark blinking, the better move steady in cyan."""
        if not self.active or self.phase != STEP or self.pos is None:
            return
        for i in range(len(frame)):
            frame[i] = 0
        g = self.ctl.game
        pos = self.pos
        mk = self.mark()
        on = mk is None or (now // BLINK_MS) & 1 == 0
        if on:
            self._draw(frame, pos, self.m, g.SIDE_RGB[pos.side])
        if mk is not None:
            self._draw(frame, pos, mk[3], pal.HINT)

    def _draw(self, frame, pos, m, first_rgb):
        """A move's footprint: its first step in first_rgb (the piece lifted,
        or where a new piece goes when the move lifts nothing first, as the
        board's hint lights Cornelson's gem: lights._render_move, issue
        35.7), its placements and the pieces it takes off in their roles."""
        g = self.ctl.game
        fp = self._fp
        nf = g.footprint(pos, m, fp)
        first = True
        for j in range(nf):
            e = fp[j]
            s = e & 255
            if s >= g.N_SITES:
                continue
            act = (e >> 8) & 3
            role = e >> 10
            if first:
                rgb = first_rgb
                first = False
            elif act == LIFT and role < ROLE_GAME and role != ROLE_REMOVE:
                rgb = pal.SOURCE
            else:
                rgb = colour(g, role)
            _set(frame, s, rgb)


def _over(ctl):
    return ctl.game.outcome(ctl.pos) >= 0 or ctl.record.draw


def _steps_buffer():
    from array import array

    return array("i", bytes(4 * MAX_STEPS))


def _set(frame, slot, rgb):
    j = slot * 3
    frame[j] = rgb[0]
    frame[j + 1] = rgb[1]
    frame[j + 2] = rgb[2]


def _unset():
    # None, typed as anything: the attribute is set later (mypy, untyped def).
    return None
