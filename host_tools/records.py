"""Game records: the file format of docs/records.md, building a record from
the board's events, and turning a record into physical actions (a
`python -m simulator script` file)."""
import datetime
import os

from host_tools import games

MAGIC = "triad-record 1"
RESULTS = ("b", "w", "*")  # Nehren's; in general a side letter, "draw" or "*"
DEFAULT_GAME = "nehren"  # the game of a record without a Game: header


class RecordError(ValueError):
    pass


def header_order(game):
    """The header keys a record of this game writes, in order."""
    return ("Game", "Date") + tuple(game.SIDE_NAMES) + ("Setup", "Settings", "Start", "Result", "Final", "Board")


def results(game):
    return tuple(game.SIDES) + ("draw", "*")


def _load_game(name):
    if name not in games.NAMES:
        raise RecordError("Game: unknown game %r (one of %s)" % (name, ", ".join(games.NAMES)))
    return games.load(name)


def game_settings(game, wire_settings):
    """The game's own settings (its rules: Cornelson's mode and tourney
    tally, Nehren's note2-triads) from the board's settings ({wire name:
    word}, as `status` reports them), those that differ from the default."""
    out = {}
    choices = game.SETTING_CHOICES
    for key, default in game.SETTINGS.items():
        wire = key.replace("_", "-")
        if wire not in wire_settings:
            continue
        word = wire_settings[wire]
        words = choices.get(key)
        base = words[default] if words else str(default)
        if word != base:
            out[wire] = word
    return out


def apply_settings(game, pos, settings):
    """Put the record's settings ({wire name: word}) in effect on pos (the
    start position, before any move). RecordError for an unknown one."""
    choices = game.SETTING_CHOICES
    for wire, word in settings.items():
        key = wire.replace("-", "_")
        if key not in game.SETTINGS:
            raise RecordError("Settings: %s is not a setting of %s" % (wire, game.NAME))
        words = choices.get(key)
        if words:
            if word not in words:
                raise RecordError("Settings: %s must be %s" % (wire, _or(words)))
            value = words.index(word)
        else:
            try:
                value = int(word)
            except ValueError:
                raise RecordError("Settings: %s must be a number" % wire)
        game.apply_setting(pos, key, value)


def settings_text(settings):
    return " ".join("%s=%s" % kv for kv in settings.items())


def parse_settings(text):
    out = {}
    for item in text.split():
        k, sep, v = item.partition("=")
        if not sep or not k or not v:
            raise RecordError("Settings: '%s' is not name=value" % item)
        out[k] = v
    return out


class Record:
    def __init__(self, start=None, moves=(), date=None, black="?", white="?", setup="-", result="*",
                 board="", extra=None, game=DEFAULT_GAME, players=None, settings=None):
        self.game = _load_game(game) if isinstance(game, str) else game
        n = len(self.game.SIDES)
        self.start = start if start is not None else self.game.START
        self.moves = list(moves)
        self.date = date or now_text()
        self.players = list(players) if players is not None else ([black, white] + ["?"] * n)[:n]
        self.setup = setup
        self.result = result
        self.board = board
        self.extra = dict(extra or {})
        self.settings = dict(settings or {})  # the game's rules in effect (Settings: header)

    def start_position(self):
        """The start position with the record's settings in effect."""
        pos = self.game.parse_position(self.start)
        apply_settings(self.game, pos, self.settings)
        return pos

    @property
    def black(self):
        return self.players[0]

    @black.setter
    def black(self, name):
        self.players[0] = name

    @property
    def white(self):
        return self.players[1]

    @white.setter
    def white(self, name):
        self.players[1] = name

    def _moves(self):
        """(position before, move int) for every move, checking legality."""
        g = self.game
        pos = self.start_position()
        out = []
        for i, text in enumerate(self.moves):
            try:
                m = g.parse_move(pos, text)
            except g.NotationError as e:
                raise RecordError("move %d (%s): %s" % (i + 1, text, e))
            out.append((pos.copy(), m))
            pos.make(m)
        return out, pos

    def positions(self):
        """The positions from the start through every move (checks legality)."""
        played, last = self._moves()
        return [p for p, _ in played] + [last]

    def played(self):
        """(position before, move int) of every move (checks legality)."""
        return self._moves()[0]

    def final(self):
        return self.game.format_position(self._moves()[1])

    def computed_result(self):
        return result_of(self.game, self._moves()[1])

    # -- text -------------------------------------------------------------------
    def format(self):
        head = {
            "Game": self.game.NAME,
            "Date": self.date,
            "Setup": self.setup,
            "Start": self.start,
            "Result": self.result,
            "Final": self.final(),
        }
        for name, player in zip(self.game.SIDE_NAMES, self.players):
            head[name] = player
        if self.settings:
            head["Settings"] = settings_text(self.settings)
        if self.board:
            head["Board"] = self.board
        lines = ["# " + MAGIC]
        for k in header_order(self.game):
            if k in head:
                lines.append("%s: %s" % (k, head[k]))
        for k, v in self.extra.items():
            lines.append("%s: %s" % (k, v))
        lines.append("")
        ms = self.moves
        if self.game.MOVE_WORDS > 1:
            # Moves of several words (Cornelson's turns): one a line.
            for i, m in enumerate(ms):
                lines.append("%d. %s" % (i + 1, m))
        else:
            for i in range(0, len(ms), 2):
                lines.append("%d. %s" % (i // 2 + 1, " ".join(ms[i : i + 2])))
        return "\n".join(lines) + "\n"

    def save(self, path):
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            f.write(self.format())
        os.replace(tmp, path)


def now_text():
    return datetime.datetime.now().astimezone().replace(microsecond=0).isoformat()


def parse(text):
    """A record from its text; raises RecordError with the line number."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "# " + MAGIC:
        raise RecordError("line 1: not a Triad record (expected '# %s')" % MAGIC)
    head = {}
    i = 1
    while i < len(lines) and lines[i].strip():
        line = lines[i]
        if not line.startswith("#"):
            key, sep, value = line.partition(":")
            if not sep or not key.strip() or " " in key.strip():
                raise RecordError("line %d: a header line is 'Key: value'" % (i + 1))
            head[key.strip()] = value.strip()
        i += 1
    moves = []
    for j in range(i, len(lines)):
        body = lines[j].split("#", 1)[0]
        for tok in body.split():
            if tok.endswith(".") and tok[:-1].isdigit():
                continue
            if tok in ("1-0", "0-1", "*"):
                continue
            moves.append(tok)
    game = _load_game(head.get("Game", DEFAULT_GAME))
    if "Start" not in head:
        raise RecordError("the record has no Start: header")
    try:
        start = game.format_position(game.parse_position(head["Start"]))
    except game.NotationError as e:
        raise RecordError("Start: %s" % e)
    settings = parse_settings(head.get("Settings", ""))
    first = game.parse_position(start)
    apply_settings(game, first, settings)
    try:
        moves = games.group_turns(game, first, moves)
    except game.NotationError as e:
        raise RecordError("moves: %s" % e)
    result = head.get("Result", "*")
    if result not in results(game):
        raise RecordError("Result: must be %s" % _or(results(game)))
    known = set(header_order(game))
    rec = Record(
        start=start,
        moves=moves,
        date=head.get("Date", ""),
        players=[head.get(name, "?") for name in game.SIDE_NAMES],
        setup=head.get("Setup", "-"),
        result=result,
        board=head.get("Board", ""),
        extra={k: v for k, v in head.items() if k not in known},
        game=game,
        settings=settings,
    )
    rec.positions()  # every move legal in turn
    if "Final" in head and head["Final"] != rec.final():
        raise RecordError("Final: %s does not follow from the moves (they reach %s)" % (head["Final"], rec.final()))
    return rec


def _or(words):
    words = list(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def result_of(game, pos):
    """The Result header of a position: the winner's letter, draw or *."""
    w = game.outcome(pos)
    if w < 0:
        return "*"
    return "draw" if w == games.DRAW else game.SIDES[w]


def load(path):
    with open(path) as f:
        return parse(f.read())


def setup_from_meta(meta, start):
    """The Setup header from the board's game meta ("roll b:.. w:.. start:b")."""
    if meta and meta.startswith("roll "):
        return meta[5:]
    return "-"


class Tracker:
    """Folds the board's events into records. feed(event_text) returns the
    record that just finished (game over, or replaced by a new game) or None;
    self.current is the game in progress. game: the board's game (a name)."""

    def __init__(self, black="?", white="?", board="", game=DEFAULT_GAME, players=None):
        self.game = _load_game(game) if isinstance(game, str) else game
        n = len(self.game.SIDES)
        self.players = list(players) if players is not None else ([black, white] + ["?"] * n)[:n]
        self.board = board
        self.settings = {}  # the game's own settings, as the board last reported them
        self.current = None
        self.pos = None
        self.done = []
        self.on_change = None  # callable(record) after every change

    @property
    def black(self):
        return self.players[0]

    @property
    def white(self):
        return self.players[1]

    def begin(self, start, moves=(), setup="-", settings=None):
        finished = self._finish_open()
        if settings is not None:
            self.settings = game_settings(self.game, settings)
        self.current = Record(start=start, moves=(), players=self.players, setup=setup, board=self.board,
                              game=self.game, settings=self.settings)
        self.pos = self.current.start_position()
        # The board's `moves` are words: a game whose moves have several
        # (Cornelson's turns) reads them grouped.
        for m in games.group_turns(self.game, self.pos, moves):
            self._move(m)
        self._changed()
        return finished

    def from_status(self, st):
        """Start from the board's full state (on connect or after a resume)."""
        return self.begin(st["start"], st.get("moves", ()), setup_from_meta(st.get("meta", ""), st["start"]),
                          st.get("settings"))

    def _finish_open(self):
        rec = self.current
        self.current = None
        if rec is not None and rec.moves:
            self.done.append(rec)
            return rec
        return None

    def _move(self, text):
        g = self.game
        m = g.parse_move(self.pos, text)
        self.current.moves.append(g.format_move(self.pos, m))
        self.pos.make(m)
        result = result_of(g, self.pos)
        if result != "*":
            self.current.result = result

    def _changed(self):
        if self.on_change and self.current is not None:
            self.on_change(self.current)

    def feed(self, event, status=None):
        """One event (text after "evt "). status: callable returning the full
        state, used when the event alone does not say enough (resume)."""
        kind, _, arg = event.partition(" ")
        # A new game: its rules are the board's settings now (a mode may
        # have been set since the last status), when the board can be asked.
        settings = None
        if kind in ("setup", "position") and status is not None:
            try:
                settings = status().get("settings")
            except Exception:  # the board did not answer: keep the last known
                settings = None
        if kind == "setup":
            return self.begin(arg, (), setup_of_start(arg, self.game), settings)
        if kind == "position":
            return self.begin(arg, (), "-", settings)
        if kind == "resume":
            if status is not None:
                return self.from_status(status())
            return None
        if kind == "move" and self.current is not None:
            try:
                self._move(arg)
            except self.game.NotationError:
                if status is not None:  # out of step with the board: resynchronise
                    return self.from_status(status())
                return None
            self._changed()
            if self.current.result != "*":
                rec = self.current
                self.done.append(rec)
                self.current = None
                return rec
        return None


def setup_of_start(start, game=None):
    """The Setup header of a rolled start position: per side's home sites
    (the face's HOME) the game-role numbers the pieces on them show (Nehren:
    the sorted die values), and who starts."""
    game = game or games.load(DEFAULT_GAME)
    pos = game.parse_position(start)
    home = game.HOME
    exp = bytearray(game.N_SITES)
    game.expected(pos, exp)
    parts = []
    for side, sites in enumerate(home):
        values = []
        for site in sites:
            if exp[site]:
                role = game.shows(pos, site)
                if role >= games.ROLE_GAME:
                    values.append(role - games.ROLE_GAME + 1)
        parts.append("%s:%s" % (game.SIDES[side], "".join(map(str, sorted(values)))))
    return "%s start:%s" % (" ".join(parts), game.SIDES[pos.side])


# -- physical actions -----------------------------------------------------------------

SETTLE_WAIT = 1000  # ms to leave a die resting: more than the board's 0.8 s
TURN_WAIT = 300  # ms a piece is held up when it is turned in place


def _next_role(roles, role):
    """The board's menu: the outcome after `role` in the order the moves
    offer them (triad.board.controller: Controller._next_role)."""
    take = False
    for r in roles:
        if take and r != role:
            return r
        if r == role:
            take = True
    return roles[0]


def choice_presses(game, pos, site, target):
    """How often to press menu when the board asks for the hidden outcome of
    a piece turned in place on `site` (Nehren's Note 2 value) to reach role
    `target`; None when the board does not ask (one outcome only). The
    board offers the outcomes in the order of the legal moves."""
    roles = []
    for m in games.legal_moves(game, pos):
        e = games.footprint(game, pos, m)[0]
        if e & 255 == site and (e >> 8) & 3 == games.TOUCH:
            roles.append(e >> 10)
    if not roles or all(r == roles[0] for r in roles):
        return None
    r = roles[0]
    n = 0
    while r != target:
        r = _next_role(roles, r)
        n += 1
        if n > len(roles):
            raise RecordError("the board offers no outcome %d on %s" % (target, game.SITE_NAMES[site]))
    return n


def note2_presses(current, target):
    """Nehren: how often to press menu in the Note 2 value choice to go from
    the die's current value to target (first offer 1, or 2 when the die
    shows 1; each press: the next value, skipping the current)."""
    v = 1 if current != 1 else 2
    n = 0
    while v != target:
        v = v % 3 + 1
        if v == current:
            v = v % 3 + 1
        n += 1
        if n > 3:
            raise RecordError("no Note 2 value %d from %d" % (target, current))
    return n


def to_script(rec, header=True):
    """The record as a `python -m simulator script` file: the start position,
    then each move as a player makes it, step by step from the move's
    footprint (lift, place, leave it to settle; pieces taken off; a piece
    turned in place with menu and confirm when the board cannot see the
    outcome, Nehren's Note 2 turn)."""
    g = rec.game
    out = []
    if header:
        out.append("# %s, %s (replayed from a record)" % (" vs ".join(rec.players), rec.date))
    for wire, word in rec.settings.items():
        out.append("serial set %s %s" % (wire, word))  # the game's rules first
    # (the start as those rules have it: Capture takes the jewels away)
    pos = rec.start_position()
    out.append("position " + g.format_position(pos))
    out.append("wait %d" % SETTLE_WAIT)
    for text in rec.moves:
        out.append("# " + text)
        out.extend(move_lines(g, pos, text))
        pos.make(g.parse_move(pos, text))
    out.append("# expect position: " + g.format_position(pos))
    out.append("# expect moves: " + " ".join(rec.moves))
    return "\n".join(out) + "\n"


def move_script(g, pos, text):
    """One move of game g from pos as `python -m simulator script` lines (a
    simulated person carrying it out: host_tools online --hand)."""
    return "\n".join(move_lines(g, pos, text)) + "\n"


def move_lines(g, pos, text):
    """The script lines of one move, step by step from its footprint."""
    out = []
    m = g.parse_move(pos, text)
    steps = games.footprint(g, pos, m)
    for j, e in enumerate(steps):
        name = g.SITE_NAMES[e & 255]
        act = (e >> 8) & 3
        if act == games.TOUCH:
            out.append("lift " + name)
            out.append("wait %d" % TURN_WAIT)
            out.append("place " + name)
            out.append("wait %d" % SETTLE_WAIT)
            presses = choice_presses(g, pos, e & 255, e >> 10) if j == 0 else None
            if presses is not None:
                out.extend(["press menu"] * presses)
                out.append("press confirm")
                out.append("wait %d" % TURN_WAIT)
        elif act == games.LIFT:
            out.append("lift " + name)
            if not (j + 1 < len(steps) and (steps[j + 1] >> 8) & 3 == games.PLACE):
                out.append("wait %d" % SETTLE_WAIT)
        else:
            out.append("place " + name)
            out.append("wait %d" % SETTLE_WAIT)
    return out
