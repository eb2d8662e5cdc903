# The board's brain, for any game behind the face (docs/architecture.md):
# the turn machine.
#
# Its matcher (board/matcher.py) compares the debounced occupancy of the
# game's sites with what the game expects and matches the difference
# against the footprints of the legal moves; on its verdict the turn
# machine lights what the candidate moves still need, commits a move when
# the board equals one footprint and has been still for the settle time,
# and lets menu/confirm choose where the board cannot see the difference (a
# die turned in place). The game in progress and its save are its record's
# (board/game_record.py), the board's own play its seats' (board/seats.py).
# It never sees pins or pixels: it gets a stable snapshot, the time and
# button events, and the lights module draws the frame from its state.
# Everything follows from (game, sensed board, time), so any event
# sequence, a power cut included, ends in a state the player can recover
# from by putting the pieces where the lights say.
from triad.compat import const, ticks_add, ticks_diff
from triad.games import DRAW
from triad.board import lights
from triad.board.matcher import Matcher
from triad.board.match_kernels import diff as _diff
from triad.board.fastbytes import copy_if_changed as _copy_if_changed
from triad.board.game_record import GameRecord
from triad.board.seats import Seats
from triad.board.seats import OPPONENT_OFF, HINT_BUDGET_MS, THINK_BUDGET_MS  # noqa: F401 (importable from here)
from triad.board import thinker as _th
from triad.board import presses as _presses

SETTLE_MS = const(800)  # a piece must rest this long before the board acts
# A piece that rests on a site no legal move explains is a fault only after
# this long: a piece slid across the board brushes the sites in its way
# (issue 16, defect 10), and a fault in passing must not flash or be told.
PASS_MS = const(300)
# A turn with nothing to do on the table (Cornelson's "-": a full board, no
# jewels left) is the side's only turn: the board says so and commits it
# this long after (confirm: at once), whoever plays that side (issue 23).
EMPTY_TURN_MS = const(2000)
_TH_DONE = const(3)  # board/thinker.py's DONE, read every tick (checked below)
if _TH_DONE != _th.DONE:
    raise ImportError("controller: the thinker's DONE disagrees")

# The states and button events (triad.board.states; the names stay
# importable from here: controller.SETUP is the same object).
from triad.board.states import SETUP, PLAY, FINISH, OVER, SYNC, CHOOSE, SELFTEST, STATE_NAMES  # noqa: E402,F401
from triad.board.states import BTN_CONFIRM, BTN_NEW, BTN_HINT, BTN_MENU  # noqa: E402,F401
from triad.board.states import SHOW_VALUES, SHOW_SEATS, SHOW_LEVEL, SHOW_HINT, SHOW_THINK  # noqa: E402
from triad.board.states import SHOW_FAULT, SHOW_ERROR, SHOW_BLOCKED, SHOW_NOTE  # noqa: E402


class NullEvents:
    def event(self, kind, text):
        pass


class Controller:
    def __init__(self, game, board, store=None, settings=None, roll=None, events=None, now_ms=None):
        self.game = game
        self.board = board  # the board description: status LED slots per side
        n = game.N_SITES
        self.n = n
        # The LED frame's drawing and its caches (board/lights.py): told
        # when the position changes, it reads this controller's state.
        self.lights = lights.Lights(game, board)
        self.events = events or NullEvents()
        # The game in progress: its position, moves, rules, and what of it
        # is saved (board/game_record.py); pos is its position (the one
        # object, replaced only by load).
        self.record = GameRecord(game, self.events, store, settings, roll)
        self.pos = self.record.pos
        self.state = SYNC
        self.settle_ms = SETTLE_MS
        # The sensed board against the legal moves' footprints, with its
        # buffers (board/matcher.py); expected is its buffer, the occupancy
        # the game expects (read by the rigs and the lights).
        self.matcher = Matcher(game, self.events, self.pos)
        self.expected = self.matcher.expected
        # The board's own play: who it plays, its level, its searches and
        # the hint (board/seats.py; its thinker is the loop's mailbox).
        self.seats = Seats(game, self.matcher, self.record, self.events, now_ms)
        self.choice_role = 0  # CHOOSE: the outcome offered on the buttons
        self.values_until = 0
        self.errors = 0  # count of error situations entered (for tests and the protocol)
        self._empty_at = None  # when the board commits an empty turn (ticks), once said
        self.in_error = False
        self._rest = False  # the board equals the game and that was dealt with
        self.selftest = None
        self._state_before_test = PLAY
        self._sync_expected()

    # -- game set-up --------------------------------------------------------

    def load(self, position_text, moves=None, meta="", rules=None):
        """Start from a position (and optionally replay moves) under the
        game's settings in effect, or under `rules` ({name: value}: a saved
        game's own). Raises NotationError on bad input, leaving the
        controller unchanged."""
        rec = self.record
        rec.load(position_text, moves, meta, rules)
        pos = self.pos = rec.pos
        hist = rec.history
        self.seats.stop()
        self.lights.note_last(pos, 0)
        if hist:
            pos.unmake(hist[-1])
            self.lights.note_last(pos, hist[-1])
            pos.make(hist[-1])
        self.matcher.forget()
        self.seats.show_hint(0, 0)  # a hint belongs to the game it was asked in
        self.state = SYNC
        self._sync_expected()

    def load_saved(self):
        """Resume the game on flash, if any. Returns True if one was loaded."""
        saved = self.record.read_saved()
        if saved is None:
            return False
        try:
            self.load(*saved)
        except ValueError as e:
            self.events.event("error", "saved game unreadable: " + str(e))
            return False
        self.events.event("resume", self.game.format_position(self.pos))
        return True

    def start_position(self, position_text):
        """A position typed or sent by a host: it becomes a new saved game."""
        self.load(position_text)
        rec = self.record
        rec.save_start("loaded")  # (written once its pieces stand: update)
        self.events.event("position", rec.start_text)

    def new_game(self):
        """A fresh game (Nehren's: rolled dice) and wait for its pieces."""
        rec = self.record
        text, meta = rec.deal()
        self.load(text, None, meta)
        self.state = SETUP
        # Written now, not once set out (save_start): a button press, no
        # piece is moving, and a power cut in the set-up brings back this
        # roll, not another.
        rec.save("start", rec.start_text, rec.meta, rec.rules_text())
        self.events.event("setup", rec.start_text)

    def _sync_expected(self, keep_move=False):
        # The position changed: the matcher, the lights and the empty
        # turn's clock begin again from it (the board's chosen move is
        # dropped unless keep_move: a setting that changed nothing).
        m = self.matcher
        # A remote seat to move and no move of its sent: nothing is matched.
        m.awaiting_remote = bool((self.seats.remote >> self.pos.side) & 1) and not (keep_move and m.engine_move)
        m.sync(self.pos, self.record.draw, m.engine_move if keep_move else 0)
        self.lights.changed()
        self._empty_at = None

    def state_name(self):
        # A game may name its own phases (Nehren: "remove", "note2").
        st = self.state
        if st == FINISH or st == CHOOSE:
            return self.game.PHASE_NAMES[st == CHOOSE]
        return STATE_NAMES[st]

    def result_text(self):
        return self.game.outcome_text(self.pos, self.record.draw)

    # -- the tick -------------------------------------------------------------

    def update(self, now, occ, stable_ms, button=-1):
        """One control step: occ is the debounced snapshot (a bytearray of
        the game's sites), stable_ms how long it has been unchanged, button
        an event code or -1."""
        if self.seats.thinker.state == _TH_DONE:
            self.seats.collect(now, self.state == PLAY)
        if button >= 0:
            self._rest = False
            self.record.save_lost = False  # seen: the light has said it
            _presses.press(self, button, now)
        if self.record.unsaved:
            flush = self.record.flush_due(now)
            if flush is not None:
                flush()  # (called here: no frame deeper under a search)
        st = self.state
        if st == SELFTEST:
            self.selftest.update(occ, now)  # type: ignore[union-attr]
            return
        if st == OVER:
            return
        m = self.matcher
        d = _diff(occ, m.expected, m.n)
        nmiss = d & 255
        nextra = (d >> 8) & 255
        if nmiss and self.seats.hinting and m.mover_lifted(occ):
            self.seats.stop()  # the player has begun a move: the hint is moot
        if st == SETUP or st == SYNC:
            m.error_from = m.error_at = -1
            if nmiss == 0 and nextra == 0:
                if self.record.start_due:
                    self.record.write_start()  # the pieces stand as the game's start
                if stable_ms >= self.settle_ms:
                    self._enter_play()
            return
        if _copy_if_changed(occ, m.seen, m.n):
            self._rest = False
            m.analyse(occ, d, st == FINISH, now)
        if nmiss == 0 and nextra == 0 and m.n_started == 0:
            # The board equals the game: nothing is under way. (Once said,
            # it holds until the board or a button changes something: the
            # steady tick skips it.)
            if not self._rest:
                self._rest = True
                if self.state == FINISH or self.state == CHOOSE:
                    self.state = PLAY
                self.in_error = False
                m.at_rest()
            if m.empty_turn:
                self._empty(now)
                return
            if (self.seats.bits >> self.pos.side) & 1 and not m.engine_move:
                self.seats.think()
            return
        if self.state == CHOOSE:
            if nmiss or nextra:
                self.state = PLAY  # the piece was lifted again: choose afresh
                m.unfix()
            return
        if m.n_cand == 0:
            if not self.in_error and stable_ms >= PASS_MS:
                self.in_error = True
                self.errors += 1
            return
        if not m.amb:
            self.in_error = False
        if m.choice_site >= 0:
            # A step's outcome is hidden (a die turned in place): the player
            # names it before anything else happens.
            self.state = CHOOSE
            self.choice_role = m.first_role(m.choice_site)
            return
        if stable_ms < self.settle_ms and m.choice_fixed < 0:
            return  # (a confirmed choice needs no settling: the player said so)
        if m.n_full:
            if m.amb:
                # Two turns fit these switches: the board waits and says so
                # (a fault: the pieces put back, the turn begins afresh).
                if not self.in_error:
                    self.in_error = True
                    self.errors += 1
                return
            self.commit(m.full)
        elif m.progress and (self.state == PLAY or m.moved_on):
            # (announced again when the piece went on elsewhere within a
            # settle time: the words name where it stands, issue 35.13)
            self.state = FINISH
            self._announce_finish(m.hold_finish())
        elif not m.progress and self.state == FINISH:
            self.state = PLAY

    def _empty(self, now):
        # The side to move has only a turn with nothing to do: told once,
        # committed EMPTY_TURN_MS later (a method of its own: the tick's
        # frame stays small).
        if self._empty_at is None:
            self._empty_at = ticks_add(now, EMPTY_TURN_MS)
            self.events.event("pass", "%s has no turn but %s: the board plays it" % (
                self.game.SIDES[self.pos.side], self.record.move_text(self.matcher.empty_turn)))
        elif ticks_diff(now, self._empty_at) >= 0:
            self.commit(self.matcher.empty_turn)

    def _announce_finish(self, m):
        g = self.game
        self.events.event(g.FINISH_EVENT, g.finish_text(self.pos, m))

    def _enter_play(self):
        self.state = OVER if self.game.outcome(self.pos) >= 0 or self.record.draw else PLAY
        self.matcher.new_turn()
        self.in_error = False
        self.events.event("play", self.game.format_position(self.pos))

    def commit(self, m):
        """The move m, which the table shows, becomes the game's."""
        g = self.game
        pos = self.pos
        rec = self.record
        text = g.format_move(pos, m)
        # Saved before the board shows it: a committed move survives a
        # power cut at any later instant.
        rec.save("append", text)
        self.seats.stop()
        self.lights.note_last(pos, m)
        # (the record's move made here, not in a method of its: the commit
        # runs on top of a search, and its calls are stack there)
        pos.make(m)
        rec.history.append(m)
        rec.save_lost = False
        self.seats.show_hint(0, 0)
        if rec.watch is not None:
            rec.draw = rec.watch.push(pos, m)
        self._sync_expected()
        self.events.event("move", text)
        w = g.outcome(pos)
        if w >= 0:
            self.state = OVER
            self.events.event("over", g.outcome_text(pos) if w != DRAW else "draw")
            rec.finished()
        elif rec.draw:
            self.state = OVER
            self.events.event("over", "draw " + g.DRAW_NAMES[rec.draw])
        else:
            self.state = PLAY

    def set_remote(self, seats):
        """The sides (bits) whose moves come over the line from now on."""
        self.seats.set_remote(seats)
        self._sync_expected()

    def remote_move(self, text):
        """A remote seat's move, sent over the line: checked whole, then
        shown as the board's own move is, for the person to carry out; the
        table commits it. Returns None, or why it was refused (nothing
        changed then)."""
        if self.state != PLAY and self.state != FINISH and self.state != CHOOSE:
            return "busy the board is in state %s: a remote move is taken in play" % self.state_name()
        pos = self.pos
        side = pos.side
        if not (self.seats.remote >> side) & 1:
            return "turn %s is to move and is not a remote seat" % self.game.SIDES[side]
        m = self.game.parse_move(pos, text)  # (NotationError: malformed or illegal)
        em = self.matcher.engine_move
        if em:
            if em == m:
                return None  # sent again (a reconnection): the same move
            return "busy %s is waiting to be carried out" % self.record.move_text(em)
        self.matcher.awaiting_remote = False
        self.matcher.set_engine_move(m)
        self.events.event("remote", self.record.move_text(m))
        return None

    @property
    def engine_move(self):
        """The board's chosen move, waiting to be carried out (0: none)."""
        return self.matcher.engine_move

    def set_option(self, name, value):
        """A setting of the game's own (Nehren's note2_triads, Cornelson's
        mode): it changes the rules of the game on the table, so the saved
        game begins afresh at this position under them (a save replays its
        moves under one set of rules: issue 23). A finished game keeps its
        own; the next one takes the new."""
        restart = self.record.options.get(name) != value and self.state != OVER
        self.record.set_option(name, value, restart)
        if restart:
            self.seats.stop()
            # Told as a new game from here (a recorder begins a record with
            # the new rules: they travel with game records too).
            self.events.event("setup" if self.state == SETUP else "position", self.record.start_text)
        self._sync_expected(keep_move=not restart)

    def use_settings(self, s):
        """The saved settings (store.Settings) into effect at power-up, as
        they are (nothing saved again, nothing announced)."""
        self.record.use_settings(s)
        self.seats.use_settings(s)

    def lend(self):
        """The board lent to a lesson (board/lessons.py): nothing it does is
        written to flash (the store, and one held back for an unreadable
        save, are put aside) and the board's own seats rest. Returns what
        give_back() restores."""
        lent = (self.record.lend(), self.seats.bits, self.seats.remote)
        self.seats.bits = self.seats.remote = 0
        return lent

    def give_back(self, lent):
        """The store and seats lend() put aside, back in effect."""
        self.record.give_back(lent[0])
        self.seats.bits = lent[1]
        self.seats.remote = lent[2]

    def load_setup(self, position_text):
        """A position for the player to set up (a lesson's): loaded, and the
        set-up light shows each piece where it goes."""
        self.load(position_text)
        self.state = SETUP

    def start_selftest(self):
        from triad.board.selftest import SelfTest

        self.seats.stop()
        if self.state != SELFTEST:
            self._state_before_test = self.state
        self.selftest = SelfTest(self.game.SITE_NAMES)
        self.state = SELFTEST
        self.events.event("selftest", "start")

    def stop_selftest(self):
        if self.selftest is not None:
            self.events.event("selftest", self.selftest.report())
        self.selftest = None
        self.state = SYNC if self._state_before_test != SETUP else SETUP
        self.matcher.new_turn()

    # -- light -----------------------------------------------------------------

    def render(self, frame, now, occ):
        """Fill the LED frame from the game, the sensed board and the time."""
        lights.render(self.lights, self, frame, now, occ)

    def shown(self, now):
        """What the lights show for a while, as triad.board.states' SHOW_
        bits: the lights' view of the timers and faults (one call a frame,
        nothing allocated)."""
        s = 0
        if ticks_diff(self.values_until, now) > 0:
            s |= SHOW_VALUES
        se = self.seats
        if se.banner and ticks_diff(se.banner_until, now) > 0:
            s |= SHOW_SEATS if se.banner == 1 else SHOW_LEVEL
        if se.hint_move and ticks_diff(se.hint_until, now) > 0:
            s |= SHOW_HINT
        if se.thinking or se.hinting:
            s |= SHOW_THINK
        m = self.matcher
        if self.in_error:
            s |= SHOW_FAULT | (SHOW_ERROR if m.error_at >= 0 else 0)
        if m.blocked >= 0:
            s |= SHOW_BLOCKED
        if m.note2:
            s |= SHOW_NOTE
        return s
