# The board thinks without stopping (issue 15; docs/architecture.md,
# "Thinking without stopping").
#
# The controller never runs a search itself: it posts a request into this
# mailbox (ask) and reads the answer on a later tick (take). The main loop
# runs the request between two ticks (run), and the search lends the CPU
# back to the loop: every engine reads its clock every few nodes, and the
# clock the thinker hands it (self.clock) first runs the loop's tick when
# one is due, then says the time. After a cancel that clock raises
# Cancelled out of the search at its next read, so a cancel
# never waits for the engine to unwind its iterations (an engine may finish
# a root pass or score a drop after its time is up, to have a move to give).
#
# Shared state: the search works on its own copy of the position and of the
# move history, made when the request is posted; the loop never touches the
# engine while it searches (a released engine is only dropped by the
# player, the search keeps its own reference). The only fields both sides
# write are this object's small ints (state, cancelled, move), and both run
# on one thread, so no lock is needed.
from triad.compat import const, ticks_add, ticks_diff

IDLE = const(0)  # nothing asked, or the answer was taken / dropped
ASKED = const(1)  # a request waits for the loop to run it
BUSY = const(2)  # the search runs (the loop ticks from inside it)
DONE = const(3)  # the answer waits in .move for the controller

_FAR = const(0x10000000)  # past any engine's deadline: ticks_diff(now + _FAR, d) > 0

# The tick hook's `ahead` (App._tick_if_due) for the read past the budget:
# the switches are read if they are due, the tick is left to the loop.
READ_ONLY = const(-1)

MOVE = const(1)  # the board's own move
HINT = const(2)  # a hint for the player to move


class Cancelled(Exception):
    """Raised by the thinker's clock into a search whose request was
    dropped: the engine stops at that clock read. Every engine copies its
    position afresh in choose(), so an interrupted search leaves nothing
    behind that the next one reads."""


_CANCELLED = Cancelled()  # made once: raising it allocates nothing new


class Thinker:
    def __init__(self, player, events):
        self.player = player
        self.events = events
        self.state = IDLE
        self.kind = 0
        self.move = 0
        self.cancelled = False
        self.pos = None  # the search's own copy of the position
        self.start_text = ""
        self.history = None  # the search's own copy of the move history
        self.level = 3
        self.budget_ms = 0
        # No loop to hand the search to (the controller's tests, host
        # tools): ask() searches at once, as the board did before.
        self.inline = True
        self.tick = None  # the loop's "tick if one is due", run from the clock
        self.clock = self._clock  # bound once: the engine calls it every few nodes
        self.checks = 0  # clock reads by the engine during the last search
        self._in_tick = False
        self.deadline = 0  # the request's budget, from run() (ms)
        self._late = False  # a clock read has said "the budget is spent"

    def ask(self, kind, pos, start_text, history, level, budget_ms):
        """Post a request (the thinker must be IDLE)."""
        self.kind = kind
        self.move = 0
        self.cancelled = False
        self.pos = pos.copy()
        self.start_text = start_text
        self.history = list(history)
        self.level = level
        self.budget_ms = budget_ms
        self.state = ASKED
        if self.inline:
            self.run()

    def cancel(self):
        """Drop the request: a search under way stops at its next clock read."""
        st = self.state
        if st == BUSY:
            self.cancelled = True
        elif st != IDLE:
            self.state = IDLE
            self.move = 0

    def take(self):
        """The answer (a move, 0 for none) once DONE; the thinker is IDLE again."""
        self.state = IDLE
        return self.move

    def run(self):
        """Search the posted request (called by the loop between two ticks)."""
        if self.state != ASKED:
            return
        self.state = BUSY
        self.cancelled = False
        self.checks = 0
        self._late = False
        self.deadline = ticks_add(self._time(), self.budget_ms)
        self.player.searching = True
        m = 0
        try:
            m = self.player.choose(self.pos, self.start_text, self.history, self.level, self.budget_ms,
                                   self.events, self.clock)
        except Cancelled:
            m = 0
        except Exception as e:  # a bug in an engine must not stop the board
            self.events.event("error", "engine: %s %s" % (type(e).__name__, e))
            try:
                m = self.player.game.quick_move(self.pos)
            except Exception:
                m = 0
        self.player.searching = False
        self.pos = None
        self.history = None
        if self.cancelled:
            self.state = IDLE
            self.move = 0
        else:
            self.state = DONE
            self.move = m or 0

    def _time(self):
        now = self.player.now_ms
        return now() if now is not None else 0

    def _clock(self, ahead=0):
        # The engine's clock: the loop ticks here when a tick is due.
        # ahead: how long the work until the next read may run (ms), where
        # the caller knows it is longer than a search's slice (the player
        # loading the engine): the loop reads the switches now if they
        # would be read late by then (App._tick_if_due).
        self.checks += 1
        now = self.player.now_ms
        if now is not None and not self._late and ticks_diff(now(), self.deadline) >= 0:
            # The first read past the request's budget answers at once, and
            # "far past" (an engine's own deadline, taken after a tick in its
            # first read, may be a tick later): the engine stops here, and
            # the tick that was due runs as soon as run() returns (App.step)
            # instead of inside the budget's last read, which made the
            # search end a tick (up to 12 ms on the chip) later. Once only:
            # an engine that goes on (it must have a move to give) gets its
            # ticks again from the next read.
            self._late = True
            t = self.tick
            if t is not None and not self._in_tick:
                # (the switches still read if they are due: the engine may
                # run on a while to have a move to give)
                self._in_tick = True
                try:
                    t(READ_ONLY)
                finally:
                    self._in_tick = False
            return ticks_add(now(), _FAR)
        t = self.tick
        if t is not None and not self._in_tick:
            self._in_tick = True
            try:
                t(ahead)
            finally:
                self._in_tick = False
        if self.cancelled:
            raise _CANCELLED
        if now is None:
            return 0
        t = now()
        if ticks_diff(t, self.deadline) >= 0:
            # (past the request's budget, the tick included: "far past", so
            # that an engine whose own deadline is a tick later stops now)
            return ticks_add(t, _FAR)
        return t
