# The board's main loop: switches -> debounced snapshot -> controller ->
# LED frame, at a steady rate, plus the serial console. The same code runs
# on the Pico and, over simulated machine/neopixel modules, in the simulator.
import random
import time

from triad.compat import ticks_add, ticks_diff
# The store first: the largest module, compiled from source (the unix
# port's tests, bench/) while the heap is still whole. Imported after the
# controller it needed a heap of 270K+ there once a single name was added
# to it (fragmentation); first, about 160K.
from triad.board.store import GameStore, Settings
from triad.board.fastbytes import copy_if_changed
from triad.board.scan import MatrixScanner, Buttons
from triad.board.controller import Controller
from triad.board.thinker import ASKED, DONE
from triad.board.states import SETUP, OVER, SYNC, BTN_MENU, BTN_HINT
from triad.board.protocol import Protocol
from triad import games

# The board's own settings; each game adds its own (game.SETTINGS, e.g.
# Nehren's note2_triads). opponent: the sides the board plays, one bit each
# (0 nobody; for two sides 1 and 2 are the one-game firmware's values); level: the engine's strength 1..5; next_start: the side
# that starts the next game where the board alternates it; sound: the piezo's
# cues (board/sound.py), off unless asked for; remote: the sides whose moves
# come over the serial line (the protocol's `remote`), one bit each.
SETTING_DEFAULTS = {"brightness": 64, "next_start": 0, "opponent": 0, "level": 3, "sound": 0, "remote": 0}
MENU_BUTTON = BTN_MENU  # index in BUTTON_NAMES (confirm, new, hint, menu)
_MENU_SHORT = BTN_MENU * 2  # a short menu press (board.scan's event code)
_HINT_SHORT = BTN_HINT * 2
# While the engine searches, the loop ticks from the engine's clock reads,
# and a tick due on the grid runs at the first read after its time: a scan
# would come up to one of the search's slices late. So the matrix is also
# read (App._read_between) at the first clock read SEARCH_SLICE_MS before
# the scan period is up since the last reading: every gap between two
# readings stays within the period as long as no slice between two clock
# reads is longer (issue 48; docs/performance.md, "When the switches are
# read"). 5: Browne's buffers, made between two reads at the search's
# start, took 4.6 ms on the chip.
SEARCH_SLICE_MS = 5


class App:
    def __init__(self, desc, hw, serial, seed, root="", fs=None, ticks_ms=None, sleep_ms=None):
        self.desc = desc
        self.hw = hw
        self.serial = serial
        self.root = root
        self.fs = fs
        self.scanner = MatrixScanner(desc)
        self.buttons = Buttons(desc)
        self.raw = bytearray(len(desc.MATRIX_CELL))
        self.levels = bytearray(len(desc.BUTTON_PINS))
        self.period_ms = 1000 // desc.SCAN_HZ
        self._half_ms = self.period_ms // 2
        self._read_at = 0  # ms: the last reading of the matrix (a tick's or one between)
        self._exact_wake = getattr(hw, "exact_wake", False)  # (drivers/rp2.py)
        self._late_read_ms = self.period_ms - SEARCH_SLICE_MS
        self._tick_clock = None  # the loop's clock while the loop runs a tick (_read_if_late)
        self._search_clock = None  # the same, while that tick runs inside a search
        random.seed(seed)
        # The runtime's clock and flash come with the drivers where they are
        # not MicroPython's (triad.drivers.open_board: CircuitPython's time
        # has no ticks_ms/sleep_ms, and its flash may be read-only to us).
        self.ticks_ms = ticks_ms or getattr(time, "ticks_ms", None)
        self.sleep_ms = sleep_ms or getattr(time, "sleep_ms", None)
        self.errors = 0
        # The optional piezo's cues (hw.buzzer None: the board has none).
        # (board/sound.py is imported only when the cues are switched on:
        # most boards never do, and the RAM is the board's.)
        self.sound = _unset(_NO_SOUND)
        # Which of the board's games is played: kept in the board's own
        # settings; menu held at power-up steps to the next one.
        self.board_settings = Settings(root, {"game": 0}, fs, game="board")
        n = len(desc.GAMES)
        k = self.board_settings.get("game") % n
        if n > 1:
            hw.buttons.read_into(self.levels)
            if self.levels[MENU_BUTTON]:
                k = (k + 1) % n
                self._keep_game(k)
        self.start_game(desc.GAMES[k])

    def start_game(self, name):
        """Play game `name` (one of the board's GAMES): its own saved game
        and settings are resumed, the others stay on flash untouched."""
        desc = self.desc
        game = games.load(name)
        self.game = game
        if getattr(self.hw, "code_in_flash", False):
            # The engine's modules now, before the loop scans: imported at
            # the board's first search they held the scan up to 13 ms each
            # (an import is one piece), and frozen they cost little RAM
            # (drivers/rp2.py, code_in_flash; the engine itself, 15-21 KB,
            # is still made at its first use: board/player.py).
            for m in game.ENGINE_MODULES:
                __import__(m)
        if game.N_SITES > desc.N_SITES:
            raise ValueError("%s needs %d spots; board %s has %d" % (name, game.N_SITES, desc.NAME, desc.N_SITES))
        frame_bytes = 3 * (desc.N_SITES + desc.N_STATUS)
        self.frame = bytearray(frame_bytes)
        self.shown = bytearray(frame_bytes)
        # Inside a search a frame goes out only after a reading when the
        # last one is this old: the frame would end past the period (its
        # bitstream 30 us an LED, tri_v1's 141 4.2 ms, and about 1 ms more
        # of the driver's, rounded up).
        self._frame_read_ms = self.period_ms - ((frame_bytes // 3) * 30 + 999) // 1000 - 1
        defaults = {}
        for k in SETTING_DEFAULTS:
            defaults[k] = SETTING_DEFAULTS[k]
        defaults["level"] = game.DEFAULT_LEVEL
        for k in game.SETTINGS:
            defaults[k] = game.SETTINGS[k]
        root = self.root
        fs = self.fs
        self.store = GameStore(root, fs, game=game.NAME, on_safe=self._on_safe)
        self.settings = Settings(root, defaults, fs, game=game.NAME, make_room=self.store.make_room)
        self.protocol = Protocol(None, self.serial.write, self.settings, self._apply_setting)
        self.protocol.games = desc.GAMES
        self.protocol.choose_game = self.choose_game
        ctl = Controller(game, desc, self.store, self.settings, _roll, self.protocol, self.ticks_ms)
        self.ctl = ctl
        # The loop runs the engine's searches between its ticks and ticks
        # from inside them (board/thinker.py, docs/architecture.md).
        self.thinker = ctl.seats.thinker
        self.thinker.inline = False
        self.thinker.tick = self._tick_if_due
        self.next_tick = 0
        self.protocol.attach(ctl)
        # The teaching mode (board/lessons.py): short menu in set-up, or the
        # serial line's `lesson <n>`.
        self.lessons = _LessonsOnDemand(ctl, self.protocol)
        self.protocol.lessons = self.lessons
        # The review mode (board/review_mode.py): a short hint once a game
        # is over, or the serial line's `review on`.
        self.review = _ReviewOnDemand(ctl, self.protocol, self._tick_if_due, self.ticks_ms)
        self.protocol.review = self.review
        ctl.use_settings(self.settings)
        self.hw.leds.set_brightness(self.settings.get("brightness"))
        self._set_sound(self.settings.get("sound"))
        if not ctl.load_saved():
            if self.store.last_error:
                # A saved game is on flash but could not be read (no RAM, a
                # corrupt file): play a new game without saving it, so the
                # old one stays untouched until a new game is asked for.
                ctl.record.hold_store()
            ctl.new_game()
        if self.settings.unread or self.board_settings.unread:
            self._settings_unread()
        # Show the first frame at once, whatever it is.
        self.shown[0] = 1

    def _settings_unread(self):
        """A settings file that could not be read (issue 36): the game's own
        settings the resumed game carries come back from it (unless it is
        over: its end may have moved them on), the rest are
        at their defaults, each said by name (`evt error settings ...`, the
        page) with the turn LEDs blinking red fast until a button."""
        from triad.board.store import parse_rules

        s = self.settings
        rec = self.ctl.record
        rules = (parse_rules(self.store.rules) or {}) if rec.store is not None else {}
        if self.game.outcome(self.ctl.pos) >= 0 or rec.draw:
            rules = {}  # (a finished game may have moved them on: a tourney's tally)
        back = {}
        for k in self.game.SETTINGS:
            if k in s.unread and k in rules:
                s.set(k, rules[k])  # (written with the next change of a setting)
                back[k] = rules[k]
        rec.keep_options(back)
        p = self.protocol
        said = []
        for wire in p.setting_order:
            key = p.setting_keys[wire]
            if key in s.unread and key not in back:
                said.append("%s=%s" % (wire, p._value(wire)))
        if self.board_settings.unread:
            said.append("game=" + self.game.NAME)
            self.board_settings.unread = ()  # (said once, not at each game chosen)
        why = s.last_error or self.board_settings.last_error
        text = "settings not read (%s): at their defaults: %s" % (why, " ".join(said) or "-")
        if back:
            text += "; from the saved game: " + " ".join(
                "%s=%s" % (k.replace("_", "-"), p._value(k.replace("_", "-"))) for k in back)
        self.protocol.event("error", text)
        rec.save_lost = True

    def choose_game(self, name):
        """The protocol's `game NAME`: switch games now (the current game
        stays saved). Returns an error text, or None."""
        if name not in self.desc.GAMES:
            return "this board plays %s" % ", ".join(self.desc.GAMES)
        self._keep_game(self.desc.GAMES.index(name))
        if name != self.game.NAME:
            self.ctl.record.write_start()  # a start still kept in memory: on flash before this game's store goes
            self.start_game(name)
        return None

    def _keep_game(self, k):
        try:
            self.board_settings.set("game", k)
            self.board_settings.save()
        except Exception as e:  # the choice holds until the next power-up
            self.serial.write("evt error game choice not saved: %s\n" % e)

    def tick(self, now):
        hw = self.hw
        self._read_at = now
        hw.matrix.read_into(self.raw)
        self.scanner.update(self.raw, now)
        hw.buttons.read_into(self.levels)
        self.buttons.update(self.levels, now)
        ev = self.buttons.pop()
        stable = self.scanner.stable
        # The teaching mode, once it was first asked for (a plain attribute
        # read per tick: a property costs the board ~0.1 ms each time).
        les = self.lessons._real
        on = les is not None and les.active
        if ev >= 0 and not on:
            ev = self.review.button(ev, now)  # (first: a try's set-up is no lesson's)
        rv = self.review._real
        rv = rv if rv is not None and rv.active else None
        if ev >= 0 and rv is None and (on or self.ctl.state == SETUP):  # a lesson may start in set-up
            ev = self.lessons.button(ev, now)
            les = self.lessons._real
            on = les is not None and les.active
        if rv is None or not rv.holds:  # (the review's steps: the table rests)
            self.ctl.update(now, stable, self.scanner.stable_for(now), ev)
        if rv is not None:
            rv.update(now)
            rv = rv if rv.active else None
        if on:
            les.update(now)
            on = les.active
        snd = self.sound
        if snd.on:
            # The clock read again: a committed move was written to flash in
            # the controller's update (tens of ms on the chip), and a cue
            # timed from the tick's start would lose that much of its length.
            # (A tick given its time by a test without a clock keeps it.)
            clock = self.ticks_ms
            snd.update(self.ctl, clock() if clock is not None else now)
        if rv is None or not rv.holds:
            self.ctl.render(self.frame, now, stable)
        if on:
            les.render(self.frame, now, stable)
        if rv is not None:
            rv.render(self.frame, now, stable)
        if _copy_if_changed(self.frame, self.shown):
            # Inside a search the readings' rhythm is what is promised (no
            # gap over the period while the engine searches), and a lift's
            # or a knock's update, lights and frame ran 12.5 ms on the chip
            # (tri_v1's 141 LEDs: 5.2 ms of it): read first if the frame
            # would end past the period. At rest the lift's light comes
            # first (within 25 ms of the lift: a reading here made
            # Cornelson's 25.7).
            self._read_if_late(self._search_clock, self._frame_read_ms)
            hw.leds.show(self.frame)
        self._read_if_late(self._tick_clock)  # (after the frame: a lift's light does not wait for it)
        self.protocol.poll()
        # (and after the tick's words: a line on the USB serial waits for the
        # host to take it, 4 ms and more on the chip)
        self._read_if_late(self._tick_clock)
        data = self.serial.read()
        if data:
            self.protocol.feed(data)

    def _read_if_late(self, clock, late_ms=0):
        # A long tick reads the switches between its parts: Cornelson's
        # tick that sees a knocked piece ran 13 ms on the chip (its update
        # and lights 2.7 ms, tri_v1's frame 5 ms of bitstream, its words on
        # the serial line 4 ms), a gap in the readings longer than the
        # period (issue 48). (Only a tick the loop runs, on the loop's
        # clock: a test's tick is given a time of its own.)
        if clock is not None:
            t = clock()
            if ticks_diff(t, self._read_at) >= (late_ms or self._late_read_ms):
                self._read_between(t)

    def _on_safe(self, safe, reason):
        # The store's word on whether every committed move is on flash: the
        # player is told both ways (status LEDs, serial line, page).
        ctl = getattr(self, "ctl", None)
        if ctl is not None:
            ctl.record.saved_state(safe, reason)

    def _apply_setting(self, name, value):
        """A setting changed over the serial line: put it in effect now and
        return the value in effect (the LED driver caps the brightness)."""
        if name == "brightness":
            leds = self.hw.leds
            leds.set_brightness(value)
            return getattr(leds, "brightness", value)
        key = name.replace("-", "_")
        if key in self.game.SETTINGS:
            self.ctl.set_option(key, value)
        elif name == "opponent":
            self.ctl.seats.set(value)
        elif name == "level":
            self.ctl.seats.set_level(value)
        elif name == "sound":
            return 1 if self._set_sound(value) else 0  # off where there is no piezo
        return value

    def _set_sound(self, on):
        buzzer = getattr(self.hw, "buzzer", None)
        if self.sound is _NO_SOUND:
            if not on or buzzer is None:
                return False
            from triad.board.sound import Sound

            self.sound = Sound(buzzer)
        return self.sound.set_on(on)

    def _safe_tick(self, now):
        try:
            self.tick(now)
        except Exception as e:  # keep scanning: a bug must not brick a game
            self.errors += 1
            self.serial.write("evt error internal %s %s\n" % (type(e).__name__, e))

    def _tick_if_due(self, ahead=0):
        # Called by the engine's clock (through the thinker) every few nodes
        # while it searches: the scan period is kept during the search.
        # ahead: the caller's word that its next read may come this long
        # after this one (ms; 0: a search's slice, SEARCH_SLICE_MS at most;
        # thinker.READ_ONLY: the read past the budget, which leaves a due
        # tick to the loop).
        ticks_ms = self.ticks_ms or time.ticks_ms
        now = ticks_ms()
        read_ms = self.period_ms - (ahead if ahead > SEARCH_SLICE_MS else SEARCH_SLICE_MS)
        if ahead >= 0 and ticks_diff(now, self.next_tick) >= 0:
            # _safe_tick written out: this tick runs under the search's
            # deepest frame, and one frame less leaves about 220 bytes more
            # of the 8 KiB C stack (docs/performance.md, "C stack margin").
            self._tick_clock = self._search_clock = ticks_ms
            try:
                self.tick(now)
            except Exception as e:  # keep scanning: a bug must not brick a game
                self.errors += 1
                self.serial.write("evt error internal %s %s\n" % (type(e).__name__, e))
            self._tick_clock = self._search_clock = None
            nxt = ticks_add(self.next_tick, self.period_ms)
            if ticks_diff(nxt, now) <= 0:
                # far behind: no burst of ticks; the next one on the grid
                nxt = self._on_grid(now)
                if ticks_diff(nxt, now) <= 0:
                    nxt = ticks_add(nxt, self.period_ms)
            self.next_tick = nxt
            # (the tick's own time counts: a tick that sent a frame of
            # tri_v1's 141 LEDs ran 4.2 ms of bitstream before the next slice)
            now = ticks_ms()
        if ticks_diff(now, self._read_at) >= read_ms:
            # The next clock read may come a slice after this one, and the
            # switches would then be read late: they are read now (no tick:
            # the controller sees what they say at the next one).
            self._read_between(now)

    def _read_between(self, now):
        self._read_at = now
        self.hw.matrix.read_into(self.raw)
        self.scanner.read_between(self.raw, now)

    def _halfway(self, ticks_ms):
        # A switch is changing (its reading differs from the snapshot): it
        # is read once more halfway to the next tick, so the debounce's
        # agreeing readings take 10 ms instead of 20 and a lifted piece's
        # lights come a scan sooner (issue 48: within 25 ms of the lift).
        # (halfway on the grid, not after the tick's start: the reading
        # keeps its place in the rhythm, which the emulated board's model
        # counts its ticks by: simulator/pico.py)
        half = ticks_add(self.next_tick, -self._half_ms)
        if ticks_diff(half, self._read_at) <= 0:
            return  # (read already since then)
        wait = ticks_diff(half, ticks_ms())
        if wait > 0:
            (self.sleep_ms or time.sleep_ms)(wait)
        self._read_between(ticks_ms())

    def _on_grid(self, now):
        # The next tick of the loop's rhythm at or after now. A tick or a
        # command that ran long skips the ticks it missed (no burst) but not
        # the rhythm's phase: every tick's `now` stays on the grid the board
        # started on, as the simulator's ticks do (blinks and animations
        # turn on multiples of the period; the scanner dates changes on it).
        p = self.period_ms
        late = ticks_diff(now, self.next_tick)
        if late <= 0 or late % p == 0:
            return self.next_tick if late <= 0 else now
        return ticks_add(self.next_tick, (late // p + 1) * p)  # (off the grid: wait for it)

    def step(self):
        """One round of the main loop: a tick, then the search the
        controller asked for (ticking from inside it), then sleep to the
        next tick."""
        ticks_ms = self.ticks_ms or time.ticks_ms
        self._tick_clock = ticks_ms
        if self.thinker.state == DONE:
            # (the tick that takes the search's answer is the search's last:
            # the board's move, its lights and words, then its frame, ran
            # 10.7 ms on tri_v1 between two readings)
            self._search_clock = ticks_ms
        self._safe_tick(ticks_ms())
        self._tick_clock = self._search_clock = None
        self.next_tick = ticks_add(self.next_tick, self.period_ms)
        searched = False
        if self.thinker.state == ASKED:
            self._read_if_late(ticks_ms)  # (the tick that asked ran long: before the search's first step)
            self.thinker.run()
            searched = True
        rv = self.review._real
        if rv is not None and rv.active:
            rv.work()  # the review's analysis, a slice (its search ticks the loop)
            searched = True
        self.next_tick = self._on_grid(ticks_ms())
        if searched and ticks_diff(self.next_tick, self._read_at) >= self.period_ms:
            # (the search's last reading a period or more before the next
            # tick, as after the budget's last read: read now. A whole
            # period in ms is up to a ms more on the chip, with the tick's
            # row drive after it: Cornelson's 10.7 ms at a search's end)
            self._read_between(ticks_ms())
        if self.scanner.unsettled():
            self._halfway(ticks_ms)
        wait = ticks_diff(self.next_tick, ticks_ms())
        if wait > 0:
            if self._exact_wake:
                if wait > 1:
                    (self.sleep_ms or time.sleep_ms)(wait - 1)
                while ticks_diff(self.next_tick, ticks_ms()) > 0:
                    pass
            else:
                (self.sleep_ms or time.sleep_ms)(wait)

    def run(self):
        self.next_tick = self._read_at = (self.ticks_ms or time.ticks_ms)()
        while True:
            self.step()


def _copy_if_changed(src, dst):
    # Not dst[:] = src: that allocates a slice object on the board's MicroPython.
    return copy_if_changed(src, dst, len(src))


def _unset(value):
    # value, typed as anything: the attribute takes another type later
    # (mypy reads an untyped def's result as Any).
    return value


class _NoSound:
    on = False  # the cues were never switched on (App._set_sound)


_NO_SOUND = _NoSound()


class _LessonsOnDemand:
    """The teaching mode, imported when first asked for (a short menu in
    set-up, or the serial line): its code stays out of RAM until then."""

    def __init__(self, ctl, events):
        self._args = (ctl, events)
        self._real = _unset(None)  # board/lessons.Lessons once asked for

    @property
    def active(self):
        return self._real is not None and self._real.active

    def button(self, ev, now):
        if self._real is not None:
            return self._real.button(ev, now)
        if ev < 0 or ev != _MENU_SHORT or self._args[0].state != SETUP:
            return ev  # only a short menu in set-up starts a lesson
        return self._load().button(ev, now)

    def _load(self):
        if self._real is None:
            from triad.board.lessons import Lessons

            self._real = Lessons(*self._args)
        return self._real

    def __getattr__(self, name):
        real = self._load()
        return getattr(real, name)


class _ReviewOnDemand:
    """The review mode, imported when first asked for (a short hint once a
    game is over, or the serial line): its code stays out of RAM until then."""

    def __init__(self, ctl, events, tick, ticks_ms):
        self._args = (ctl, events, tick, ticks_ms)
        self._real = _unset(None)  # board/review_mode.ReviewMode once asked for

    @property
    def active(self):
        return self._real is not None and self._real.active

    def button(self, ev, now):
        if self._real is not None:
            return self._real.button(ev, now)
        ctl = self._args[0]
        if ev != _HINT_SHORT or not (ctl.state == OVER or ctl.state == SYNC) or not ctl.record.history:
            return ev  # only a short hint once a game is over starts a review
        if ctl.game.outcome(ctl.pos) < 0 and not ctl.record.draw:
            return ev
        return self._load().button(ev, now)

    def _load(self):
        if self._real is None:
            from triad.board.review_mode import ReviewMode

            self._real = ReviewMode(*self._args)
        return self._real

    def __getattr__(self, name):
        return getattr(self._load(), name)


def _roll():
    return random.randint(1, 3)


def main():
    from triad import boards
    from triad.drivers import open_board

    desc = boards.ACTIVE
    b = open_board(desc)
    App(desc, b.hw, b.serial, b.seed, fs=b.fs, ticks_ms=b.ticks_ms, sleep_ms=b.sleep_ms).run()
