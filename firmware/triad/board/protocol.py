# The board's line protocol over USB serial (version 2; docs/protocol.md).
# Lines are printable ASCII, at most MAX_LINE bytes, ending in "\n" (or
# "\r"). The host sends commands; the board answers each with exactly one
# line starting "ok <command>" or "err <code> <text>", and reports what
# happens on the board as lines starting "evt <kind> ".
#
# Robustness: feed() never raises, never waits, and a command that is
# malformed, too long or not allowed now changes nothing (not the game, not
# a setting, not a lesson): each command reads and checks its whole line
# before it changes anything. poll() runs every tick and allocates nothing unless the
# board's state or its count of player mistakes changed.
from triad import VERSION
from triad.board.seats import seats_word
from triad.board.fastbytes import copy_if_changed as _copy_if_changed
from triad.compat import const

PROTOCOL_VERSION = const(2)
MAX_LINE = const(200)
MOVES_PER_LINE = const(24)  # "evt full moves" lines stay well under 200 bytes

# The board's setting names on the wire -> names in settings.txt; each game
# adds its own (game.SETTING_CHOICES: "note2_triads" goes as "note2-triads").
BOARD_SETTINGS = (("brightness", "brightness"), ("start", "next_start"))
BOARD_SETTINGS_AFTER = (("opponent", "opponent"), ("level", "level"), ("sound", "sound"))
ON_OFF = ("off", "on")
COMMANDS = "hello help state status moves start position new set get game lesson remote review"

from triad.board.states import FINISH as _FINISH, SELFTEST as _SELFTEST, CHOOSE as _CHOOSE  # noqa: E402


class Protocol:
    def __init__(self, controller, write, settings=None, apply=None, game=None):
        self.ctl = controller
        self.game = game
        self.write = write  # write(text) sends one whole line (with "\n")
        self.settings = settings  # store.Settings, or None (no settings commands)
        self.apply = apply  # apply(name, value) -> value in effect (e.g. brightness)
        self.line = bytearray(MAX_LINE)
        self.n = 0
        self.overflow = False
        self.commands = 0  # lines executed (for tests and diagnostics)
        self._state = -1
        self._faults = 0
        self.games = ()  # the board's games (App sets them)
        self.choose_game = None  # App.choose_game: switch to another game
        self._notice = False
        self.lessons = _unset()  # board/lessons.py (App sets it): the teaching mode
        self.review = _unset()  # board/review_mode.py (App sets it): a game looked back on
        if controller is not None:
            self.attach(controller)

    def attach(self, controller):
        """The controller whose game this line reports and drives."""
        self.ctl = controller
        g = self.game = controller.game
        # The diagnosis last told (evt fix): the lights' record, copied.
        self._fix = bytearray(len(controller.lights.fix))
        keys = {}
        order = []
        for wire, key in BOARD_SETTINGS:
            keys[wire] = key
            order.append(wire)
        for key in g.SETTINGS:
            wire = key.replace("_", "-")
            keys[wire] = key
            order.append(wire)
        for wire, key in BOARD_SETTINGS_AFTER:
            keys[wire] = key
            order.append(wire)
        self.setting_keys = keys
        self.setting_order = tuple(order)

    # -- board -> host ------------------------------------------------------------

    def event(self, kind, text):
        """Events from the controller go out as they happen."""
        self.write("evt " + kind + " " + text + "\n")

    def poll(self):
        """Once per tick, after the controller's update: report a state
        change, a new player mistake and the game's notice (Note 2) arising or
        passing. No allocation when nothing changed."""
        ctl = self.ctl
        if ctl is None:
            return
        if ctl.state != self._state:
            self._state = ctl.state
            self.event("state", ctl.state_name())
            if ctl.state == _CHOOSE:
                # The site whose hidden outcome the buttons pick (a die
                # turned in place): its words say which values and why.
                self.event("choose", self.game.SITE_NAMES[ctl.matcher.choice_site])
        if ctl.errors != self._faults:
            self._faults = ctl.errors
            self.event("fault", self._fault_text())
        if _copy_if_changed(ctl.lights.fix, self._fix, len(self._fix)):
            self.event("fix", self._fix_text())
        note = ctl.matcher.note2
        if note != self._notice:
            # The game's notice (Nehren's Note 2) arose or passed: told at
            # once, before anyone acts.
            self._notice = note
            self.event("notice", (self.game.notice(ctl.pos) or "none") if note else "none")

    def _fix_text(self):
        # "none", or the sites as the lights show them: "empty D4 a2 fill S1
        # back S1 take H7", then "fault" (the board declares it) and
        # "ambiguous".
        f = self._fix
        n = len(f) - 1
        names = self.game.SITE_NAMES
        out = []
        for code, word in ((1, "empty"), (2, "fill"), (3, "back"), (4, "take")):  # lights.FIX_EMPTY, _FILL, _BACK, _TAKE
            sites = [names[i] for i in range(n) if f[i] == code]
            if sites:
                out.append(word + " " + " ".join(sites))
        if f[n] & 1:
            out.append("fault")
            m = self.ctl.matcher
            if m.amb and m.n_full:  # two turns fit the switches (the fault text names them)
                out.append("ambiguous")
        return " ".join(out) or "none"

    def _fault_text(self):
        ctl = self.ctl
        m = ctl.matcher  # (its verdict on the board)
        at = m.error_at
        fr = m.error_from
        name = ctl.state_name()
        names = self.game.SITE_NAMES
        if m.amb and m.n_full:
            return "ambiguous %s or %s: put the pieces back and play the turn again" % (
                ctl.record.move_text(m.full), ctl.record.move_text(m.amb))
        if at >= 0 and fr >= 0:
            return "illegal %s from %s" % (names[at], names[fr])
        if at >= 0 and ctl.state == _FINISH:
            return "removal %s" % names[at]
        return "mismatch " + name

    # -- host -> board ------------------------------------------------------------

    def feed(self, data):
        """Take received bytes; complete lines are executed. Never raises."""
        for b in data:
            if b == 10 or b == 13:
                if self.overflow:
                    self.write("err too-long line longer than %d bytes\n" % MAX_LINE)
                elif self.n:
                    self._line()
                self.n = 0
                self.overflow = False
            elif self.overflow:
                continue
            elif self.n >= MAX_LINE:
                self.overflow = True
            else:
                self.line[self.n] = b
                self.n += 1

    def _line(self):
        line = self.line
        for i in range(self.n):
            b = line[i]
            if b < 32 or b > 126:
                self.write("err encoding only printable ASCII is accepted\n")
                return
        self.commands += 1
        try:
            text = bytes(line[: self.n]).decode()
            self.write(self.execute(text.strip()) + "\n")
        except Exception as e:  # a bug must not take the board down
            self.write("err internal %s\n" % type(e).__name__)

    def execute(self, text):
        """One command line (already stripped) -> its reply line."""
        parts = text.split(None, 1)
        if not parts:
            return "err empty blank line"
        cmd = parts[0]
        arg = parts[1] if len(parts) > 1 else ""
        ctl = self.ctl
        if cmd == "hello":
            return "ok hello triad-board %s proto %d game %s" % (VERSION, PROTOCOL_VERSION, self.game.NAME)
        if cmd == "help":
            return "ok help " + COMMANDS
        if cmd in ("state", "status", "moves", "start") and arg:
            return "err usage %s takes no argument" % cmd
        if cmd == "state":
            return "ok state %s %s" % (ctl.state_name(), ctl.record.position_text())
        if cmd == "status":
            self._full()
            return "ok status"
        if cmd == "moves":
            return ("ok moves " + ctl.record.moves_text()).rstrip()
        if cmd == "start":
            return "ok start %s" % ctl.record.start_text
        if cmd == "position":
            if not arg:
                return "err usage position <position>"
            if ctl.state == _SELFTEST:
                return "err busy the switch self-test is running"
            # Read whole before anything changes: a refused line must not
            # end a lesson (nor, with the lesson's rules given back, begin
            # the saved game afresh: issue 36).
            try:
                self.game.parse_position(arg)
            except ValueError as e:  # NotationError
                return "err notation " + str(e)
            self._end_lesson()
            try:
                ctl.start_position(arg)
            except ValueError as e:  # (read above: the store refusing it)
                return "err notation " + str(e)
            return "ok position"
        if cmd == "new":
            if arg:
                return "err usage new takes no argument"
            if ctl.state == _SELFTEST:
                return "err busy the switch self-test is running"
            self._end_lesson()
            ctl.new_game()
            return "ok new"
        if cmd == "game":
            return self._game(arg)
        if cmd == "lesson":
            return self._lesson(arg)
        if cmd == "remote":
            return self._remote(arg)
        if cmd == "review":
            return self._review(arg)
        if cmd == "get":
            return self._get(arg)
        if cmd == "set":
            return self._set(arg)
        return "err unknown-command " + cmd[:20]

    def _game(self, arg):
        names = " ".join(self.games or (self.game.NAME,))
        if not arg:
            return "ok game %s (%s)" % (self.game.NAME, names)
        if self.ctl.state == _SELFTEST:
            return "err busy the switch self-test is running"
        if self.choose_game is None or arg not in self.games:
            return "err value game is one of %s" % names
        self._end_lesson()
        why = self.choose_game(arg)
        if why:
            return "err value " + why
        return "ok game %s" % arg

    def _end_lesson(self):
        # A position, a new game or another game ends a lesson first (the
        # store is given back; the saved game is not resumed), and a review.
        les = self.lessons
        if les is not None and les.active:
            les.stop(False)
        rv = self.review
        if rv is not None and rv.active:
            rv.stop(False)

    def _review(self, arg):
        # The review mode (docs/protocol.md): `review` its state, `review
        # on|off`, `review <ply>` a move, `review try` try again there.
        rv = self.review
        if rv is None:
            return "err unsupported no review on this board"
        if not arg:
            return "ok review " + rv.status()
        if arg == "off":
            rv.stop()
            return "ok review off"
        if arg == "on":
            les = self.lessons
            if les is not None and les.active:
                return "err busy a lesson is running"
            why = rv.can_start()
            if why:
                return "err " + why
            rv.start()
            return "ok review " + rv.status()
        if not rv.active:
            return "err busy review is off (review on)"
        if arg == "try":
            why = rv.try_again()
            if why:
                return "err " + why
            return "ok review " + rv.status()
        if not arg.isdigit() or len(arg) > 4 or not 1 <= int(arg) <= rv.n:
            return "err value review is on, off, try or a move 1..%d" % rv.n
        if rv.phase:
            return "err busy try again runs (new ends it)"
        rv.go(int(arg))
        return "ok review " + rv.status()

    def _lesson(self, arg):
        les = self.lessons
        count = les.count() if les is not None else 0
        if not count:
            return "err unsupported %s has no lessons" % self.game.NAME
        if not arg:
            return "ok lesson %s of %d" % (les.n if les.active else "off", count)
        if arg == "off":
            les.stop()
            return "ok lesson off"
        if self.ctl.state == _SELFTEST:
            return "err busy the switch self-test is running"
        if self.review is not None and self.review.active:
            return "err busy a review is running (review off)"
        if not arg.isdigit() or len(arg) > 3 or not 1 <= int(arg) <= count:
            return "err value lesson is 1..%d or off" % count
        n = int(arg)
        les.start(n)
        return "ok lesson %d %s" % (n, les.goal(n))

    def _remote(self, arg):
        # The remote seats (docs/protocol.md): who they are, or a move of
        # theirs to show and wait for. Checked whole before anything changes.
        ctl = self.ctl
        sides = self.game.SIDES
        if not arg:
            em = ctl.matcher.engine_move
            waiting = ctl.record.move_text(em) if em and (ctl.seats.remote >> ctl.pos.side) & 1 else "-"
            return "ok remote %s %s" % (seats_word(sides, ctl.seats.remote), waiting)
        words = arg.split()
        if words[0] == "seats":
            choices = tuple(seats_word(sides, m) for m in range(1 << len(sides)))
            if len(words) != 2 or words[1] not in choices:
                return "err value remote seats is %s" % _or(choices)
            if ctl.state == _SELFTEST or (self.lessons is not None and self.lessons.active):
                return "err busy remote seats are chosen in a game"
            ctl.set_remote(choices.index(words[1]))
            return "ok remote seats " + seats_word(sides, ctl.seats.remote)
        if len(words) > self.game.MOVE_WORDS:
            return "err usage remote <move> or remote seats <sides|off>"
        try:
            why = ctl.remote_move(arg)
        except ValueError as e:  # NotationError: malformed, or no legal move
            return "err notation " + str(e)
        if why:
            return "err " + why
        return "ok remote " + ctl.record.move_text(ctl.matcher.engine_move)

    # -- the full state -------------------------------------------------------------

    def _full(self):
        ctl = self.ctl
        g = self.game
        pos = ctl.pos
        ev = self.event
        sides = g.SIDES
        ev("full", "firmware %s proto %d game %s sides %s" % (VERSION, PROTOCOL_VERSION, g.NAME, sides))
        ev("full", "state " + ctl.state_name())
        ev("full", "turn " + sides[pos.side])
        ev("full", "score " + " ".join(str(g.score(pos, p)) for p in range(len(sides))))
        w = g.outcome(pos)
        ev("full", "winner " + (sides[w] if 0 <= w < len(sides) else "-"))
        ev("full", "start " + ctl.record.start_text)
        ev("full", "position " + ctl.record.position_text())
        words = ctl.record.moves_text().split()
        n = len(words)
        ev("full", "nmoves %d" % n)
        for i in range(0, n, MOVES_PER_LINE):
            ev("full", "moves " + " ".join(words[i : i + MOVES_PER_LINE]))
        ev("full", "meta " + (ctl.record.meta or "-"))
        ev("full", "settings " + " ".join(k + "=" + self._value(k) for k in self.setting_order))

    # -- settings ----------------------------------------------------------------------

    def _choices(self, name):
        """The words a setting takes on the wire, or None for a number."""
        key = self.setting_keys[name]
        if name == "start":
            return tuple(self.game.SIDES)
        if name == "opponent":
            sides = self.game.SIDES
            return tuple(seats_word(sides, m) for m in range(1 << len(sides)))
        if name == "sound":
            return ON_OFF
        if key in self.game.SETTINGS:
            return self.game.SETTING_CHOICES[key]
        return None

    def _value(self, name):
        key = self.setting_keys[name]
        if name == "start":
            return self.game.SIDES[self.ctl.record.next_start % len(self.game.SIDES)]
        v = self._stored(key)
        words = self._choices(name)
        if words is not None:
            return words[v % len(words)]
        return str(v)

    def _stored(self, key):
        try:
            return self.settings.get(key)
        except (AttributeError, KeyError):
            return 0

    def _get(self, arg):
        if self.settings is None:
            return "err unsupported this board keeps no settings"
        order = self.setting_order
        if not arg:
            return "ok get " + " ".join(k + "=" + self._value(k) for k in order)
        if arg not in self.setting_keys:
            return "err unknown-setting %s (one of %s)" % (arg[:20], ", ".join(order))
        return "ok get %s %s" % (arg, self._value(arg))

    def _set(self, arg):
        if self.settings is None:
            return "err unsupported this board keeps no settings"
        words = arg.split()
        if len(words) != 2:
            return "err usage set <setting> <value>"
        name, text = words
        if name not in self.setting_keys:
            return "err unknown-setting %s (one of %s)" % (name[:20], ", ".join(self.setting_order))
        choices = self._choices(name)
        if name == "brightness":
            if not text.isdigit() or len(text) > 3 or int(text) > 255:
                return "err value brightness is a whole number 0..255"
            value = int(text)
        elif name == "level":
            if text not in ("1", "2", "3", "4", "5"):
                return "err value level is 1..5"
            value = int(text)
        elif text not in choices:
            what = " (the sides the board plays)" if name == "opponent" else ""
            return "err value %s is %s%s" % (name, _or(choices), what)
        else:
            value = choices.index(text)
        if self.apply is not None:
            value = self.apply(name, value)
        if name == "start":
            self.ctl.record.set_next_start(value)
        s = self.settings
        s.set(self.setting_keys[name], value)
        try:
            s.save()
        except Exception as e:  # a full or failing flash: in effect, not kept
            return "err flash %s set to %s but not saved: %s" % (name, self._value(name), e)
        return "ok set %s %s" % (name, self._value(name))


def _or(words):
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]


def _unset():
    # None, typed as anything: the attribute is set later (mypy, untyped def).
    return None
