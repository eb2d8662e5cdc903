# The board's teaching mode (a tutorial in light): runs the lessons a game
# offers through its face (`game.LESSONS()`, data in the game's package), with
# no game knowledge of its own. A lesson's position is loaded into the
# controller while the player's saved game is held: the controller's store is
# taken away for the lesson and given back after it, so nothing a lesson does
# reaches the flash. The goal goes out on the serial line (`evt lesson <n>
# <goal>`), the lesson's pieces breathe in light, and each committed move is
# checked: right -> `evt lesson solved`, a green sweep, the next lesson;
# wrong -> `evt lesson wrong`, the position is loaded again (the set-up light
# shows where the piece goes back, in its value), and after two wrong tries
# the right move is lit as a hint (`evt lesson hint`). A lesson may carry a
# sixth field, the game settings it needs ((name, value) pairs: a mode);
# otherwise it runs under the game's defaults, and the held settings return.
#
# The App calls update() and render() only while a lesson runs (`active`),
# so the tick outside lessons stays as it was (allocation-free); a lesson's
# checks may allocate.
from triad.compat import const, ticks_add, ticks_diff
from triad.board import palette as pal

CELEBRATE_MS = const(1800)  # the green sweep after a solved lesson
SHOW_MS = const(600000)  # the right move stays lit this long (until moved)
WRONG_TRIES = const(2)  # wrong tries before the right move is shown
LESSON_RGB = (150, 110, 255)  # the lesson's pieces breathe in lavender

# Controller states and buttons (triad.board.states: no cycle, stays light).
from triad.board.states import SETUP as _SETUP, PLAY as _PLAY, CHOOSE as _CHOOSE, SELFTEST as _SELFTEST  # noqa: E402
from triad.board.states import BTN_NEW as _BTN_NEW, BTN_HINT as _BTN_HINT, BTN_MENU as _BTN_MENU  # noqa: E402


def lessons_of(game):
    """The lessons a game offers (a tuple), or (): the face's LESSONS()."""
    return game.LESSONS()


class Lessons:
    def __init__(self, ctl, events):
        self.ctl = ctl
        self.events = events
        self.active = False
        self.n = 0  # the lesson running, 1-based (0: none)
        self.items = _unset()  # the game's lessons while they run
        self.lit = bytearray(ctl.n)
        self.wrong = 0  # wrong tries in this lesson
        self.celebrating = False
        self.until = 0
        self.base = 0  # the controller's history length when the lesson stood
        self.now = 0
        self.goal_move = -1  # where the solving move put its piece (the sweep's centre)
        self._lent = None  # what the controller lent the lessons (Controller.lend)
        self._options = _unset()  # the game's settings held while lessons run

    def count(self):
        return len(self.items if self.items is not None else lessons_of(self.ctl.game))

    def goal(self, n):
        return self._all()[n - 1][0]

    def _all(self):
        if self.items is None:
            self.items = lessons_of(self.ctl.game)
        return self.items

    # -- start and stop ------------------------------------------------------

    def start(self, n):
        """Run lesson n (1-based): the saved game is held until stop()."""
        items = self._all()
        if not 1 <= n <= len(items):
            raise ValueError("lesson is 1..%d" % len(items))
        ctl = self.ctl
        if not self.active:
            if ctl.state == _SELFTEST:
                ctl.stop_selftest()
            # Nothing a lesson does is written to flash; the learner
            # plays, the board's engine rests.
            self._lent = ctl.lend()
            self._options = dict(ctl.record.options)
            self.active = True
        self._load(n)

    def stop(self, resume=True):
        """Leave the lessons: the store is given back and (resume) the saved
        game resumed; the board waits for its pieces (SYNC)."""
        if not self.active:
            return
        ctl = self.ctl
        ctl.give_back(self._lent)
        self._lent = None
        opts = self._options
        if opts:
            # The player's settings back in effect, for the resumed game
            # (which has its own rules) and the next: not by set_option,
            # whose restart wrote the lesson's position over the saved game
            # once the store was given back (a Capture game left for a
            # lesson came back as the lesson's empty table).
            ctl.record.keep_options(opts)
        self._options = None
        self.active = False
        self.celebrating = False
        self.n = 0
        self.items = None
        ctl.seats.show_hint(0, 0)
        self.events.event("lesson", "off")
        if resume and not ctl.load_saved():
            ctl.new_game()

    def _load(self, n):
        ctl = self.ctl
        g = ctl.game
        item = self.items[n - 1]
        goal, text, lit, solved, show = item[:5]
        # A lesson plays under the game's default settings, or the ones it
        # names (an optional sixth field of (name, value) pairs: a mode).
        opts = g.SETTINGS
        for k in opts:
            ctl.set_option(k, opts[k])
        for k, v in item[5] if len(item) > 5 else ():
            ctl.set_option(k, v)
        ctl.load_setup(text)  # the set-up light: each piece blinks in its value where it goes
        self.n = n
        self.wrong = 0
        self.celebrating = False
        self.base = len(ctl.record.history)
        lt = self.lit
        for i in range(ctl.n):
            lt[i] = 0
        for name in lit.split():
            s = g.site_index(name)
            if s >= 0:
                lt[s] = 1
        self.events.event("lesson", "%d %s" % (n, goal))
        self.events.event("setup", ctl.record.position_text())

    # -- the tick (only while active) -----------------------------------------

    def update(self, now):
        self.now = now
        ctl = self.ctl
        if self.celebrating:
            if ticks_diff(now, self.until) >= 0:
                if self.n < len(self.items):
                    self._load(self.n + 1)
                else:
                    self.events.event("lesson", "done")
                    self.stop()
            return
        if len(ctl.record.history) > self.base:
            self._check(ctl.record.history[self.base], now)

    def _check(self, m, now):
        ctl = self.ctl
        g = ctl.game
        goal, text, lit, solved, show = self.items[self.n - 1][:5]
        pos = g.parse_position(text)
        for k in ctl.record.options:  # the lesson's settings, as ctl.load applied them
            g.apply_setting(pos, k, ctl.record.options[k])
        move = g.format_move(pos, m)
        ok = solved(pos, m) if callable(solved) else move in solved
        if ok:
            self.celebrating = True
            self.until = ticks_add(now, CELEBRATE_MS)
            ctl.seats.show_hint(0, 0)
            self.events.event("lesson", "solved %d %s" % (self.n, move))
            return
        # The position again: the player puts the piece back where the
        # set-up light shows it (in the value it had); the goal is said again,
        # then what was wrong.
        wrong = self.wrong + 1
        self._load(self.n)
        self.wrong = wrong
        self.events.event("lesson", "wrong %d %s" % (self.n, move))
        if wrong >= WRONG_TRIES:
            self.show(now)

    def show(self, now=None):
        """Light the lesson's right move (the board's hint light)."""
        if not self.active or self.celebrating:
            return
        ctl = self.ctl
        text = self.items[self.n - 1][4]
        m = ctl.game.parse_move(ctl.pos, text)
        ctl.seats.show_hint(m, ticks_add(self.now if now is None else now, SHOW_MS))
        self.events.event("lesson", "hint %d %s" % (self.n, text))

    def next(self):
        """Skip to the next lesson (after the last: leave the lessons)."""
        if self.n < len(self.items):
            self._load(self.n + 1)
        else:
            self.stop()

    # -- buttons -----------------------------------------------------------------

    def button(self, ev, now):
        """A button event seen before the controller: returns it, or -1 when
        the lessons took it. Outside lessons only a short menu press in
        set-up is taken (it starts lesson 1; in set-up the dice show their
        values anyway). In a lesson: new leaves it (the saved game
        resumes), hint lights the right move, menu skips to the next
        lesson; menu and confirm still pick a Note 2 value (CHOOSE); the
        long holds (seat, level, self-test) are ignored."""
        if ev < 0:
            return ev
        self.now = now
        btn = ev >> 1
        long = ev & 1
        ctl = self.ctl
        if not self.active:
            if btn == _BTN_MENU and not long and ctl.state == _SETUP and self.count():
                self.start(1)
                return -1
            return ev
        if btn == _BTN_NEW:
            self.stop()
            return -1
        if ctl.state == _CHOOSE and not long:
            return ev
        if long:
            return -1
        if btn == _BTN_HINT:
            self.show(now)
            return -1
        if btn == _BTN_MENU:
            self.next()
            return -1
        return ev

    # -- light ---------------------------------------------------------------------

    def render(self, frame, now, occ):
        """Over the controller's frame: the green sweep after a solved
        lesson; otherwise the lesson's pieces breathe while the learner
        thinks (nothing lifted, no hint lit)."""
        ctl = self.ctl
        n = ctl.n
        if self.celebrating:
            step = (now // 100) % 12
            sweep = ctl.lights.sweep
            for i in range(n):
                p = sweep[i]
                if p == step or (p + 6) % 12 == step:
                    _set(frame, i, pal.TRIAD)
            return
        if ctl.state != _PLAY or ctl.matcher.lifted >= 0 or ctl.matcher.n_started or ctl.seats.hint_move:
            return
        k = (now // 40) % 40
        k = k if k < 20 else 40 - k  # 0..20..0 over 1.6 s
        lvl = 60 + k * 195 // 20
        lt = self.lit
        for i in range(n):
            if lt[i] and occ[i] and ctl.expected[i]:
                j = i * 3
                frame[j] = LESSON_RGB[0] * lvl // 255
                frame[j + 1] = LESSON_RGB[1] * lvl // 255
                frame[j + 2] = LESSON_RGB[2] * lvl // 255


def _set(frame, slot, rgb):
    j = slot * 3
    frame[j] = rgb[0]
    frame[j + 1] = rgb[1]
    frame[j + 2] = rgb[2]


def _unset():
    # None, typed as anything: the attribute is set later (mypy, untyped def).
    return None
