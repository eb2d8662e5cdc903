# Text notation of positions and moves (a contract shared with host tools):
#   position: ranks 6..1 separated by '/', six tokens each ('.', or b/w and a
#             value 1..3), then the side to move, then Black's and White's Triads
#   move:     c1c3, c1c3xd3 (with a removal), c1=2 and c1=2xd3 (Note 2 turn)
from triad.games.nehren import core

START = "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0"
FILES = "abcdef"
COLOURS = "bw"


class NotationError(ValueError):
    pass


def cell_name(sq):
    return FILES[core.file_of(sq)] + str(core.rank_of(sq) + 1)


def parse_cell(text):
    if len(text) != 2 or text[0] not in FILES or text[1] not in "123456":
        raise NotationError("bad cell %r: expected a1..f6" % text)
    return core.sq_of(FILES.index(text[0]), int(text[1]) - 1)


def _parse_score(text, who):
    if len(text) != 1 or text not in "0123":
        raise NotationError("bad Triad count %r for %s: expected 0..3" % (text, who))
    return int(text)


def parse_position(text):
    """Parse a position; raise NotationError with a clear message if the text
    is malformed. Nothing else is raised."""
    if not isinstance(text, str):
        raise NotationError("position must be text")
    fields = text.split()
    if len(fields) != 4:
        raise NotationError(
            "position needs 4 fields (board, side, Black's and White's Triads), got %d"
            % len(fields)
        )
    ranks = fields[0].split("/")
    if len(ranks) != 6:
        raise NotationError("board needs 6 ranks separated by '/', got %d" % len(ranks))
    pos = core.Position()
    board = pos.board
    dice = [0, 0]
    for i in range(6):
        row = ranks[i]
        rank = 5 - i
        f = 0
        j = 0
        while j < len(row):
            if f >= 6:
                raise NotationError("rank %d has more than 6 cells" % (rank + 1))
            ch = row[j]
            if ch == ".":
                j += 1
            elif ch in COLOURS:
                if j + 1 >= len(row) or row[j + 1] not in "123":
                    raise NotationError(
                        "rank %d: die %r needs a value 1..3" % (rank + 1, row[j : j + 2])
                    )
                colour = COLOURS.index(ch)
                board[core.sq_of(f, rank)] = (colour << 2) | int(row[j + 1])
                dice[colour] += 1
                j += 2
            else:
                raise NotationError("rank %d: unexpected %r" % (rank + 1, ch))
            f += 1
        if f != 6:
            raise NotationError("rank %d has %d cells, expected 6" % (rank + 1, f))
    side = fields[1]
    if side not in ("b", "w"):
        raise NotationError("side to move must be 'b' or 'w', got %r" % side)
    pos.side = COLOURS.index(side)
    pos.score[0] = _parse_score(fields[2], "Black")
    pos.score[1] = _parse_score(fields[3], "White")
    for c in (0, 1):
        if dice[c] > 6:
            raise NotationError("%s has %d dice, at most 6" % (("Black", "White")[c], dice[c]))
    if pos.score[0] >= core.WIN_TRIADS and pos.score[1] >= core.WIN_TRIADS:
        raise NotationError("both players cannot have three Triads")
    return pos


def format_position(pos):
    board = pos.board
    parts = []
    for rank in range(5, -1, -1):
        row = ""
        for f in range(6):
            p = board[core.sq_of(f, rank)]
            if p:
                row += COLOURS[p >> 2] + str(p & 3)
            else:
                row += "."
        parts.append(row)
    return "%s %s %d %d" % ("/".join(parts), COLOURS[pos.side], pos.score[0], pos.score[1])


def format_move(m):
    fr = core.m_from(m)
    to = core.m_to(m)
    if fr == to:
        s = cell_name(fr) + "=" + str(core.m_new(m))
    else:
        s = cell_name(fr) + cell_name(to)
    rem = core.m_removed(m)
    if rem:
        s += "x" + cell_name(rem)
    return s


def parse_move_syntax(text):
    """Check a move's syntax; return (from_sq, to_sq, new_value_or_0, removed_sq_or_0)."""
    if not isinstance(text, str):
        raise NotationError("move must be text")
    t = text.strip()
    rem = 0
    x = t.find("x")
    if x >= 0:
        rem = parse_cell(t[x + 1 :])
        t = t[:x]
    if len(t) == 4 and t[2] == "=":
        fr = parse_cell(t[:2])
        if t[3] not in "123":
            raise NotationError("bad value in %r: expected 1..3" % text)
        return fr, fr, int(t[3]), rem
    if len(t) == 4:
        return parse_cell(t[:2]), parse_cell(t[2:]), 0, rem
    raise NotationError("malformed move %r: expected like c1c3, c1c3xd3 or c1=2" % text)


def parse_move(pos, text):
    """The legal move of pos written as text; NotationError if the text is
    malformed or names no legal move."""
    fr, to, new, rem = parse_move_syntax(text)
    for m in pos.legal_moves():
        if core.m_from(m) != fr or core.m_to(m) != to or core.m_removed(m) != rem:
            continue
        if new and core.m_new(m) != new:
            continue
        return m
    raise NotationError("illegal move %s in this position" % text.strip())
