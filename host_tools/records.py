"""Game records: the file format of docs/records.md, building a record from
the board's events, and turning a record into physical actions (a
`python -m simulator script` file)."""
import datetime
import os

from triad.games.nehren import core, notation

MAGIC = "triad-record 1"
HEADER_ORDER = ("Date", "Black", "White", "Setup", "Start", "Result", "Final", "Board")
RESULTS = ("b", "w", "*")


class RecordError(ValueError):
    pass


class Record:
    def __init__(self, start=notation.START, moves=(), date=None, black="?", white="?", setup="-", result="*",
                 board="", extra=None):
        self.start = start
        self.moves = list(moves)
        self.date = date or now_text()
        self.black = black
        self.white = white
        self.setup = setup
        self.result = result
        self.board = board
        self.extra = dict(extra or {})

    def positions(self):
        """The positions from the start through every move (checks legality)."""
        pos = notation.parse_position(self.start)
        out = [pos.copy()]
        for i, text in enumerate(self.moves):
            try:
                m = notation.parse_move(pos, text)
            except notation.NotationError as e:
                raise RecordError("move %d (%s): %s" % (i + 1, text, e))
            pos.make(m)
            out.append(pos.copy())
        return out

    def final(self):
        return notation.format_position(self.positions()[-1])

    def computed_result(self):
        w = self.positions()[-1].winner()
        return "bw"[w] if w >= 0 else "*"

    # -- text -------------------------------------------------------------------
    def format(self):
        head = {
            "Date": self.date,
            "Black": self.black,
            "White": self.white,
            "Setup": self.setup,
            "Start": self.start,
            "Result": self.result,
            "Final": self.final(),
        }
        if self.board:
            head["Board"] = self.board
        lines = ["# " + MAGIC]
        for k in HEADER_ORDER:
            if k in head:
                lines.append("%s: %s" % (k, head[k]))
        for k, v in self.extra.items():
            lines.append("%s: %s" % (k, v))
        lines.append("")
        ms = self.moves
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
    if "Start" not in head:
        raise RecordError("the record has no Start: header")
    try:
        start = notation.format_position(notation.parse_position(head["Start"]))
    except notation.NotationError as e:
        raise RecordError("Start: %s" % e)
    result = head.get("Result", "*")
    if result not in RESULTS:
        raise RecordError("Result: must be b, w or *")
    known = set(HEADER_ORDER)
    rec = Record(
        start=start,
        moves=moves,
        date=head.get("Date", ""),
        black=head.get("Black", "?"),
        white=head.get("White", "?"),
        setup=head.get("Setup", "-"),
        result=result,
        board=head.get("Board", ""),
        extra={k: v for k, v in head.items() if k not in known},
    )
    rec.positions()  # every move legal in turn
    if "Final" in head and head["Final"] != rec.final():
        raise RecordError("Final: %s does not follow from the moves (they reach %s)" % (head["Final"], rec.final()))
    return rec


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
    self.current is the game in progress."""

    def __init__(self, black="?", white="?", board=""):
        self.black = black
        self.white = white
        self.board = board
        self.current = None
        self.pos = None
        self.done = []
        self.on_change = None  # callable(record) after every change

    def begin(self, start, moves=(), setup="-"):
        finished = self._finish_open()
        self.current = Record(start=start, moves=(), black=self.black, white=self.white, setup=setup,
                              board=self.board)
        self.pos = notation.parse_position(start)
        for m in moves:
            self._move(m)
        self._changed()
        return finished

    def from_status(self, st):
        """Start from the board's full state (on connect or after a resume)."""
        return self.begin(st["start"], st.get("moves", ()), setup_from_meta(st.get("meta", ""), st["start"]))

    def _finish_open(self):
        rec = self.current
        self.current = None
        if rec is not None and rec.moves:
            self.done.append(rec)
            return rec
        return None

    def _move(self, text):
        m = notation.parse_move(self.pos, text)
        self.pos.make(m)
        self.current.moves.append(notation.format_move(m))
        w = self.pos.winner()
        if w >= 0:
            self.current.result = "bw"[w]

    def _changed(self):
        if self.on_change and self.current is not None:
            self.on_change(self.current)

    def feed(self, event, status=None):
        """One event (text after "evt "). status: callable returning the full
        state, used when the event alone does not say enough (resume)."""
        kind, _, arg = event.partition(" ")
        if kind == "setup":
            return self.begin(arg, (), setup_of_start(arg))
        if kind == "position":
            return self.begin(arg, (), "-")
        if kind == "resume":
            if status is not None:
                return self.from_status(status())
            return None
        if kind == "move" and self.current is not None:
            try:
                self._move(arg)
            except notation.NotationError:
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


def setup_of_start(start):
    """The Setup header of a rolled start position: the home-row values."""
    pos = notation.parse_position(start)
    b = []
    w = []
    for f in range(6):
        p = pos.board[core.sq_of(f, 0)]
        q = pos.board[core.sq_of(f, 5)]
        if p:
            b.append(p & 3)
        if q:
            w.append(q & 3)
    return "b:%s w:%s start:%s" % ("".join(map(str, sorted(b))), "".join(map(str, sorted(w))), "bw"[pos.side])


# -- physical actions -----------------------------------------------------------------

SETTLE_WAIT = 1000  # ms to leave a die resting: more than the board's 0.8 s


def note2_presses(current, target):
    """How often to press menu in the Note 2 value choice to go from the
    die's current value to target (the firmware's cycle: first offer 1, or 2
    when the die shows 1; each press: the next value, skipping the current)."""
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
    then each move as a player makes it (lift, place, leave it to settle;
    the removal after a Triad; a Note 2 turn with menu and confirm)."""
    out = []
    if header:
        out.append("# %s vs %s, %s (replayed from a record)" % (rec.black, rec.white, rec.date))
    out.append("position " + rec.start)
    out.append("wait %d" % SETTLE_WAIT)
    pos = notation.parse_position(rec.start)
    for text in rec.moves:
        m = notation.parse_move(pos, text)
        fr = notation.cell_name(core.m_from(m))
        to = notation.cell_name(core.m_to(m))
        rem = core.m_removed(m)
        out.append("# " + text)
        if fr == to:
            current = pos.board[core.m_from(m)] & 3
            target = (m >> 14) & 3
            out.append("lift " + fr)
            out.append("wait 300")
            out.append("place " + fr)
            out.append("wait %d" % SETTLE_WAIT)
            for _ in range(note2_presses(current, target)):
                out.append("press menu")
            out.append("press confirm")
            out.append("wait 300")
        else:
            out.append("lift " + fr)
            out.append("place " + to)
            out.append("wait %d" % SETTLE_WAIT)
        if rem:
            out.append("lift " + notation.cell_name(rem))
            out.append("wait %d" % SETTLE_WAIT)
        pos.make(m)
    out.append("# expect position: " + notation.format_position(pos))
    out.append("# expect moves: " + " ".join(rec.moves))
    return "\n".join(out) + "\n"
