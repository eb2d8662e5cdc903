# The board's brain, for any game behind the face (docs/architecture.md).
#
# It compares the debounced occupancy of the game's sites with what the
# game expects and matches the difference against the footprints of the
# legal moves: it lights what the candidate moves still need, commits a
# move when the board equals one footprint and has been still for the
# settle time, and lets menu/confirm choose where the board cannot see the
# difference (a die turned in place). It never sees pins or pixels: it gets
# a stable snapshot, the time and button events, and the lights module
# draws the frame from its state. Everything follows from (game, sensed
# board, time), so any event sequence, a power cut included, ends in a state
# the player can recover from by putting the pieces where the lights say.
from array import array

from triad.compat import const, micropython, ptr8, ptr32, ticks_add, ticks_diff
from triad.games import LIFT, PLACE, TOUCH, DRAW, WILD, ROLE_SOURCE
from triad.board import lights
from triad.board.fastbytes import zero as _zero, copy_if_changed as _copy_if_changed
from triad.board.fastbytes import mark_differences as _visit
from triad.board.player import Player
from triad.board.replay import replay
from triad.board import thinker as _th

SETTLE_MS = const(800)  # a piece must rest this long before the board acts
# A piece that rests on a site no legal move explains is a fault only after
# this long: a piece slid across the board brushes the sites in its way
# (issue 16, defect 10), and a fault in passing must not flash or be told.
PASS_MS = const(300)
HINT_MS = const(4000)
VALUES_MS = const(5000)
BANNER_MS = const(2000)
HINT_BUDGET_MS = const(1500)  # engine time for a hint
THINK_BUDGET_MS = const(2500)  # engine time for the board's own move
OPPONENT_OFF = const(-1)
FLUSH_MS = const(2000)  # how often an unsaved game is written again
from triad.games.face import MAX_STEPS  # the longest footprint of any game  # noqa: E402
# A turn with nothing to do on the table (Cornelson's "-": a full board, no
# jewels left) is the side's only turn: the board says so and commits it
# this long after (confirm: at once), whoever plays that side (issue 23).
EMPTY_TURN_MS = const(2000)
# The matcher's scratch bytes (self.work): per footprint step "done" and
# "last on its site", then one move's figures, then the pieces in the hand.
_W_STEP = const(0)
_W_LAST = const(32)  # MAX_STEPS
_W_HAND = const(64)  # sites of the pieces in the hand (up to MAX_STEPS)
WORK_SIZE = const(96)
# What _match says of a move (0: it does not explain the board).
_M_CANDIDATE = const(1)  # its done steps explain every difference
_M_STARTED = const(2)  # ... and something of it has happened
_M_FULL = const(4)  # the board shows it complete
_M_PROGRESS = const(8)  # its first placement is done (or it began in place)
_M_TOUCHED = const(16)  # it begins in place, and that piece alone was touched
_M_PLACED = const(32)  # a placement of it is done
# Footprint acts for the viper code (viper cannot read imported names):
# the values of triad.games' LIFT, PLACE, TOUCH and WILD, checked below.
_LIFT = const(0)
_PLACE = const(1)
_TOUCH = const(2)
_WILD = const(255)
_ROLE_SOURCE = const(1)
_TH_DONE = const(3)  # board/thinker.py's DONE, read every tick (checked below)
if (_LIFT, _PLACE, _TOUCH, _WILD, _ROLE_SOURCE, _TH_DONE) != (LIFT, PLACE, TOUCH, WILD, ROLE_SOURCE, _th.DONE):
    raise ImportError("controller: the footprint constants disagree with triad.games")

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
        self.n_sides = len(game.SIDES)
        # The LED frame's drawing and its caches (board/lights.py): told
        # when the position changes, it reads this controller's state.
        self.lights = lights.Lights(game, board)
        self.store = store
        self.settings = settings
        self.roll = roll  # callable -> 1..3, the board's dice
        self.events = events or NullEvents()
        self.player = Player(game, now_ms)
        # The mailbox to the search (board/thinker.py): the loop runs it
        # between ticks and ticks from inside it; the answer is taken here.
        self.thinker = _th.Thinker(self.player, self.events)
        self.hinting = False  # a hint is being searched
        self.seats = 0  # the sides the board itself plays, one bit each
        self.level = 3
        self.options = {}  # the game's own settings in effect
        for k in game.SETTINGS:
            self.options[k] = game.SETTINGS[k]
        self.engine_move = 0  # the board's chosen move, waiting to be carried out
        self.thinking = False
        self.think_ms = THINK_BUDGET_MS
        self.banner = 0  # 1: opponent mode shown, 2: level shown
        self.banner_until = 0
        self.draw = 0
        self.watch = None
        self.held_store = None  # a store kept from writing (see hold_store)
        self.pos = game.Position()
        self.start_text = game.START
        self.meta = ""
        self.history = []  # committed move ints since start_text
        self.next_start = 0
        self.state = SYNC
        self.settle_ms = SETTLE_MS
        self.expected = bytearray(n)  # occupancy the game expects
        self.visited = bytearray(n)  # sites that differed from expected during this turn
        # When each site last filled (arr) and emptied (dep) this turn, as
        # the turn's running count of sensed changes (0: not this turn):
        # the matcher's order of events. A placement counts only for the
        # piece that was in the hand when it came down, and a drop only
        # when it came after the rest of the turn (docs/architecture.md,
        # "How the matcher chooses").
        # (each 2n: [site] the last time, [n + site] the first time)
        self.arr = array("i", bytes(8 * n))
        self.dep = array("i", bytes(8 * n))
        self.prev = bytearray(n)  # the snapshot the stamps were made from
        self.seq = 0
        self.seen = bytearray(n)  # the snapshot the analysis below was made for
        self.dest = bytearray(n)  # lifted piece: role lit at each legal next site
        self.nxt = bytearray(n)  # next steps of the candidate moves: role per site
        self.marks = bytearray(n)  # sites to pulse (a Triad just formed)
        self.sources = bytearray(n)  # 1 where a legal move's first step lifts a piece
        # The game's guidance for the untouched board (optional idle_hints:
        # Cornelson's posts where a gem may go), role per site.
        self.idle = bytearray(n)
        self._idle_hints = game.idle_hints
        # Optional lift_marks: more sites to light while a piece is in the
        # hand (Cornelson's Barriers in a lifted jewel's way).
        self._lift_marks = game.lift_marks
        self.lm = array("i", bytes(4 * 8))
        # Optional gen_cut: once a piece is lifted while a TOUCH before it is
        # still owed, the turns that keep only the TOUCHes done (Cornelson's
        # forfeit rule 3.1); kept is their count for this turn, -1 none.
        self._gen_cut = game.gen_cut
        self.kept = -1
        # Optional first_site(pos, m): the site a move's footprint begins
        # at, for a game whose whole list of (open) moves fits buf: the
        # sources then come from one generation instead of one per piece
        # (Browne's 29 pieces: 20 ms of a lift's tick on the RP2040).
        self._first_site = game.first_site
        # The moves of one site at a time (gen's sel): the whole list of a
        # game with drops (Browne's) would not fit the RP2040's heap.
        # Games with free drops match their turns open-ended (the drop a
        # WILD step), so one piece's moves stay few: gen_open and bind.
        self._gen = game.gen_open  # (gen itself for a game without drops)
        self.buf = array("i", bytes(4 * game.MAX_SEL_OPEN))
        self.live = False  # the game goes on (it has moves to match)
        self.fp = array("i", bytes(4 * MAX_STEPS))
        # The matcher's scratch (see _match): which steps are done, which
        # are the last on their site, the figures of one move, the pieces
        # in the hand.
        self.work = bytearray(WORK_SIZE)
        self._ver = 0  # the position's version, for the kept move list
        self._c_site = -1
        self._c_kept = -1
        self._c_em = 0
        self._c_ver = -1
        self._c_n = 0
        self.roles = bytearray(8)  # the outcomes of a hidden step (CHOOSE)
        self.last = array("i", bytes(4 * 2))  # sites of the last move: lift, place
        self.dest_from = -1
        self.lifted = -1  # own piece lifted (a source of legal moves), or -1
        self.blocked = -1  # own piece lifted that has no legal move, or -1
        self.n_cand = 0  # moves consistent with the sensed board
        self.cand = 0  # one of them
        self.n_full = 0  # moves the sensed board completes
        self.n_started = 0  # candidates the player has begun
        self.full = 0  # one of them
        # Another complete move that fits the same switches as full, or 0:
        # the board then waits and says so (never guesses; lights: a fault).
        self.amb = 0
        self._tie = False
        # The move under way when FINISH was announced (its footprint): of
        # several moves the board completes, the one that continues it
        # (noise that passed the debounce can make another move's steps look
        # done: a Triad announced for d4e3 was committed as d4c3xc3).
        self.finish_fp = array("i", bytes(4 * MAX_STEPS))
        self.finish_n = 0
        self._best_k = 0
        self.progress = False  # every candidate has its first placement done
        self.choice_site = -1  # CHOOSE: the site whose hidden outcome is picked
        self.choice_role = 0
        self.choice_fixed = -1  # site whose outcome was picked (-1 none)
        self.fixed_role = 0
        self.error_from = -1
        self.error_at = -1
        self.hint_move = 0
        self.hint_until = 0
        self.values_until = 0
        self.note2 = False  # the position needs telling (the game's notice)
        self.errors = 0  # count of error situations entered (for tests and the protocol)
        self.unsaved = False  # committed moves not (yet) on flash: told on the status LEDs
        # The saved game came back short (a lost or damaged log): the status
        # LEDs blink red fast until a button or the next move (issue 23).
        self.save_lost = False
        self.empty_turn = 0  # the position's only turn, when it has no footprint
        self._empty_at = None  # when the board commits it (ticks), once said
        self._flush_at = None
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
        g = self.game
        pos = g.parse_position(position_text)
        if rules is None:
            self._apply_options(pos)
        else:
            for k in rules:
                g.apply_setting(pos, k, rules[k])
        start = pos.copy()
        hist, watch, draw = replay(g, pos, moves)
        self.start_text = g.format_position(start)
        self.meta = meta
        self.pos = pos
        self.history = hist
        self.watch = watch
        self.draw = draw
        self._stop_thinking()
        self.engine_move = 0
        self.last[0] = self.last[1] = -1
        if hist:
            pos.unmake(hist[-1])
            self._note_last(hist[-1])
            pos.make(hist[-1])
        self.marks[:] = bytes(self.n)
        self.hint_move = 0  # a hint belongs to the game it was asked in
        self.state = SYNC
        self._sync_expected()

    def _apply_options(self, pos):
        for k in self.options:
            self.game.apply_setting(pos, k, self.options[k])

    def load_saved(self):
        """Resume the game on flash, if any. Returns True if one was loaded."""
        if self.store is None:
            return False
        saved = self.store.load()
        warning = getattr(self.store, "last_error", None)
        if warning:
            # A torn or corrupt save was cut back to its last good move: say so.
            self.events.event("error", "saved game: " + str(warning))
        self.save_lost = bool(getattr(self.store, "lost", False))
        if not saved:
            return False
        # The saved game's own rules (its mode): its moves are legal there.
        from triad.board.store import parse_rules

        rules = parse_rules(getattr(self.store, "rules", ""))
        try:
            self.load(saved[0], saved[1], saved[2], rules or None)
        except ValueError as e:
            self.events.event("error", "saved game unreadable: " + str(e))
            return False
        self.events.event("resume", self.game.format_position(self.pos))
        return True

    def start_position(self, position_text):
        """A position typed or sent by a host: it becomes a new saved game."""
        self.load(position_text)
        self._save("start", self.start_text, "loaded", self.rules_text())
        self.events.event("position", self.start_text)

    def new_game(self):
        """A fresh game (Nehren's: rolled dice) and wait for its pieces."""
        g = self.game
        text, meta = g.new_game(self.roll, self.next_start)
        if g.FIRST_ALTERNATES:
            self.next_start = (self.next_start + 1) % self.n_sides
            if self.settings is not None:
                self.settings.set("next_start", self.next_start)
                self.settings.save()
        self.load(text)
        self.meta = meta
        self.state = SETUP
        self._save("start", self.start_text, self.meta, self.rules_text())
        self.events.event("setup", self.start_text)

    def rules_text(self):
        """The game's settings in effect as a save carries them
        ("mode=1,series=0"; "" for a game without any)."""
        out = ""
        for k in sorted(self.options):
            out += ("," if out else "") + "%s=%d" % (k, int(self.options[k]))
        return out

    def hold_store(self):
        """Stop saving until the player starts a new game by hand: the
        saved game on flash could not be read and must not be overwritten."""
        if self.store is not None:
            self.held_store = self.store
            self.store = None
            self.events.event("error", "saved game kept but not resumed; hold new to start saving a new game")

    def _save(self, what, *args):
        # A full or failing flash must not stop the game on the table: the
        # move stands, the player is told it is not saved, and the store
        # writes the whole game again later (flush in update).
        if self.store is None:
            return
        try:
            getattr(self.store, what)(*args)
        except Exception as e:
            self.events.event("error", "not saved (%s): %s" % (what, e))
            if not getattr(self.store, "on_safe", None):
                self.unsaved = True
                self._flush_at = None

    def saved_state(self, safe, reason):
        """The store says whether every committed move is on flash."""
        self.unsaved = not safe
        self._flush_at = None  # the next write is tried FLUSH_MS from now
        if safe:
            self.events.event("saved", "all moves are on flash")
        else:
            self.events.event("unsaved", reason or "flash write failed")

    def _sync_expected(self):
        g = self.game
        pos = self.pos
        g.expected(pos, self.expected)
        self.live = g.outcome(pos) < 0 and not self.draw
        self._ver = (self._ver + 1) & 0xFFFF  # the position changed: no kept move list
        self.lights.changed()
        self.note2 = bool(g.notice(pos)) if g.notice else False
        _zero(self.idle, self.n)
        if self._idle_hints is not None and self.live:
            self._idle_hints(pos, self.idle)
        self._find_empty_turn()
        self._find_sources()
        self._new_turn()

    def _find_empty_turn(self):
        # Once per position: is its only turn one with no footprint?
        self.empty_turn = 0
        self._empty_at = None
        if not self.live or not (self._first_site is not None or len(self.buf) >= self.game.MAX_MOVES):
            return  # (only a game whose whole move list fits buf: Nehren's never passes)
        buf = self.buf
        if self._gen(self.pos, buf, 0, -1) == 1 and self.game.footprint(self.pos, buf[0], self.fp) == 0:
            self.empty_turn = buf[0]
        self._c_site = -1  # (buf holds no one site's moves now)

    def _find_sources(self):
        # Only where the game asks for attention (Note 2: every die that can
        # act pulses); a lift is recognised from its site's own moves.
        _zero(self.sources, self.n)
        if self.note2 and self.live:
            self._fill_sources()

    def _fill_sources(self):
        if self._first_site is not None and self.live and not self.engine_move and self.kept < 0:
            self._fill_sources_at_once()
            return
        src = self.sources
        for s in range(self.n):
            src[s] = 1 if self.expected[s] and self._first_site_moves(s) else 0

    def _fill_sources_at_once(self):
        src = self.sources
        fs = self._first_site
        if fs is None:
            return
        _zero(src, self.n)
        pos = self.pos
        buf = self.buf
        exp = self.expected
        n = self._gen(pos, buf, 0, -1)
        self._c_site = -1  # (buf holds every move now, no one site's)
        for k in range(n):
            s = fs(pos, buf[k])
            if exp[s]:
                src[s] = 1

    def _first_site_moves(self, site):
        """Into buf: the allowed legal moves whose first step is at site; the
        count. The last answer is kept: a lift asks for the same site's
        moves three times (is it a source, its destinations, the match)."""
        if not self.live:
            return 0
        em = self.engine_move
        if (site == self._c_site and self.kept == self._c_kept and em == self._c_em
                and self._ver == self._c_ver):
            return self._c_n
        n = self._gen_site(site)
        self._c_site = site
        self._c_kept = self.kept
        self._c_em = em
        self._c_ver = self._ver
        self._c_n = n
        return n

    def _gen_site(self, site):
        buf = self.buf
        em = self.engine_move
        if em:
            # The board chose its move: that one only, drop included.
            self.game.footprint(self.pos, em, self.fp)
            if self.fp[0] & 255 != site:
                return 0
            buf[0] = em
            return 1
        cut = self._gen_cut
        if self.kept >= 0 and cut is not None:
            return cut(self.pos, buf, 0, site, self.kept)
        return self._gen(self.pos, buf, 0, site)

    def _new_turn(self):
        self._rest = False
        self.visited[:] = bytes(self.n)
        self._restamp()
        self.seen[0] = 255  # forces a fresh analysis on the next update
        self.dest_from = -1
        self.lifted = -1
        self.choice_fixed = -1
        self.choice_site = -1
        self.kept = -1
        self.n_cand = self.n_full = self.n_started = 0
        self.progress = False

    def _restamp(self):
        # The board equals the game (or the turn begins afresh): no event
        # of this turn yet. (The stamps of a later change are made against
        # the game's occupancy, which the board shows now.)
        _zero_i(self.arr, 2 * self.n)
        _zero_i(self.dep, 2 * self.n)
        _copy_if_changed(self.expected, self.prev, self.n)  # (a copy that allocates nothing)
        self.seq = 0

    def moves_text(self):
        g = self.game
        pos = self.pos
        hist = self.history
        n = len(hist)
        for i in range(n - 1, -1, -1):
            pos.unmake(hist[i])
        out = []
        for m in hist:
            out.append(g.format_move(pos, m))
            pos.make(m)
        return " ".join(out)

    def move_text(self, m):
        """Text of m, a legal move in the current position."""
        return self.game.format_move(self.pos, m)

    def position_text(self):
        return self.game.format_position(self.pos)

    def state_name(self):
        # A game may name its own phases (Nehren: "remove", "note2").
        st = self.state
        if st == FINISH or st == CHOOSE:
            return self.game.PHASE_NAMES[st == CHOOSE]
        return STATE_NAMES[st]

    def result_text(self):
        return self.game.outcome_text(self.pos, self.draw)

    # -- the tick -------------------------------------------------------------

    def update(self, now, occ, stable_ms, button=-1):
        """One control step: occ is the debounced snapshot (a bytearray of
        the game's sites), stable_ms how long it has been unchanged, button
        an event code or -1."""
        if self.thinker.state == _TH_DONE:
            self._collect(now)
        if button >= 0:
            self._rest = False
            self.save_lost = False  # seen: the light has said it
            self._button(button, now)
        if self.unsaved and self.store is not None:
            if self._flush_at is None:
                self._flush_at = ticks_add(now, FLUSH_MS)
            elif ticks_diff(now, self._flush_at) >= 0:
                self._flush_at = ticks_add(now, FLUSH_MS)
                flush = getattr(self.store, "flush", None)
                if flush is not None:
                    flush()
        st = self.state
        if st == SELFTEST:
            self.selftest.update(occ, now)  # type: ignore[union-attr]
            return
        if st == OVER:
            return
        n = self.n
        d = _diff(occ, self.expected, n)
        nmiss = d & 255
        nextra = (d >> 8) & 255
        if nmiss and self.hinting and self._mover_lifted(occ):
            self._stop_thinking()  # the player has begun a move: the hint is moot
        if st == SETUP or st == SYNC:
            self.error_from = self.error_at = -1
            if nmiss == 0 and nextra == 0 and stable_ms >= self.settle_ms:
                self._enter_play()
            return
        if _copy_if_changed(occ, self.seen, n):
            self._rest = False
            _visit(occ, self.expected, self.visited, n)
            if nmiss or nextra:
                self.seq = _stamp(occ, self.prev, self.arr, self.dep, self.seq, n)
            else:
                # The board equals the game: no event of this turn stands (a
                # turn played again after everything was put back is read
                # from its own events only).
                self._restamp()
            self._analyse(occ, nmiss, nextra, d)
        if nmiss == 0 and nextra == 0 and self.n_started == 0:
            # The board equals the game: nothing is under way. (Once said,
            # it holds until the board or a button changes something: the
            # steady tick skips it.)
            if not self._rest:
                self._rest = True
                if self.state == FINISH or self.state == CHOOSE:
                    self.state = PLAY
                self.in_error = False
                _zero(self.visited, n)  # a piece put back leaves no trace
                self.lifted = self.choice_fixed = -1
                if self.kept >= 0:
                    self.kept = -1  # everything taken back: the turn begins afresh
                    self.seen[0] = 255
            if self.empty_turn:
                self._empty(now)
                return
            if (self.seats >> self.pos.side) & 1 and not self.engine_move:
                self._think()
            return
        if self.state == CHOOSE:
            if nmiss or nextra:
                self.state = PLAY  # the piece was lifted again: choose afresh
                self.choice_fixed = -1
                self.seen[0] = 255
            return
        if self.n_cand == 0:
            if not self.in_error and stable_ms >= PASS_MS:
                self.in_error = True
                self.errors += 1
            return
        if not self.amb:
            self.in_error = False
        if self.choice_site >= 0:
            # A step's outcome is hidden (a die turned in place): the player
            # names it before anything else happens.
            self.state = CHOOSE
            self.choice_role = self._first_role(self.choice_site)
            return
        if stable_ms < self.settle_ms and self.choice_fixed < 0:
            return  # (a confirmed choice needs no settling: the player said so)
        if self.n_full:
            if self.amb:
                # Two turns fit these switches: the board waits and says so
                # (a fault: the pieces put back, the turn begins afresh).
                if not self.in_error:
                    self.in_error = True
                    self.errors += 1
                return
            self._commit(self.full)
        elif self.progress and self.state == PLAY:
            self.state = FINISH
            self.finish_n = self.game.footprint(self.pos, self.cand, self.finish_fp)
            self._announce_finish()
        elif not self.progress and self.state == FINISH:
            self.state = PLAY

    def _empty(self, now):
        # The side to move has only a turn with nothing to do: told once,
        # committed EMPTY_TURN_MS later (a method of its own: the tick's
        # frame stays small).
        if self._empty_at is None:
            self._empty_at = ticks_add(now, EMPTY_TURN_MS)
            self.events.event("pass", "%s has no turn but %s: the board plays it" % (
                self.game.SIDES[self.pos.side], self.move_text(self.empty_turn)))
        elif ticks_diff(now, self._empty_at) >= 0:
            self._commit(self.empty_turn)

    def _think(self):
        # The board's turn: show that it thinks (one tick), then ask for the
        # move; the loop searches while the ticks go on (board/thinker.py).
        th = self.thinker
        if th.state != _th.IDLE:
            return  # the search runs (this is a tick from inside it)
        if not self.thinking:
            self.thinking = True
            return
        th.ask(_th.MOVE, self.pos, self.start_text, self.history, self.level, self.think_ms)
        if th.state == _th.DONE:
            self._collect(0)  # searched at once (no loop to hand it to)

    def _collect(self, now):
        """The thinker's answer: the board's move, or a hint."""
        th = self.thinker
        kind = th.kind
        m = th.take()
        if kind == _th.MOVE:
            self.thinking = False
            if not (self.live and self.plays(self.pos.side)):
                return
            self.engine_move = m
            self._find_sources()
            self.seen[0] = 255
            if m:
                self.events.event("think", self.move_text(m))
        else:
            self.hinting = False
            if self.state == PLAY and not self.plays(self.pos.side):
                self.hint_move = m
                self.hint_until = ticks_add(now, HINT_MS)

    def _stop_thinking(self):
        """Cancel a search asked for (the position or the seat changed)."""
        self.thinker.cancel()
        self.thinking = False
        self.hinting = False

    def _mover_lifted(self, occ):
        # A piece of the side to move is missing (lifted).
        g = self.game
        pos = self.pos
        exp = self.expected
        side = pos.side
        i = 0
        while i < self.n:
            if exp[i] and not occ[i] and g.owner(pos, i) == side:
                return True
            i += 1
        return False

    def _analyse(self, occ, nmiss, nextra, d):
        """Match the sensed board against every legal move's footprint.
        Allocation-free: it runs on the tick that sees a change."""
        g = self.game
        pos = self.pos
        n = self.n
        exp = self.expected
        vis = self.visited
        fp = self.fp
        nxt = self.nxt
        marks = self.marks
        _zero(nxt, n)
        _zero(marks, n)
        self.error_from = self.error_at = -1
        n_diff = nmiss + nextra
        n_cand = 0  # moves consistent with the board
        n_started = 0  # ... of which the player has begun
        n_full = 0  # ... which the board completes
        progress = True
        choice = -1
        fixed = self.choice_fixed
        work = self.work
        # The one missing piece, when it is a source of legal moves: "lifted".
        lifted = -1
        blocked = -1
        if nmiss == 1:
            miss = ((d >> 16) & 127) - 1
            if self._first_site_moves(miss):
                lifted = miss
            elif self.live and g.owner(pos, miss) == pos.side and not self.engine_move:
                # One's own piece that cannot move (Browne: others capture
                # more): the pieces that can move show why.
                blocked = miss
                if self.blocked < 0:
                    self._fill_sources()
        if blocked < 0 and self.blocked >= 0 and not self.note2:
            _zero(self.sources, n)
        self.blocked = blocked
        # The lifted piece's destinations are found in the loop below, from
        # the footprints it reads anyway (its site's moves are among them).
        new_dest = lifted != self.dest_from
        if new_dest:
            _zero(self.dest, n)
            self.dest_from = lifted
        dest = self.dest
        self.lifted = lifted
        only_visited = _only_one(vis, n)  # the one site visited this turn, or -1
        # The matcher's context in one small int (30 bits): the outcome
        # picked (its site, 255 none, and role), the differences to explain
        # (a move explains at most MAX_STEPS), the one site visited + 1.
        ctx = ((fixed & 255) | (self.fixed_role << 8) | ((n_diff if n_diff < 127 else 127) << 16)
               | ((only_visited + 1) << 23))
        buf = self.buf
        cut = self._gen_cut is not None
        lm = self._lift_marks
        # A move under way has its first step done, so its first site differs
        # from the game or was visited: only those sites' moves are matched.
        site = 0
        cur = -1
        end = 0
        k = 0
        while True:
            if k >= end:
                site = _next_changed(occ, exp, vis, site, n)
                if site >= n:
                    break
                end = self._first_site_moves(site)
                cur = site
                site += 1
                k = 0
                continue
            m = buf[k]
            k += 1
            nf = g.footprint(pos, m, fp)
            if new_dest and cur == lifted:
                # Where the lifted piece may go: its first placement's role.
                j = 1
                while j < nf:
                    e = fp[j]
                    if (e >> 8) & 3 == _PLACE and e & 255 != _WILD:
                        dest[e & 255] = e >> 10
                        break
                    j += 1
            wild = -1
            if nf and fp[nf - 1] & 255 == _WILD:
                # "Any empty site" (a drop): bind it to where a piece now
                # stands that the other steps leave empty, if any.
                wild = _free_extra(occ, exp, vis, fp, nf - 1, n, self.arr, self.dep)
                if wild >= 0:
                    fp[nf - 1] = (fp[nf - 1] & ~255) | wild
            # Is the move under way on the board, what does it still need
            # (lit into nxt), is it complete (viper: this runs for every
            # move of a changed site on the tick that sees the change).
            r = _match(fp, nf, occ, exp, vis, work, ctx, nxt, n, self.arr, self.dep)
            if not r:
                continue
            n_cand += 1
            if not r & _M_STARTED:
                continue
            n_started += 1
            self.cand = m
            if not r & _M_PROGRESS:
                progress = False
            if r & _M_FULL:
                n_full += 1
                # (in FINISH, the one that follows the move announced the
                # furthest; two that follow it as far, or two outside FINISH:
                # the switches cannot tell them apart, and the board waits)
                if self.state != FINISH:
                    self._tie = n_full > 1
                    self.amb = self.full
                    self.full = g.bind(pos, m, wild) if wild >= 0 else m
                elif self._follows(nf, n_full):
                    self.amb = self.full
                    self.full = g.bind(pos, m, wild) if wild >= 0 else m
            if r & _M_TOUCHED and choice < 0:
                choice = fp[0] & 255
            if cut and self.kept < 0 and not self.engine_move:
                kept = _forfeit(fp, nf, work, occ, self.dep, n)
                if kept >= 0:
                    # A piece lifted with a TOUCH before it still owed: the
                    # game's rule (Cornelson 3.1) keeps only the TOUCHes
                    # done; match again against those turns.
                    self.kept = kept
                    self.seen[0] = 255
                    self.events.event("forfeit", g.SITE_NAMES[fp[0] & 255] + " " + str(kept))
            # A piece in the hand may ask for the game's marks too (the
            # Barriers in a jewel's way).
            t = r >> 8
            if lm is not None:
                while t > 0:
                    t -= 1
                    u = lm(pos, m, work[_W_HAND + t], self.lm)
                    while u > 0:
                        u -= 1
                        nxt[self.lm[u] & 255] = self.lm[u] >> 10
            placed = r & _M_PLACED
            if placed and g.marks:
                nm = g.marks(pos, m, fp)
                t = 0
                while t < nm:
                    marks[fp[t]] = 1
                    t += 1
        if choice >= 0 and (fixed >= 0 or not self._roles_differ(choice)):
            choice = -1  # only a real choice (several outcomes) waits for the buttons
        self.choice_site = choice
        self.n_cand = n_cand if n_diff else n_started
        self.n_started = n_started
        self.n_full = n_full
        if not (n_full > 1 and self._tie):
            self.amb = 0
        self.progress = progress and n_started > 0
        if n_cand == 0 and lifted >= 0 and nextra == 1:
            self.error_from = lifted
            self.error_at = ((d >> 23) & 127) - 1
        elif n_cand == 0 and self.state == FINISH and nmiss == 1:
            self.error_at = ((d >> 16) & 127) - 1

    def _follows(self, nf, n_full):
        """Does the footprint in fp follow the move FINISH was announced
        for at least as far (site and act) as the full move kept so far?
        (A method of its own: the tick runs on top of the search's
        recursion, and every local of _analyse is stack there.)"""
        fp = self.fp
        ff = self.finish_fp
        fn = self.finish_n
        k = 0
        while k < nf and k < fn and (fp[k] & 1023) == (ff[k] & 1023):
            k += 1
        if n_full == 1 or k >= self._best_k:
            self._tie = n_full > 1 and k == self._best_k
            self._best_k = k
            return True
        return False

    def _outcomes(self, site):
        """The outcomes the moves offer for a hidden step on site (roles of
        the TOUCH that begins them), in the moves' order and each once, into
        self.roles; their count."""
        g = self.game
        roles = self.roles
        n = 0
        end = self._first_site_moves(site)
        k = 0
        while k < end:
            g.footprint(self.pos, self.buf[k], self.fp)
            k += 1
            e = self.fp[0]
            if e & 255 != site or (e >> 8) & 3 != TOUCH:
                continue
            r = e >> 10
            j = 0
            while j < n and roles[j] != r:
                j += 1
            if j == n and n < len(roles):
                roles[n] = r
                n += 1
        return n

    def _roles_differ(self, site):
        return self._outcomes(site) > 1

    def _first_role(self, site):
        """The first outcome offered (the engine's, when the board chose the move)."""
        return self.roles[0] if self._outcomes(site) else 0

    def _next_role(self, site, role):
        """The outcome after `role`, round the offered ones."""
        n = self._outcomes(site)
        roles = self.roles
        for j in range(n):
            if roles[j] == role:
                return roles[(j + 1) % n]
        return roles[0] if n else 0

    def _announce_finish(self):
        g = self.game
        self.events.event(g.FINISH_EVENT, g.finish_text(self.pos, self.cand))

    def _enter_play(self):
        self.state = OVER if self.game.outcome(self.pos) >= 0 or self.draw else PLAY
        self._new_turn()
        self.in_error = False
        self.events.event("play", self.game.format_position(self.pos))

    def _note_last(self, m):
        """Remember where the move m (from the current position) lifted and
        placed its piece, for the faint last-move light."""
        nf = self.game.footprint(self.pos, m, self.fp)
        self.last[0] = self.last[1] = -1
        for j in range(nf):
            e = self.fp[j]
            act = (e >> 8) & 3
            if act != PLACE and self.last[0] < 0:
                self.last[0] = e & 255
            if act == PLACE and self.last[1] < 0:
                self.last[1] = e & 255

    def _commit(self, m):
        g = self.game
        pos = self.pos
        text = g.format_move(pos, m)
        # Saved before the board shows it: a committed move survives a
        # power cut at any later instant.
        self._save("append", text)
        self._stop_thinking()
        self._note_last(m)
        pos.make(m)
        self.history.append(m)
        self.save_lost = False
        self.hint_move = 0
        self.engine_move = 0
        if self.watch is not None:
            self.draw = self.watch.push(pos, m)
        self._sync_expected()
        self.events.event("move", text)
        w = g.outcome(pos)
        if w >= 0:
            self.state = OVER
            self.events.event("over", g.outcome_text(pos) if w != DRAW else "draw")
            self._finished()
        elif self.draw:
            self.state = OVER
            self.events.event("over", "draw " + g.DRAW_NAMES[self.draw])
        else:
            self.state = PLAY

    def _finished(self):
        """A game over: the game's finished() may enter it into a series
        kept in its settings (Cornelson's tourney), saved here."""
        fin = self.game.finished
        before = {}
        for k in self.options:
            before[k] = self.options[k]
        text = fin(self.pos, self.options)
        if text is None:
            return
        for k in self.options:
            if self.options[k] != before[k]:
                self._save_setting(k, self.options[k])
        self.events.event("series", text)

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
        if st == CHOOSE:
            if (btn == BTN_MENU or btn == BTN_HINT) and not self.engine_move:
                self.choice_role = self._next_role(self.choice_site, self.choice_role)
            elif btn == BTN_CONFIRM:
                self.choice_fixed = self.choice_site
                self.fixed_role = self.choice_role
                self.state = PLAY
                self.seen[0] = 255  # match again with the outcome fixed
            return
        if btn == BTN_CONFIRM and not long and st == PLAY and self.empty_turn:
            self._commit(self.empty_turn)  # the empty turn at once
            return
        if btn == BTN_HINT and long:
            # Cycle who the board plays: nobody, then each side from the
            # last, then (three sides) each pair: a person plays the rest.
            self.set_seats(_next_seats(self.seats, self.n_sides))
            self.banner = 1
            self.banner_until = ticks_add(now, BANNER_MS)
        elif btn == BTN_CONFIRM and long:
            self.set_level(self.level % 5 + 1)
            self.banner = 2
            self.banner_until = ticks_add(now, BANNER_MS)
        elif btn == BTN_HINT and st == PLAY and not self.plays(self.pos.side):
            th = self.thinker
            if th.state == _th.IDLE:
                self.hint_move = 0
                self.hinting = True
                th.ask(_th.HINT, self.pos, self.start_text, self.history, 5, HINT_BUDGET_MS)
                if th.state == _th.DONE:
                    self._collect(now)
        elif btn == BTN_MENU:
            self.values_until = ticks_add(now, VALUES_MS)

    def plays(self, side):
        """True when the board itself plays `side`."""
        return (self.seats >> side) & 1

    @property
    def opponent(self):
        """The one side the board plays, or -1 (nobody, or several)."""
        s = self.seats
        if s and not s & (s - 1):
            side = 0
            while not (s >> side) & 1:
                side += 1
            return side
        return OPPONENT_OFF

    @opponent.setter
    def opponent(self, side):
        # Without saving or announcing (start-up, tests): see set_opponent.
        self.seats = 0 if side < 0 else 1 << side

    def set_opponent(self, side):
        """The board plays `side` (a side index) or nobody (-1)."""
        self.set_seats(0 if side < 0 else 1 << side)

    def set_seats(self, seats):
        """The board plays the sides whose bits are set in `seats`."""
        self.seats = seats
        self._stop_thinking()
        self.engine_move = 0
        self._find_sources()
        self.seen[0] = 255
        if not seats:
            self.player.release()  # give the engine's RAM back
        self._save_setting("opponent", seats)
        self.events.event("opponent", seats_word(self.game.SIDES, seats))

    @property
    def engine(self):
        return self.player.engine

    @property
    def max_nodes(self):
        return self.player.max_nodes

    @max_nodes.setter
    def max_nodes(self, v):
        self.player.max_nodes = v

    def set_level(self, level):
        self.level = level
        self._save_setting("level", level)

    def set_option(self, name, value):
        """A setting of the game's own (Nehren's note2_triads, Cornelson's
        mode): it changes the rules of the game on the table, so the saved
        game begins afresh at this position under them (a save replays its
        moves under one set of rules: issue 23). A finished game keeps its
        own; the next one takes the new."""
        changed = self.options.get(name) != value
        self.options[name] = value
        self.game.apply_setting(self.pos, name, value)
        if changed and self.state != OVER:
            self._stop_thinking()
            self.engine_move = 0
            self.start_text = self.game.format_position(self.pos)
            self.history = []
            self.watch = self.game.draw_watch(self.pos.copy()) if self.game.draw_watch else None
            self.draw = 0
            self._save("start", self.start_text, self.meta, self.rules_text())
            # Told as a new game from here (a recorder begins a record with
            # the new rules: they travel with game records too).
            self.events.event("setup" if self.state == SETUP else "position", self.start_text)
        self._sync_expected()

    def use_settings(self, s):
        """The saved settings (store.Settings) into effect at power-up, as
        they are (nothing saved again, nothing announced)."""
        sides = self.n_sides
        self.next_start = s.get("next_start") % sides
        for k in self.game.SETTINGS:
            self.options[k] = s.get(k)
        self.seats = s.get("opponent") & ((1 << sides) - 1)
        self.level = min(5, max(1, s.get("level")))

    def set_next_start(self, side):
        """The side that starts the next game where the board alternates it
        (the caller saves the setting)."""
        self.next_start = side

    def lend(self):
        """The board lent to a lesson (board/lessons.py): nothing it does is
        written to flash (the store, and one held back for an unreadable
        save, are put aside) and the board's own seats rest. Returns what
        give_back() restores."""
        lent = (self.store, self.held_store, self.seats)
        self.store = self.held_store = None
        self.seats = 0
        return lent

    def give_back(self, lent):
        """The store and seats lend() put aside, back in effect."""
        self.store, self.held_store, self.seats = lent

    def load_setup(self, position_text):
        """A position for the player to set up (a lesson's): loaded, and the
        set-up light shows each piece where it goes."""
        self.load(position_text)
        self.state = SETUP

    def show_hint(self, m, until):
        """Light move m as the hint light does, until the tick `until`
        (or until it is moved); m 0: no hint shown."""
        self.hint_move = m
        self.hint_until = until

    def _save_setting(self, name, value):
        s = self.settings
        if s is None:
            return
        try:
            s.set(name, value)
            s.save()
        except Exception as e:
            self.events.event("error", "setting not saved: %s" % e)

    def start_selftest(self):
        from triad.board.selftest import SelfTest

        self._stop_thinking()
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
        self._new_turn()

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
        if self.banner and ticks_diff(self.banner_until, now) > 0:
            s |= SHOW_SEATS if self.banner == 1 else SHOW_LEVEL
        if self.hint_move and ticks_diff(self.hint_until, now) > 0:
            s |= SHOW_HINT
        if self.thinking or self.hinting:
            s |= SHOW_THINK
        if self.in_error:
            s |= SHOW_FAULT | (SHOW_ERROR if self.error_at >= 0 else 0)
        if self.blocked >= 0:
            s |= SHOW_BLOCKED
        if self.note2:
            s |= SHOW_NOTE
        return s


@micropython.viper
def _free_extra(occ, exp, vis, fp, nf: int, n: int, arr, dep) -> int:
    """Where a free drop went: a site that holds a piece although the first
    nf steps leave it empty (an empty cell, or one the move lifted, seen
    lifted), put down after every one of those steps or in the scan that
    saw the last of them (the bunny piece comes
    last: a piece put back where it was lifted, before the captures were
    taken off, is not the drop), or -1."""
    o = ptr8(occ)
    x = ptr8(exp)
    v = ptr8(vis)
    f = ptr32(fp)
    ar = ptr32(arr)
    dp = ptr32(dep)
    # The latest of those steps, each at its first event this turn (a
    # landed piece knocked and put back after the drop is still before it;
    # inline: no deeper frame on the tick).
    late = 0
    t = 0
    while t < nf:
        g = f[t]
        u = g & 255
        if u != _WILD:
            if (g >> 8) & 3 == _PLACE:
                if ar[n + u] > late:
                    late = ar[n + u]
            elif dp[n + u] > late:
                late = dp[n + u]
        t += 1
    i = 0
    while i < n:
        if o[i] and ar[i] >= late:
            after = x[i]
            j = 0
            while j < nf:
                e = f[j]
                if e & 255 == i:
                    a = (e >> 8) & 3
                    if a == _LIFT:
                        after = 0 if v[i] else 1
                    elif a == _PLACE:
                        after = 1
                j += 1
            if not after:
                return i
        i += 1
    return -1


@micropython.viper
def _stamp(occ, prev, arr, dep, seq: int, n: int) -> int:
    """Stamp the sites that changed since prev (arr: filled, dep: emptied;
    [i] the last time, [n + i] the first time this turn) with the turn's
    next count, and make prev equal occ; the count."""
    o = ptr8(occ)
    p = ptr8(prev)
    ar = ptr32(arr)
    dp = ptr32(dep)
    changed = 0
    i = 0
    while i < n:
        if o[i] != p[i]:
            if changed == 0:
                changed = 1
                if seq < 0x3FFFFFFF:
                    seq += 1
            if o[i]:
                ar[i] = seq
                if ar[n + i] == 0:
                    ar[n + i] = seq
            else:
                dp[i] = seq
                if dp[n + i] == 0:
                    dp[n + i] = seq
            p[i] = o[i]
        i += 1
    return seq


@micropython.viper
def _zero_i(buf, n: int):
    b = ptr32(buf)
    i = 0
    while i < n:
        b[i] = 0
        i += 1


@micropython.viper
def _match(fp, nf: int, occ, exp, vis, work, ctx: int, nxt, n: int, arr, dep) -> int:
    """One move's footprint against the sensed board.

    Which steps are done, in a person's order: a placement counts only
    once the lift before it is done (a stray object is not "the piece
    placed early"); lifts and touches in any order. The move is a
    candidate when its done steps explain every difference (ctx: the
    outcome picked, site | role << 8, 255 none; the differences << 16;
    the one site visited + 1 << 23); it is under way when something of it
    happened; then the steps it still needs are lit in nxt (a role per
    site): the first one not done, and with a lift the other lifts before
    the next placement (any order); of TOUCHes in a row only the first (a
    chain swapped in order); a drop's every empty site; and for pieces
    moved in any order (Cornelson's jewels), once no TOUCH is owed, every
    piece still to lift, and a piece in the hand (its LIFT done, the PLACE
    after it not) shows its destination and is listed at work[_W_HAND...]
    for the game's marks.

    The order of events counts too (arr, dep: when each site last filled
    and emptied this turn): a placement right after a LIFT of a piece that
    moves (ROLE_SOURCE) is done only when that piece was in the hand as it
    came down (its site not filled again between its emptying and the
    landing: a piece put back is not the one that landed; its emptying may
    be sensed after the landing, when its switch chatters as it goes); any other placement (a
    drop) only when it came down after every step before it, each taken at
    its first event this turn (or in the
    scan that saw the last of them). So a turn is
    never read from pieces that went elsewhere than it says.

    Returns 0 (no candidate) or _M_* flags | pieces in the hand << 8; work
    keeps which steps are done (_W_STEP) for _forfeit. Viper: the board
    runs this for every move of a changed site on the tick that sees it."""
    f = ptr32(fp)
    ar = ptr32(arr)
    dp = ptr32(dep)
    o = ptr8(occ)
    x = ptr8(exp)
    v = ptr8(vis)
    w = ptr8(work)
    out = ptr8(nxt)
    j = 0
    while j < nf:
        s = f[j] & 255
        last = 1
        t = j + 1
        while t < nf:
            if f[t] & 255 == s:
                last = 0
                break
            t += 1
        w[_W_LAST + j] = last
        j += 1
    first = nf
    lifted_before = 1
    j = 0
    while j < nf:
        e = f[j]
        s = e & 255
        act = (e >> 8) & 3
        done = 0
        if s == _WILD:
            done = 0
        elif act == _PLACE:
            if o[s] == 1 and lifted_before:
                if j == 0:
                    done = 1
                else:
                    g = f[j - 1]
                    u = g & 255
                    if (g >> 8) & 3 == _LIFT and (g >> 10) == _ROLE_SOURCE:
                        # (its leaving may be sensed after the landing: a
                        # switch that chatters as the piece goes; the landing
                        # at its first arrival: a landed piece knocked and put
                        # back after a drop on the cell it left is still it)
                        if 0 < ar[n + s] and not (dp[u] < ar[u] and ar[u] < ar[n + s]):
                            done = 1
                    else:
                        # the latest first event of the steps before it (inline:
                        # no deeper frame on the tick under a search)
                        late = 0
                        t = 0
                        while t < j:
                            g = f[t]
                            u = g & 255
                            if u != _WILD:
                                if (g >> 8) & 3 == _PLACE:
                                    if ar[n + u] > late:
                                        late = ar[n + u]
                                elif dp[n + u] > late:
                                    late = dp[n + u]
                            t += 1
                        if ar[s] >= late:
                            done = 1
        else:
            if act == _LIFT:
                if o[s] == 0 or (v[s] != 0 and w[_W_LAST + j] == 0):
                    done = 1
                if x[s] == 0 and ar[n + s] == 0:
                    # A piece lifted from a site the game has empty must
                    # have come down there this turn (the stamps): a site
                    # visited before everything was put back is not a
                    # removal done (a2b1xb1 stayed under way after the die
                    # went back to a2, and a2=2 could not be made).
                    done = 0
            elif v[s] != 0:
                done = 1
            lifted_before = done
        w[_W_STEP + j] = done
        if done == 0 and first == nf:
            first = j
        j += 1
    fsite = ctx & 255
    frole = (ctx >> 8) & 255
    n_diff = (ctx >> 16) & 127
    only = ((ctx >> 23) & 127) - 1
    hit = 0  # differing sites this move explains (at a done step)
    net = 0  # sites this move changes
    at_final = 0  # ... that already show their final state
    hidden = 0  # steps that leave no trace, done
    ok = 1  # every traceless step was done
    placed = 0
    j = 0
    while j < nf:
        e = f[j]
        s = e & 255
        act = (e >> 8) & 3
        if s == _WILD:
            net += 1  # a drop still to come
        elif w[_W_LAST + j]:
            # The states this site passes through (bit 0 empty, bit 1
            # occupied) at done steps; after the move: its last step's.
            reach = 0
            t = 0
            while t <= j:
                g = f[t]
                if g & 255 == s:
                    a = (g >> 8) & 3
                    if w[_W_STEP + t] or a != _PLACE:
                        if a == _TOUCH:
                            reach |= 3
                        else:
                            reach |= 1 << a
                t += 1
            final = act
            if act == _TOUCH:
                final = x[s]
            oo = o[s]
            if oo != x[s] and (reach >> oo) & 1:
                hit += 1
            if final != x[s]:
                net += 1
                if oo == final:
                    at_final += 1
            elif v[s] and oo == x[s] and (act != _LIFT or w[_W_STEP + j]):
                # (a lift that leaves its site as the game has it is
                # hidden only when done: see the stamps above)
                hidden += 1
            else:
                ok = 0
            if act == _TOUCH and fsite == s and (e >> 10) != frole:
                return 0  # another outcome than the one picked
        if act == _PLACE and w[_W_STEP + j]:
            placed = 1
        j += 1
    if hit != n_diff:
        return 0
    r = _M_CANDIDATE
    touched = 0
    e = f[0]
    if (e >> 8) & 3 == _TOUCH:
        # A turn that begins in place (a die turned where it stands) has
        # begun only when that piece alone was lifted and put back.
        if not (w[_W_STEP] and only == (e & 255)):
            return r  # its piece went elsewhere too: not this turn
        if o[e & 255] == x[e & 255]:
            # Back where it stood: its outcome is picked now. (With the
            # piece in the hand the pick flipped with play every tick, and
            # a confirm then fixed a value never shown.)
            touched = 1
    elif hit == 0 and hidden == 0:
        return r  # consistent only because nothing has happened
    r |= _M_STARTED
    if placed:
        r |= _M_PLACED
    if touched:
        r |= _M_TOUCHED
    if placed or touched:
        r |= _M_PROGRESS
    if ok and at_final == net and net == n_diff:
        r |= _M_FULL
    # The steps it still needs, lit.
    j = first
    while j < nf:
        e = f[j]
        act = (e >> 8) & 3
        if act == _PLACE and j > first:
            break
        if e & 255 == _WILD:
            role = e >> 10
            i = 0
            while i < n:
                if not x[i] and not o[i]:
                    out[i] = role
                i += 1
        elif not w[_W_STEP + j]:
            out[e & 255] = e >> 10
            if act == _TOUCH:
                break
        if act == _PLACE:
            break
        j += 1
    hand = 0
    owed = 0
    j = first
    while j < nf:
        e = f[j]
        a = (e >> 8) & 3
        if w[_W_STEP + j] or e & 255 == _WILD:
            pass
        elif a == _TOUCH:
            owed = 1
        elif a == _LIFT:
            if (e >> 10) == _ROLE_SOURCE and not owed:
                out[e & 255] = _ROLE_SOURCE
        elif j > 0 and w[_W_STEP + j - 1]:
            g = f[j - 1]
            if (g >> 8) & 3 == _LIFT and (g >> 10) == _ROLE_SOURCE and not o[g & 255]:
                out[e & 255] = e >> 10
                if hand < 32:
                    w[_W_HAND + hand] = g & 255
                    hand += 1
        j += 1
    return r | (hand << 8)


def seats_word(sides, seats):
    """"off", or the letters of the sides the board plays ("w", "rg")."""
    if not seats:
        return "off"
    out = ""
    for k in range(len(sides)):
        if (seats >> k) & 1:
            out += sides[k]
    return out


def _next_seats(seats, n):
    # Nobody, each side alone (last first), then each pair (three sides).
    order = [0]
    for k in range(n - 1, -1, -1):
        order.append(1 << k)
    if n > 2:
        for k in range(n - 1, -1, -1):
            order.append(((1 << n) - 1) ^ (1 << k))
    i = order.index(seats) if seats in order else 0
    return order[(i + 1) % len(order)]


def _forfeit(fp, nf, step, occ, dep, n):
    """When a piece is off the board (a LIFT done) while a TOUCH before it
    in the footprint was not done before it left: how many TOUCHes in a row
    from the first were; else -1. Before means seen begun in an earlier scan
    (dep: when each site first emptied this turn): a swap the board saw only
    in the scan that saw the jewel go, or after it, did not come first
    (issue 23: a late swap counted as in time); a swapped gem knocked later
    does not undo its swap."""
    k = 0
    owed = False
    j = 0
    while j < nf:
        e = fp[j]
        if (e >> 8) & 3 == LIFT and step[j] and not occ[e & 255]:
            # the piece off the board: were the TOUCHes before it done first?
            t = 0
            while t < j:
                g = fp[t]
                if (g >> 8) & 3 == TOUCH:
                    if step[t] and 0 < dep[n + (g & 255)] < dep[n + (e & 255)] and not owed:
                        k += 1
                    else:
                        owed = True
                t += 1
            return k if owed else -1
        j += 1
    return -1


@micropython.viper
def _diff(occ, exp, n: int) -> int:
    """Compares the sensed sites with the expected ones: missing pieces
    (expected, not sensed) and extra objects, packed into one small int
    (30 bits): count missing | count extra << 8 | (last missing site + 1)
    << 16 | (last extra site + 1) << 23. Counts saturate at 255; sites up
    to 126 fit. Viper: it runs every tick."""
    o = ptr8(occ)
    e = ptr8(exp)
    nmiss = 0
    nextra = 0
    miss = 0
    extra = 0
    i = 0
    while i < n:
        if o[i] != e[i]:
            if e[i]:
                if nmiss < 255:
                    nmiss += 1
                miss = i + 1
            else:
                if nextra < 255:
                    nextra += 1
                extra = i + 1
        i += 1
    return nmiss | (nextra << 8) | (miss << 16) | (extra << 23)


@micropython.viper
def _only_one(vis, n: int) -> int:
    """The one marked site, or -1 when none or several are."""
    v = ptr8(vis)
    found = -1
    i = 0
    while i < n:
        if v[i]:
            if found >= 0:
                return -1
            found = i
        i += 1
    return found


@micropython.viper
def _next_changed(occ, exp, vis, i: int, n: int) -> int:
    """The first site from i that differs from the game or was visited (n: none)."""
    o = ptr8(occ)
    e = ptr8(exp)
    v = ptr8(vis)
    while i < n:
        if o[i] != e[i] or v[i]:
            return i
        i += 1
    return n
