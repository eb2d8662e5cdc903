# The engine's lifecycle for the board: loaded on first use through the
# game's face, given back when nobody needs it, replaced by the game's
# quick move when there is no RAM for it.
import gc

from triad.compat import const, ticks_diff

ENGINE_TT = const(512)  # transposition entries: about 6 KB on the RP2040
ENGINE_NODES_PER_MS = const(20)  # above what the RP2040 searches, so time rules there
# How long a step of loading the engine or of a search's start may run on
# the RP2040 (an import, the engine's buffers, the engine's first slice
# before its first clock read: Nehren 3.9, 7.1, 8.0 and 6.6 ms), said to the
# thinker's clock before each so that the loop reads the switches first
# (issue 48: no scan gap over 10 ms while the board thinks). Said as the
# whole scan period: the switches are read before every step, whatever the
# last reading's age (with 9 a reading under 1 ms old was skipped, and a
# step of 9 ms after it made a gap of 10 ms and more; a reading is 0.4 ms,
# the steps half a dozen).
LOAD_SLICE_MS = const(10)


def _no_clock():
    return 0


class Player:
    def __init__(self, game, now_ms=None):
        self.game = game
        self.now_ms = now_ms  # a live clock for the time budget, or None
        self.engine = None
        self.max_nodes = 0  # a node cap instead of time (tests, no clock)
        self.searching = False  # (set by the thinker around a search)

    def release(self):
        """Give the engine's RAM back (nobody plays), collected at once:
        a collection is 12-20 ms on the RP2040, better now, outside any
        search, than forced by the engine's buffers when a hint loads it
        again (its scans' longest gap). Not from a tick inside a search:
        the search still holds the engine, so nothing would come back."""
        if self.engine is not None:
            self.engine = None
            if not self.searching:
                gc.collect()

    def choose(self, pos, start_text, history, level, budget_ms, events, clock=None):
        """A move for the side to move: the engine's, or the quick one.
        clock: what the engine reads the time from (the thinker's, which
        lets the main loop tick while the engine searches), else now_ms."""
        g = self.game
        try:
            if g.new_engine is not None:
                now = self.now_ms
                t0 = now() if now is not None else 0  # (no tick here: the raw clock)
                said = clock  # the thinker's clock, told how long a step runs (a raw one is not)
                clock = clock or now or _no_clock
                # The search keeps its own reference: a tick run from the
                # clock may release the player's (the seat changed).
                eng = self.engine
                if eng is None:
                    # The engine's modules one at a time, the loop ticking
                    # between (on the RP2040 loading Nehren's engine in one
                    # piece took 35 ms: a gap in the scans).
                    for name in g.ENGINE_MODULES:
                        if said is not None:
                            said(LOAD_SLICE_MS)
                        __import__(name)
                        clock()
                    if said is not None:
                        said(LOAD_SLICE_MS)
                    eng = self.engine = g.new_engine(level, ENGINE_TT, clock)
                    clock()  # (the thinker's clock: the loop may tick here)
                eng.set_level(level)
                keys = None
                if getattr(eng, "uses_history", True):
                    # (an engine of a game without repetitions says so: the
                    # start's parse alone was 21 ms of Browne's on the chip)
                    # The parse and the keys each a step: together 7.4 ms
                    # after a tick on the chip (Nehren), a scan gap of 11.8.
                    if said is not None:
                        said(LOAD_SLICE_MS)
                    start = g.parse_position(start_text)
                    if said is not None:
                        said(LOAD_SLICE_MS)
                    keys = eng.history_keys(start, history)
                # The budget counts from the request: loading the engine and
                # the history keys came out of it (about 50 ms on the RP2040
                # at the engine's first use). (A cancel meanwhile raises out
                # of the thinker's clock.)
                # (the engine's first slice, before its first clock read)
                left = budget_ms - ticks_diff(said(LOAD_SLICE_MS) if said is not None else clock(), t0)
                if left < 1:
                    left = 1
                # A node cap as well as the time: a clock that stands still while
                # the board thinks (the simulator's virtual time) cannot stall it.
                nodes = self.max_nodes or budget_ms * ENGINE_NODES_PER_MS
                m = eng.choose(pos, left, clock, keys, nodes)
                if m:
                    return m
                # An engine that found no move where one exists is a fault,
                # said, and the quick move is played instead (issue 23).
                # Where none exists (a side left without pieces in a loaded
                # position: the game goes on) there is no fault to say.
                m = g.quick_move(pos)
                if m:
                    events.event("error", "the engine found no move: a quick move instead")
                return m
        except MemoryError:
            self.engine = None
            events.event("error", "no memory for the engine: a quick hint instead")
        return g.quick_move(pos)
