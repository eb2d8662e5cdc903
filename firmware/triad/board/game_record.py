# The game in progress: the position on the table, how it came about (its
# start, its moves, its meta and the rules it is played under) and what of
# it is saved. It keeps the saved game on flash equal to the one on the
# table: each committed move is written before the board shows it, a failed
# write is flushed again later, a game that comes back short from flash is
# said. The turn machine (board/controller.py) holds one; the protocol and
# the lessons read it and call its methods.
from triad.compat import const, ticks_add, ticks_diff
from triad.board.replay import replay

FLUSH_MS = const(2000)  # how often an unsaved game is written again


class GameRecord:
    def __init__(self, game, events, store=None, settings=None, roll=None):
        self.game = game
        self.events = events
        self.store = store
        self.held_store = None  # a store kept from writing (see hold_store)
        self.settings = settings
        self.roll = roll  # callable -> 1..3, the board's dice
        self.options = {}  # the game's own settings in effect
        for k in game.SETTINGS:
            self.options[k] = game.SETTINGS[k]
        self.pos = game.Position()
        self.start_text = game.START
        self.meta = ""
        self.history = []  # committed move ints since start_text
        self.watch = None  # the game's draw watch, fed each move
        self.draw = 0  # the draw the watch declared (0: none)
        self.next_start = 0  # the side that starts the next game (FIRST_ALTERNATES)
        self.unsaved = False  # committed moves not (yet) on flash: told on the status LEDs
        # (or a setting the board wrote itself, below: unsaved is either)
        self.moves_unsaved = False
        # A setting the board changed by itself (a tourney's Game Tally, the
        # next game's first side) whose write failed: written again with
        # the game (flush), or the next power cut would lose it unsaid.
        self.settings_unsaved = False
        # The saved game came back short (a lost or damaged log): the status
        # LEDs blink red fast until a button or the next move (issue 23).
        self.save_lost = False
        self.flush_at = None
        # A loaded position's start the store keeps in memory, to be written
        # once its pieces stand on the table (save_start, write_start).
        self.start_due = False

    # -- the game on the table ----------------------------------------------

    def load(self, position_text, moves=None, meta="", rules=None):
        """Start from a position (and optionally replay moves) under the
        game's settings in effect, or under `rules` ({name: value}: a saved
        game's own). Raises NotationError on bad input, changing nothing."""
        g = self.game
        pos = g.parse_position(position_text)
        rules = self.options if rules is None else rules
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

    def deal(self):
        """A fresh game's position (Nehren's: rolled dice) and meta; where
        the first side alternates, the next game's is saved."""
        g = self.game
        text, meta = g.new_game(self.roll, self.next_start)
        if g.FIRST_ALTERNATES:
            self.next_start = (self.next_start + 1) % len(g.SIDES)
            # (a failed write must not stop the new game: kept, written later)
            self.save_setting("next_start", self.next_start)
        return text, meta

    def set_option(self, name, value, restart):
        """A setting of the game's own into effect on the table; restart:
        the saved game begins afresh at this position under it."""
        g = self.game
        self.options[name] = value
        g.apply_setting(self.pos, name, value)
        if restart:
            self.start_text = g.format_position(self.pos)
            self.history = []
            self.watch = g.draw_watch(self.pos.copy()) if g.draw_watch else None
            self.draw = 0
            self.save("start", self.start_text, self.meta, self.rules_text())

    def finished(self):
        """A game over: the game's finished() may enter it into a series
        kept in its settings (Cornelson's tourney), saved here."""
        opts = self.options
        before = {}
        for k in opts:
            before[k] = opts[k]
        text = self.game.finished(self.pos, opts)
        if text is None:
            return
        for k in opts:
            if opts[k] != before[k]:
                self.save_setting(k, opts[k])
        self.events.event("series", text)

    def rules_text(self):
        """The game's settings in effect as a save carries them
        ("mode=1,series=0"; "" for a game without any)."""
        out = ""
        for k in sorted(self.options):
            out += ("," if out else "") + "%s=%d" % (k, int(self.options[k]))
        return out

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

    # -- the saved game -------------------------------------------------------

    def read_saved(self):
        """The game on flash as load() takes it ((start, moves, meta,
        rules)), or None; a game cut back or lost is said."""
        if self.store is None:
            return None
        saved = self.store.load()
        warning = getattr(self.store, "last_error", None)
        if warning:
            # A torn or corrupt save was cut back to its last good move: say so.
            self.events.event("error", "saved game: " + str(warning))
        self.save_lost = bool(getattr(self.store, "lost", False))
        if not saved:
            return None
        # The saved game's own rules (its mode): its moves are legal there.
        from triad.board.store import parse_rules

        rules = parse_rules(getattr(self.store, "rules", ""))
        return saved[0], saved[1], saved[2], rules or None

    def save(self, what, *args):
        # A full or failing flash must not stop the game on the table: the
        # move stands, the player is told it is not saved, and the store
        # writes the whole game again later (flush_due).
        if self.store is None:
            return
        try:
            getattr(self.store, what)(*args)
        except Exception as e:
            self.events.event("error", "not saved (%s): %s" % (what, e))
            if not getattr(self.store, "on_safe", None):
                self.moves_unsaved = self.unsaved = True
                self.flush_at = None

    def save_start(self, meta):
        """A loaded position's start (a host's `position`), saved: not in
        the tick that takes it in. A write keeps the RP2040 from scanning
        (tens of ms of flash and LittleFS on the RP2040)
        right when the host's pieces are being set out, so the store keeps
        it (start_later) and write_start() writes it in the first tick the
        pieces on the table match it, when nothing there moves; the game's
        first move writes it anyway (with the move, one snapshot). Until
        then flash holds the game before it: a power cut resumes that one.
        docs/store.md, "A start written later"."""
        st = self.store
        if st is not None and hasattr(st, "start_later"):
            self.save("start_later", self.start_text, meta, self.rules_text())
            self.start_due = True
        else:
            self.save("start", self.start_text, meta, self.rules_text())

    def write_start(self):
        """Write a start save_start() kept, if any: now (the board's pieces
        stand as the game's start, a lesson or another game takes over)."""
        if self.start_due:
            self.start_due = False
            self.save("write_pending")

    def saved_state(self, safe, reason):
        """The store says whether every committed move is on flash."""
        self.moves_unsaved = not safe
        self.flush_at = None  # the next write is tried FLUSH_MS from now
        self._tell(reason)

    def _tell(self, reason=None):
        # unsaved (the status LEDs' blink) and the serial line's word on it,
        # from the moves and the board's own settings together: "saved" only
        # when both are on flash.
        self.unsaved = self.moves_unsaved or self.settings_unsaved
        if not self.unsaved:
            self.events.event("saved", "all moves are on flash")
        else:
            if reason is None and not self.moves_unsaved:
                reason = "a setting not saved"
            self.events.event("unsaved", reason or "flash write failed")

    def flush_due(self, now):
        """The flush when an unsaved game or setting is due to be written
        again (every FLUSH_MS), else None: the tick calls it itself (no
        call deeper under a search than before)."""
        if not self.unsaved or (self.store is None and not self.settings_unsaved):
            return None
        if self.flush_at is None:
            self.flush_at = ticks_add(now, FLUSH_MS)
        elif ticks_diff(now, self.flush_at) >= 0:
            self.flush_at = ticks_add(now, FLUSH_MS)
            return self.flush
        return None

    def flush(self):
        """Write again what failed: the board's own settings, then the game
        (the store's flush, which says how it went through saved_state)."""
        if self.settings_unsaved:
            try:
                self.settings.save()  # (every value set, the failed one too)
                self.settings_unsaved = False
            except Exception:
                pass
            if not self.settings_unsaved and not self.moves_unsaved:
                self._tell()
        if self.moves_unsaved and self.store is not None:
            f = getattr(self.store, "flush", None)
            if f is not None:
                f()

    def hold_store(self):
        """Stop saving until the player starts a new game by hand: the
        saved game on flash could not be read and must not be overwritten."""
        if self.store is not None:
            self.held_store = self.store
            self.store = None
            self.events.event("error", "saved game kept but not resumed; hold new to start saving a new game")

    def release_store(self):
        """The player chose a new game: a store held back writes again."""
        if self.held_store is not None:
            self.store = self.held_store
            self.held_store = None

    def lend(self):
        """Nothing written to flash from now (the store and one held back
        put aside) until give_back(what this returns). A start still kept
        in memory is written first: the interrupted game is on flash."""
        self.write_start()
        lent = (self.store, self.held_store)
        self.store = self.held_store = None
        return lent

    def give_back(self, lent):
        self.store, self.held_store = lent

    # -- the settings -----------------------------------------------------------

    def use_settings(self, s):
        """The saved settings' game part (the next start, the game's own)
        into effect at power-up, as they are."""
        self.next_start = s.get("next_start") % len(self.game.SIDES)
        for k in self.game.SETTINGS:
            self.options[k] = s.get(k)

    def keep_options(self, opts):
        """The game's own settings {name: value} in effect for the games
        loaded or begun from now, the game on the table left as it is (a
        lesson left: the saved game resumes under its own rules; settings
        rebuilt from a resumed save)."""
        for k in opts:
            self.options[k] = opts[k]

    def set_next_start(self, side):
        """The side that starts the next game where the board alternates it
        (the caller saves the setting)."""
        self.next_start = side

    def save_setting(self, name, value):
        s = self.settings
        if s is None:
            return
        try:
            s.set(name, value)
            s.save()
        except Exception as e:
            self.events.event("error", "setting not saved: %s" % e)
            self.settings_unsaved = True
            self.flush_at = None
            self._tell("setting %s not saved" % name)
