# Text notation of positions and turns (a contract shared with host tools):
#   position: R:<cells> G:<cells> B:<cells> <next>, each list comma-separated
#             in any order (may be empty), next r/g/b; written with the cells
#             in board order (A1, A2, ..., I9)
#   turn:     E3-H6@C4 (slide E3 to H6, captures implied, drop on C4), or
#             E3-H6 when the slide eliminates a player and no drop follows
from array import array

from triad.games.browne import core

START = (
    "R:C1,D1,D2,E1,E2,E3,F2,F3,G3 G:A3,A4,A5,B4,B5,B6,C5,C6,C7 "
    "B:G7,G8,G9,H7,H8,H9,I7,I8,I9 r"
)
SIDES = "rgb"
LABELS = "RGB"
NAMES = ("Red", "Green", "Blue")


class NotationError(ValueError):
    pass


def _names():
    out = []
    for sq in core.CELLS:
        out.append(core.ROWS[core.row_of(sq)] + str(core.num_of(sq)))
    return tuple(out)


# SITE_NAMES[site]: "A1" .. "I9" in board order.
SITE_NAMES = _names()


def site_index(name):
    """Site number of a cell name, -1 if there is no such cell."""
    if not isinstance(name, str) or len(name) != 2:
        return -1
    r = core.ROWS.find(name[0])
    if r < 0 or name[1] not in "123456789":
        return -1
    n = ord(name[1]) - 48
    if n < core.ROW_FIRST[r] or n > core.ROW_LAST[r]:
        return -1
    return core.SITE_OF_SQ[core.sq_of(r, n)]


def parse_cell(text):
    i = site_index(text)
    if i < 0:
        raise NotationError("unknown cell %r: expected A1-A5, B1-B6, ..., I5-I9" % text)
    return i


def parse_position(text):
    """Parse a position; NotationError with a clear message if the text is
    malformed. Nothing else is raised."""
    if not isinstance(text, str):
        raise NotationError("position must be text")
    fields = text.split()
    if len(fields) != 4:
        raise NotationError(
            "position needs 4 fields (R:<cells> G:<cells> B:<cells> <next>), got %d"
            % len(fields)
        )
    pos = core.Position()
    for side in (0, 1, 2):
        f = fields[side]
        if len(f) < 2 or f[0] != LABELS[side] or f[1] != ":":
            raise NotationError(
                "field %d must start with %s: (lists in the order R, G, B), got %r"
                % (side + 1, LABELS[side], f)
            )
        body = f[2:]
        if not body:
            continue
        for name in body.split(","):
            if not name:
                raise NotationError("empty cell name in %s list %r" % (NAMES[side], f))
            i = parse_cell(name)
            if pos.owner(i) >= 0:
                raise NotationError("cell %s listed twice" % name)
            pos.put(i, side)
    nxt = fields[3]
    if len(nxt) != 1 or nxt not in SIDES:
        raise NotationError("next player must be 'r', 'g' or 'b', got %r" % nxt)
    pos.side = SIDES.index(nxt)
    c = pos.counts
    if not (c[0] or c[1] or c[2]):
        raise NotationError("no pieces on the board")
    return pos


def format_position(pos):
    lists = ([], [], [])  # type: tuple[list[str], list[str], list[str]]
    for i in range(core.N_CELLS):
        s = pos.owner(i)
        if s >= 0:
            lists[s].append(SITE_NAMES[i])
    return "R:%s G:%s B:%s %s" % (
        ",".join(lists[0]),
        ",".join(lists[1]),
        ",".join(lists[2]),
        SIDES[pos.side],
    )


def format_move(pos, m):
    """Text of turn m played from pos (the position before it)."""
    s = SITE_NAMES[core.m_from(m)] + "-" + SITE_NAMES[core.m_to(m)]
    d = core.m_drop(m)
    if d != core.NO_DROP:
        s += "@" + SITE_NAMES[d]
    return s


def parse_move_syntax(text):
    """Check a turn's syntax; return (from_site, to_site, drop_site or -1)."""
    if not isinstance(text, str):
        raise NotationError("move must be text")
    t = text.strip()
    drop = -1
    at = t.find("@")
    if at >= 0:
        drop = parse_cell(t[at + 1 :])
        t = t[:at]
    dash = t.find("-")
    if dash < 0:
        raise NotationError("malformed turn %r: expected like E3-H6@C4 or E3-H6" % text)
    return parse_cell(t[:dash]), parse_cell(t[dash + 1 :]), drop


def _popcount(x):
    n = 0
    while x:
        n += x & 1
        x >>= 1
    return n


def _slides(pos, sel):
    buf = array("i", bytes(4 * core.MAX_SLIDES))
    n = pos.gen_slides(buf, 0, sel)
    return [buf[i] for i in range(n)]


def _geometric_slide(pos, fr, to):
    """True when the piece on fr could slide to to over empty cells, ignoring
    colours and captures (for the error message only)."""
    board = pos.board
    a = core.CELLS[fr]
    b = core.CELLS[to]
    for d in core.DIRECTIONS:
        s = a + d
        while board[s] == core.EMPTY:
            if s == b:
                return True
            s += d
    return False


def parse_move(pos, text):
    """The legal turn of pos written as text; NotationError if the text is
    malformed or names no legal turn (with the rule it breaks)."""
    fr, to, drop = parse_move_syntax(text)
    t = text.strip()
    if core.outcome(pos) != -1:
        raise NotationError("illegal turn %s: the game is over" % t)
    side = pos.side
    if pos.owner(fr) != side:
        raise NotationError("illegal turn %s: no %s piece on %s" % (t, NAMES[side], SITE_NAMES[fr]))
    if pos.owner(to) >= 0:
        raise NotationError("illegal turn %s: %s is not empty" % (t, SITE_NAMES[to]))
    if core.CELL_COLOUR[core.CELLS[to]] == side:
        raise NotationError(
            "illegal turn %s: %s is a %s cell, a piece may not land on its own colour"
            % (t, SITE_NAMES[to], NAMES[side])
        )
    if not _geometric_slide(pos, fr, to):
        raise NotationError(
            "illegal turn %s: %s cannot reach %s in a straight line over empty cells"
            % (t, SITE_NAMES[fr], SITE_NAMES[to])
        )
    for m in _slides(pos, fr):
        if core.m_to(m) != to:
            continue
        # Whether a drop follows depends on the counts after the captures.
        pos.make(m)
        c = pos.counts
        eliminates = not (c[0] and c[1] and c[2])
        pos.unmake(m)
        if eliminates:
            if drop >= 0:
                raise NotationError(
                    "illegal turn %s: it eliminates a player, so no drop follows (write %s-%s)"
                    % (t, SITE_NAMES[fr], SITE_NAMES[to])
                )
            return m
        if drop < 0:
            raise NotationError(
                "illegal turn %s: a bunny piece must be dropped (write %s-%s@<cell>)"
                % (t, SITE_NAMES[fr], SITE_NAMES[to])
            )
        if drop != fr and pos.owner(drop) >= 0 and not _captured(pos, m, drop):
            raise NotationError("illegal turn %s: drop cell %s is not empty" % (t, SITE_NAMES[drop]))
        if drop == to:
            raise NotationError("illegal turn %s: drop cell %s is not empty" % (t, SITE_NAMES[drop]))
        return core.with_drop(m, drop)
    best = 0
    for m in _slides(pos, -1):
        best = _popcount(core.m_mask(m))
        break
    got = _captures_any(pos, fr, to)
    raise NotationError(
        "illegal turn %s: it captures %d but a turn capturing %d exists (max-capture rule)"
        % (t, got, best)
    )


def _captured(pos, m, site):
    """True when slide m captures the piece on site."""
    to = core.CELLS[core.m_to(m)]
    sq = core.CELLS[site]
    mask = core.m_mask(m)
    for k in range(6):
        if mask & (1 << k) and to + core.DIRECTIONS[k] == sq:
            return True
    return False


def _captures_any(pos, fr, to):
    """Opponent pieces next to to (site) once fr has slid there."""
    opp = 7 ^ (1 << pos.side)
    board = pos.board
    b = core.CELLS[to]
    n = 0
    for d in core.DIRECTIONS:
        if board[b + d] & opp:
            n += 1
    return n
