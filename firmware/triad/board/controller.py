# The board's brain: compares the debounced occupancy of the 36 cells with
# the occupancy the game expects and turns the difference into moves, errors
# and light. It never sees pins or pixels: it gets a stable snapshot, the
# time and button events, and fills an LED frame. Everything is recomputed
# from (game, sensed board, time) each tick, so any event sequence, a power
# cut included, ends in a state the player can recover from by putting the
# dice where the lights say.
from array import array

from triad.compat import const, micropython, ptr8, ticks_add, ticks_diff
from triad.games.nehren import core, notation
from triad.board import palette as pal
from triad.board import hint
from triad.games.nehren import repetition

N_CELLS = const(36)
SETTLE_MS = const(800)  # a die must rest this long before the board acts
HINT_MS = const(4000)
VALUES_MS = const(5000)
BANNER_MS = const(2000)
HINT_BUDGET_MS = const(1500)  # engine time for a hint
THINK_BUDGET_MS = const(2500)  # engine time for the board's own move
ENGINE_TT = const(512)  # transposition entries: about 6 KB on the RP2040
ENGINE_NODES_PER_MS = const(20)  # above what the RP2040 searches, so time rules there
OPPONENT_OFF = const(-1)

# States
SETUP = const(0)  # waiting for the dice of a freshly rolled start position
PLAY = const(1)
REMOVE = const(2)  # a move formed Triads: waiting for the die to be removed
OVER = const(3)
SYNC = const(4)  # resumed or loaded game: waiting for the board to match
NOTE2_PICK = const(5)  # Note 2: a die was put back, choosing its new value
SELFTEST = const(6)
STATE_NAMES = ("setup", "play", "remove", "over", "sync", "note2", "selftest")

# Button events, as produced by board.scan.Buttons: index * 2 + long
BTN_CONFIRM = const(0)
BTN_NEW = const(1)
BTN_HINT = const(2)
BTN_MENU = const(3)

# Status LED slots after the 36 cells in the frame
ST_TURN_BLACK = const(0)
ST_TURN_WHITE = const(1)
ST_TRIADS_BLACK = const(2)  # three slots
ST_TRIADS_WHITE = const(5)  # three slots
N_STATUS = const(8)
FRAME_BYTES = const(3 * (36 + 8))

CELLS = core.CELLS
_CELL_OF_SQ = bytearray(100)
for _i in range(N_CELLS):
    _CELL_OF_SQ[CELLS[_i]] = _i


def cell_of_sq(sq):
    return _CELL_OF_SQ[sq]


class NullEvents:
    def event(self, kind, text):
        pass


class Controller:
    def __init__(self, store=None, settings=None, roll=None, events=None, now_ms=None):
        self.store = store
        self.settings = settings
        self.roll = roll  # callable -> 1..3, the board's dice
        self.events = events or NullEvents()
        self.now_ms = now_ms  # a live clock for the engine's time budget, or None
        self.opponent = OPPONENT_OFF  # the side the board itself plays
        self.level = 3
        self.note2_triads = True  # Triads formed by a Note 2 action count
        self.engine = None
        self.engine_move = 0  # the board's chosen move, waiting to be carried out
        self.thinking = False
        self.think_ms = THINK_BUDGET_MS
        self.max_nodes = 0  # a node cap instead of time (tests, no clock)
        self.banner = 0  # 1: opponent mode shown, 2: level shown
        self.banner_until = 0
        self.draw = repetition.NONE
        self.watch = None
        self.held_store = None  # a store kept from writing (see hold_store)
        self.pos = core.Position()
        self.start_text = notation.START
        self.meta = ""
        self.history = []  # committed move ints since start_text
        self.next_start = core.BLACK
        self.state = SYNC
        self.settle_ms = SETTLE_MS
        self.expected = bytearray(N_CELLS)  # occupancy the game expects
        self.after = bytearray(N_CELLS)  # REMOVE: occupancy after the pending move
        self.removable = bytearray(N_CELLS)  # REMOVE: own dice in the new Triads
        self.triad_cells = bytearray(N_CELLS)  # cells of the latest Triads
        self.dest = bytearray(N_CELLS)  # lifted die: value shown at each legal destination
        self.dest_from = -1
        self.buf = array("i", bytes(8 * core.MAX_MOVES))  # two plies, for hints
        self.pending_from = -1
        self.pending_to = -1
        self.pending_value = 0  # REMOVE after a Note 2 turn: the value chosen
        self.lifted = -1  # own die lifted in PLAY on the previous tick
        self.pick_cell = -1
        self.pick_value = 0
        self.error_from = -1
        self.error_at = -1
        self.last_from = -1
        self.last_to = -1
        self.hint_move = 0
        self.hint_until = 0
        self.values_until = 0
        self.note2 = False
        self.errors = 0  # count of error situations entered (for tests and the protocol)
        self._in_error = False
        self.selftest = None
        self._state_before_test = PLAY
        self._sync_expected()

    # -- game set-up --------------------------------------------------------

    def load(self, position_text, moves=None, meta=""):
        """Start from a position (and optionally replay moves). Raises
        NotationError on bad input, leaving the controller unchanged."""
        pos = notation.parse_position(position_text)
        pos.note2_triads = self.note2_triads
        start = pos.copy()
        watch = repetition.DrawWatch(start)
        hist = []
        draw = repetition.NONE
        for text in moves or ():
            m = notation.parse_move(pos, text)
            pos.make(m)
            hist.append(m)
            draw = watch.push(pos, m)
        self.start_text = notation.format_position(start)
        self.meta = meta
        self.pos = pos
        self.history = hist
        self.watch = watch
        self.draw = draw
        self.engine_move = 0
        self.thinking = False
        self.last_from = self.last_to = -1
        if hist:
            self.last_from = cell_of_sq(core.m_from(hist[-1]))
            self.last_to = cell_of_sq(core.m_to(hist[-1]))
        self.triad_cells[:] = bytes(N_CELLS)
        self.hint_move = 0  # a hint belongs to the game it was asked in
        self.state = SYNC
        self._sync_expected()

    def load_saved(self):
        """Resume the game on flash, if any. Returns True if one was loaded."""
        if self.store is None:
            return False
        saved = self.store.load()
        warning = getattr(self.store, "last_error", None)
        if warning:
            # A torn or corrupt save was cut back to its last good move: say so.
            self.events.event("error", "saved game: " + str(warning))
        if not saved:
            return False
        try:
            self.load(saved[0], saved[1], saved[2])
        except ValueError as e:
            self.events.event("error", "saved game unreadable: " + str(e))
            return False
        self.events.event("resume", notation.format_position(self.pos))
        return True

    def start_position(self, position_text):
        """A position typed or sent by a host: it becomes a new saved game."""
        self.load(position_text)
        self._save("start", self.start_text, "loaded")
        self.events.event("position", self.start_text)

    def new_game(self):
        """Roll both players' dice and wait for them on their home rows."""
        b = sorted([self.roll() for _ in range(6)])
        w = sorted([self.roll() for _ in range(6)])
        side = "bw"[self.next_start]
        self.next_start ^= 1
        if self.settings is not None:
            self.settings.set("next_start", self.next_start)
            self.settings.save()
        # White's home row ascends from f6 to a6 as seen from White's seat.
        rank6 = "".join("w%d" % v for v in reversed(w))
        rank1 = "".join("b%d" % v for v in b)
        text = "%s/....../....../....../....../%s %s 0 0" % (rank6, rank1, side)
        self.load(text)
        self.meta = "roll b:%s w:%s start:%s" % (
            "".join(str(v) for v in b),
            "".join(str(v) for v in w),
            side,
        )
        self.state = SETUP
        self._save("start", self.start_text, self.meta)
        self.events.event("setup", self.start_text)

    def hold_store(self):
        """Stop saving until the player starts a new game by hand: the
        saved game on flash could not be read and must not be overwritten."""
        if self.store is not None:
            self.held_store = self.store
            self.store = None
            self.events.event("error", "saved game kept but not resumed; hold new to start saving a new game")

    def _save(self, what, *args):
        # A full or failing flash must not stop the game on the table: the
        # move stands, and the host is told that it is not saved.
        if self.store is None:
            return
        try:
            getattr(self.store, what)(*args)
        except Exception as e:
            self.events.event("error", "not saved (%s): %s" % (what, e))

    def _sync_expected(self):
        board = self.pos.board
        for i in range(N_CELLS):
            self.expected[i] = 1 if board[CELLS[i]] else 0
        self.note2 = self.pos.is_note2()
        self.dest_from = -1
        self.lifted = -1

    def moves_text(self):
        return " ".join(notation.format_move(m) for m in self.history)

    def position_text(self):
        return notation.format_position(self.pos)

    def state_name(self):
        return STATE_NAMES[self.state]

    # -- the tick -------------------------------------------------------------

    def update(self, now, occ, stable_ms, button=-1):
        """One control step: occ is the debounced snapshot (bytearray(36)),
        stable_ms how long it has been unchanged, button an event code or -1."""
        if button >= 0:
            self._button(button, now)
        st = self.state
        if st == SELFTEST:
            self.selftest.update(occ, now)  # type: ignore[union-attr]
            return
        if st == REMOVE:
            self._update_remove(occ, stable_ms)
            return
        if st == OVER:
            return
        d = _diff(occ, self.expected)
        nmiss = d & 63
        nextra = (d >> 6) & 63
        miss = ((d >> 12) & 63) - 1
        extra = ((d >> 18) & 63) - 1
        self.error_from = -1
        self.error_at = -1
        if st == SETUP or st == SYNC:
            if nmiss == 0 and nextra == 0 and stable_ms >= self.settle_ms:
                self._enter_play()
            return
        if st == NOTE2_PICK:
            if nmiss or nextra:
                self.state = PLAY  # the die was lifted again: choose afresh
                self.pick_cell = -1
            else:
                return
        # PLAY
        if nmiss == 0 and nextra == 0 and self.pos.side == self.opponent and not self.engine_move:
            # The board's turn: show that it thinks (one tick), then choose.
            if not self.thinking:
                self.thinking = True
                return
            self.thinking = False
            self.engine_move = self._choose(self.level, self.think_ms)
            self.dest_from = -1
            if self.engine_move:
                self.events.event("think", notation.format_move(self.engine_move))
            return
        if nmiss == 0 and nextra == 0:
            if self.lifted >= 0 and self.note2:
                self._enter_pick(self.lifted)
            self.lifted = -1
            self._in_error = False
            return
        own = self._is_own(miss)
        if nmiss == 1 and own:
            if self.dest_from != miss:
                self._compute_dest(miss)
            self.lifted = miss
            if nextra == 0:
                self._in_error = False
                return
            if nextra == 1 and self.dest[extra]:
                self._in_error = False
                if stable_ms >= self.settle_ms:
                    self._place(miss, extra)
                return
            if nextra == 1:
                self.error_from = miss
                self.error_at = extra
        self.lifted = -1 if nmiss != 1 or not own else self.lifted
        if not self._in_error:
            self._in_error = True
            self.errors += 1

    def _is_own(self, cell):
        if cell < 0:
            return False
        if self.engine_move and CELLS[cell] != self.engine_move & 127:
            return False  # the board chose another die
        p = self.pos.board[CELLS[cell]]
        return p != 0 and (p >> 2) == self.pos.side

    def _compute_dest(self, cell):
        dest = self.dest
        for i in range(N_CELLS):
            dest[i] = 0
        n = self.pos.gen(self.buf, 0, CELLS[cell])
        buf = self.buf
        em = self.engine_move
        for i in range(n):
            m = buf[i]
            to = (m >> 7) & 127
            if em and to != (em >> 7) & 127:
                continue
            if to != CELLS[cell]:
                dest[_CELL_OF_SQ[to]] = (m >> 14) & 3
        self.dest_from = cell

    def _enter_play(self):
        self.state = OVER if self.pos.game_over() or self.draw else PLAY
        self.lifted = -1
        self._in_error = False
        self.events.event("play", notation.format_position(self.pos))

    def _enter_pick(self, cell):
        # Note 2 (a): the die was put back on its own cell; the player now
        # picks the value it was turned to (menu cycles, confirm commits).
        v = self.pos.board[CELLS[cell]] & 3
        em = self.engine_move
        if em and (em & 127) != (em >> 7) & 127:
            return  # the board's move is not a turn in place
        self.pick_cell = cell
        self.pick_value = (em >> 14) & 3 if em else (1 if v != 1 else 2)
        self.state = NOTE2_PICK

    def _place(self, fr, to):
        """A lifted die rests on a legal destination: commit, or wait for the
        removal when the move forms Triads."""
        sq_fr = CELLS[fr]
        sq_to = CELLS[to]
        n = self.pos.gen(self.buf, 0, sq_fr)
        buf = self.buf
        first = -1
        count = 0
        rem = self.removable
        for i in range(N_CELLS):
            rem[i] = 0
        for i in range(n):
            m = buf[i]
            if (m >> 7) & 127 == sq_to:
                if first < 0:
                    first = m
                count += 1
                r = (m >> 18) & 127
                if r and (not self.engine_move or r == (self.engine_move >> 18) & 127):
                    rem[_CELL_OF_SQ[r]] = 1
        if first < 0:
            return
        if (first >> 18) & 127 == 0:
            self._commit(first)
            return
        self.pending_from = fr
        self.pending_to = to
        self.pending_value = 0
        self._mark_triads(sq_fr, sq_to, (first >> 14) & 3)
        after = self.after
        after[:] = self.expected
        after[fr] = 0
        after[to] = 1
        self.state = REMOVE
        self.events.event("triad", notation.cell_name(sq_fr) + notation.cell_name(sq_to))

    def _mark_triads(self, sq_fr, sq_to, value):
        board = self.pos.board
        tc = self.triad_cells
        for i in range(N_CELLS):
            tc[i] = 0
        saved_fr = board[sq_fr]
        saved_to = board[sq_to]
        board[sq_fr] = 0
        board[sq_to] = (self.pos.side << 2) | value
        for d in core.AXES:
            for k in (-2, -1, 0):
                a = sq_to + k * d
                if core.is_triad(board[a], board[a + d], board[a + d + d]):
                    tc[_CELL_OF_SQ[a]] = 1
                    tc[_CELL_OF_SQ[a + d]] = 1
                    tc[_CELL_OF_SQ[a + d + d]] = 1
        board[sq_to] = saved_to
        board[sq_fr] = saved_fr

    def _update_remove(self, occ, stable_ms):
        d = _diff(occ, self.after)
        nmiss = d & 63
        nextra = (d >> 6) & 63
        miss = ((d >> 12) & 63) - 1
        extra = ((d >> 18) & 63) - 1
        self.error_from = -1
        self.error_at = -1
        if nmiss == 0 and nextra == 0:
            self._in_error = False
            return
        if nmiss == 1 and nextra == 0 and self.removable[miss]:
            self._in_error = False
            if stable_ms >= self.settle_ms:
                self._commit_removal(miss)
            return
        if nmiss == 1 and miss == self.pending_to and nextra == 1:
            # The moved die was picked up again and put elsewhere: a
            # correction of the move before it was completed.
            self.state = PLAY
            self.triad_cells[:] = bytes(N_CELLS)
            self.dest_from = -1
            self.lifted = -1  # not a PLAY lift: putting it back is no Note 2 pick
            return
        if nmiss == 1:
            self.error_at = miss
        if not self._in_error:
            self._in_error = True
            self.errors += 1

    def _commit_removal(self, cell):
        n = self.pos.gen(self.buf, 0, CELLS[self.pending_from])
        sq_to = CELLS[self.pending_to]
        sq_rem = CELLS[cell]
        for i in range(n):
            m = self.buf[i]
            if (m >> 7) & 127 != sq_to or (m >> 18) & 127 != sq_rem:
                continue
            if self.pending_value and (m >> 14) & 3 != self.pending_value:
                continue
            self._commit(m)
            return

    def _commit(self, m):
        text = notation.format_move(m)
        # Saved before the board shows it: a committed move survives a
        # power cut at any later instant.
        self._save("append", text)
        mover = self.pos.side
        self.pos.make(m)
        self.history.append(m)
        self.last_from = cell_of_sq(core.m_from(m))
        self.last_to = cell_of_sq(core.m_to(m))
        if not core.m_removed(m):
            self.triad_cells[:] = bytes(N_CELLS)
        self.pending_from = self.pending_to = -1
        self.pick_cell = -1
        self.hint_move = 0
        self.engine_move = 0
        self._sync_expected()
        self.events.event("move", text)
        if self.watch is not None:
            self.draw = self.watch.push(self.pos, m)
        if self.pos.game_over():
            self.state = OVER
            self.events.event("over", "bw"[mover])
        elif self.draw:
            self.state = OVER
            self.events.event("over", "draw " + repetition.NAMES[self.draw])
        else:
            self.state = PLAY

    # -- buttons ---------------------------------------------------------------

    def _button(self, ev, now):
        btn = ev >> 1
        long = ev & 1
        st = self.state
        if st == SELFTEST:
            if btn == BTN_MENU and long:
                self.stop_selftest()
            else:
                self.selftest.note_button(ev)  # type: ignore[union-attr]
            return
        if btn == BTN_NEW and (long or st == OVER):
            if self.held_store is not None:
                self.store = self.held_store  # the player chose a new game
                self.held_store = None
            self.new_game()
            return
        if btn == BTN_MENU and long:
            self.start_selftest()
            return
        if st == NOTE2_PICK:
            if (btn == BTN_MENU or btn == BTN_HINT) and not self.engine_move:
                v = self.pick_value % 3 + 1
                if v == self.pos.board[CELLS[self.pick_cell]] & 3:
                    v = v % 3 + 1
                self.pick_value = v
            elif btn == BTN_CONFIRM:
                self._commit_pick()
            return
        if btn == BTN_HINT and long:
            # Cycle who the board plays: nobody, White, Black.
            self.set_opponent({OPPONENT_OFF: 1, 1: 0, 0: OPPONENT_OFF}[self.opponent])
            self.banner = 1
            self.banner_until = ticks_add(now, BANNER_MS)
        elif btn == BTN_CONFIRM and long:
            self.set_level(self.level % 5 + 1)
            self.banner = 2
            self.banner_until = ticks_add(now, BANNER_MS)
        elif btn == BTN_HINT and st == PLAY and self.pos.side != self.opponent:
            self.hint_move = self._choose(5, HINT_BUDGET_MS)
            self.hint_until = ticks_add(now, HINT_MS)
        elif btn == BTN_MENU:
            self.values_until = ticks_add(now, VALUES_MS)

    def _commit_pick(self):
        sq = CELLS[self.pick_cell]
        n = self.pos.gen(self.buf, 0, sq)
        first = 0
        for i in range(n):
            m = self.buf[i]
            if (m >> 7) & 127 == sq and (m >> 14) & 3 == self.pick_value:
                first = m
                break
        if not first:
            return
        if (first >> 18) & 127:
            # The turn forms Triads: the die stays where it is and the usual
            # removal follows.
            self.pending_from = self.pending_to = self.pick_cell
            self._mark_triads(sq, sq, self.pick_value)
            # gen() returned moves with removals; find them again in REMOVE.
            rem = self.removable
            for i in range(N_CELLS):
                rem[i] = 0
            for i in range(n):
                m = self.buf[i]
                if (m >> 7) & 127 == sq and (m >> 14) & 3 == self.pick_value:
                    r = (m >> 18) & 127
                    if not self.engine_move or r == (self.engine_move >> 18) & 127:
                        rem[_CELL_OF_SQ[r]] = 1
            self.after[:] = self.expected
            self.pending_value = self.pick_value
            self.state = REMOVE
            self.events.event("triad", notation.cell_name(sq) + "=" + str(self.pick_value))
            return
        self._commit(first)

    def set_opponent(self, side):
        """The board plays `side` (0 Black, 1 White) or nobody (-1)."""
        self.opponent = side
        self.engine_move = 0
        self.thinking = False
        self.dest_from = -1
        if side == OPPONENT_OFF:
            self.engine = None  # give its RAM back
        self._save_setting("opponent", side + 1)
        self.events.event("opponent", "off" if side < 0 else "bw"[side])

    def set_level(self, level):
        self.level = level
        if self.engine is not None:
            self.engine.set_level(level)
        self._save_setting("level", level)

    def set_note2_triads(self, on):
        self.note2_triads = bool(on)
        self.pos.note2_triads = self.note2_triads
        self._sync_expected()

    def _save_setting(self, name, value):
        s = self.settings
        if s is None:
            return
        try:
            s.set(name, value)
            s.save()
        except Exception as e:
            self.events.event("error", "setting not saved: %s" % e)

    def _choose(self, level, budget_ms):
        """A move from the engine (loaded on first use), or from the quick
        heuristic when there is no room for the engine."""
        try:
            if self.engine is None:
                from triad.engine.search import Engine

                self.engine = Engine(level, ENGINE_TT)
            eng = self.engine
            eng.set_level(level)
            keys = eng.history_keys(notation.parse_position(self.start_text), self.history)
            clock = self.now_ms
            # A node cap as well as the time: a clock that stands still while
            # the board thinks (the simulator's virtual time) cannot stall it.
            nodes = self.max_nodes or budget_ms * ENGINE_NODES_PER_MS
            m = eng.choose(self.pos, budget_ms, clock or _no_clock, keys, nodes)
            eng.set_level(self.level)
            if m:
                return m
        except MemoryError:
            self.engine = None
            self.events.event("error", "no memory for the engine: a quick hint instead")
        return hint.best_move(self.pos, self.buf)

    def start_selftest(self):
        from triad.board.selftest import SelfTest

        if self.state != SELFTEST:
            self._state_before_test = self.state
        self.selftest = SelfTest()
        self.state = SELFTEST
        self.events.event("selftest", "start")

    def stop_selftest(self):
        if self.selftest is not None:
            self.events.event("selftest", self.selftest.report())
        self.selftest = None
        self.state = SYNC if self._state_before_test != SETUP else SETUP
        self.dest_from = -1

    # -- light -----------------------------------------------------------------

    def render(self, frame, now, occ):
        """Fill the LED frame from the game, the sensed board and the time."""
        _clear(frame, FRAME_BYTES)
        st = self.state
        if st == SELFTEST:
            self.selftest.render(frame, now)  # type: ignore[union-attr]
            return
        fast = (now // pal.FAST_BLINK_MS) & 1
        slow = (now // pal.SLOW_BLINK_MS) & 1
        board = self.pos.board
        self._status(frame, now)
        if st == OVER:
            self._render_win(frame, now)
            return
        if ticks_diff(self.values_until, now) > 0:
            for i in range(N_CELLS):
                p = board[CELLS[i]]
                if p and occ[i]:
                    _set(frame, i, pal.VALUE[p & 3])
        elif self.last_from >= 0:
            _set(frame, self.last_from, pal.LAST_MOVE)
            _set(frame, self.last_to, pal.LAST_MOVE)
        if st == REMOVE:
            self._render_remove(frame, occ, fast, slow)
            return
        exp = self.expected
        # Differences between the board and the game (the loop draws nothing
        # when there are none, except the home cells' values in SETUP).
        if st == SETUP or _diff(occ, exp):
            for i in range(N_CELLS):
                o = occ[i]
                e = exp[i]
                if o == e:
                    if st == SETUP and e:
                        _set(frame, i, pal.VALUE[board[CELLS[i]] & 3])
                    continue
                if e:
                    if st == PLAY and i == self.lifted:
                        _set(frame, i, pal.SOURCE)
                    elif st == SETUP:
                        # Where a die still has to go: its value, blinking.
                        if slow:
                            _set(frame, i, pal.VALUE[board[CELLS[i]] & 3])
                    elif slow:
                        _set(frame, i, pal.MISSING)
                else:
                    if st == PLAY and self.lifted >= 0 and self.dest[i] and self.error_at < 0:
                        _set(frame, i, pal.VALUE[self.dest[i]])
                    elif fast:
                        _set(frame, i, pal.ERROR)
        if st == PLAY and self.lifted >= 0 and self.error_at < 0:
            dest = self.dest
            for i in range(N_CELLS):
                if dest[i] and not occ[i]:
                    _set(frame, i, pal.VALUE[dest[i]])
        if st == PLAY and self.error_from >= 0 and fast:
            _set(frame, self.error_from, pal.SOURCE)
        if st == NOTE2_PICK and slow:
            _set(frame, self.pick_cell, pal.VALUE[self.pick_value])
        if st == PLAY and self.engine_move and self.lifted < 0 and self.error_at < 0:
            # The board's move: the die to lift blinks, its destination shows
            # the value to turn it to.
            m = self.engine_move
            if slow:
                _set(frame, _CELL_OF_SQ[m & 127], pal.HINT)
            if (m >> 7) & 127 != m & 127:
                _set(frame, _CELL_OF_SQ[(m >> 7) & 127], pal.VALUE[(m >> 14) & 3])
        if st == PLAY and self.thinking:
            _set(frame, 14, pal.HINT)
            _set(frame, 15, pal.HINT)
            _set(frame, 20, pal.HINT)
            _set(frame, 21, pal.HINT)
        if self.banner and ticks_diff(self.banner_until, now) > 0:
            self._render_banner(frame)
        if st == PLAY and self.hint_move and ticks_diff(self.hint_until, now) > 0:
            m = self.hint_move
            _set(frame, _CELL_OF_SQ[m & 127], pal.HINT)
            if slow:
                _set(frame, _CELL_OF_SQ[(m >> 7) & 127], pal.VALUE[(m >> 14) & 3])
        if st == PLAY and self.note2 and self.lifted < 0 and slow:
            # Note 2 applies: every die of the side to move pulses.
            side = self.pos.side
            for i in range(N_CELLS):
                p = board[CELLS[i]]
                if p and (p >> 2) == side and occ[i]:
                    _set(frame, i, pal.SOURCE)

    def _render_banner(self, frame):
        if self.banner == 1:
            # Who the board plays: that side's home row in its colour.
            if self.opponent >= 0:
                base = 30 if self.opponent == 1 else 0
                for i in range(6):
                    _set(frame, base + i, pal.WIN[self.opponent])
        else:
            for i in range(self.level):
                _set(frame, 12 + i, pal.HINT)

    def _render_remove(self, frame, occ, fast, slow):
        after = self.after
        tc = self.triad_cells
        for i in range(N_CELLS):
            if tc[i] and (slow or not self.removable[i]):
                _set(frame, i, pal.TRIAD)
            if occ[i] != after[i]:
                if after[i] and self.removable[i]:
                    _set(frame, i, pal.SOURCE)
                elif fast:
                    _set(frame, i, pal.ERROR)

    def _render_win(self, frame, now):
        w = self.pos.winner()
        if w < 0:
            w = (now // 1000) & 1  # a draw: both colours in turn
        colour = pal.WIN[w]
        step = (now // 120) % 12
        for i in range(N_CELLS):
            f = i % 6
            r = i // 6
            if (f + r) % 12 == step or (f + r + 6) % 12 == step or self.triad_cells[i]:
                _set(frame, i, colour)

    def _status(self, frame, now):
        side = self.pos.side
        if self.state != OVER:
            _set(frame, N_CELLS + (ST_TURN_BLACK if side == 0 else ST_TURN_WHITE), pal.TURN)
        for p in (0, 1):
            base = N_CELLS + (ST_TRIADS_BLACK if p == 0 else ST_TRIADS_WHITE)
            for k in range(self.pos.score[p]):
                _set(frame, base + k, pal.STATUS_ON)


def _no_clock():
    return 0


@micropython.viper
def _diff(occ, exp) -> int:
    """Compares the 36 sensed cells with the expected ones: missing dice
    (expected, not sensed) and extra objects, packed into one small int:
    count missing | count extra << 6 | (last missing cell + 1) << 12 |
    (last extra cell + 1) << 18. Viper: it runs every tick."""
    o = ptr8(occ)
    e = ptr8(exp)
    nmiss = 0
    nextra = 0
    miss = 0
    extra = 0
    i = 0
    while i < 36:
        if o[i] != e[i]:
            if e[i]:
                nmiss += 1
                miss = i + 1
            else:
                nextra += 1
                extra = i + 1
        i += 1
    return nmiss | (nextra << 6) | (miss << 12) | (extra << 18)


def diff_py(occ, exp):
    """_diff in plain Python (tests compare the two)."""
    nmiss = nextra = miss = extra = 0
    for i in range(N_CELLS):
        if occ[i] != exp[i]:
            if exp[i]:
                nmiss += 1
                miss = i + 1
            else:
                nextra += 1
                extra = i + 1
    return nmiss | (nextra << 6) | (miss << 12) | (extra << 18)


@micropython.viper
def _clear(frame, n: int):
    f = ptr8(frame)
    i = 0
    while i < n:
        f[i] = 0
        i += 1


def _set(frame, slot, rgb):
    j = slot * 3
    frame[j] = rgb[0]
    frame[j + 1] = rgb[1]
    frame[j + 2] = rgb[2]
