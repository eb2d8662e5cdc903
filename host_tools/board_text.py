"""Draw a position in the terminal, for any game behind the face.

The game's own drawing when its face offers one (optional
`board_text(pos, colour, marks)`); else a grid when the sites are the squares
of a full rectangle (Nehren's 6x6: rows labelled by what the site names of a
row share, columns likewise); else a listing, one occupied site a line
(`E3: r`). Pieces are written as the side's letter (the first side in lower
case, the others in upper case, so they differ without colour) followed by
the number of the game role the piece shows (a die's value), if any."""
import os.path

from host_tools import games

_ANSI_SIDE = {"b": "\x1b[1;37;40m", "w": "\x1b[1;30;47m"}
_RESET = "\x1b[0m"


def _ansi(game, side):
    letter = game.SIDES[side]
    if letter in _ANSI_SIDE:
        return _ANSI_SIDE[letter]
    r, g, b = game.SIDE_RGB[side]
    fg = "30" if r * 299 + g * 587 + b * 114 > 128000 else "37"
    return "\x1b[1;%s;48;2;%d;%d;%dm" % (fg, r, g, b)


def piece_text(game, pos, site, colour=False):
    """The piece on a site as two characters or so ('b1', 'W3'); '' if empty."""
    exp = bytearray(game.N_SITES)
    game.expected(pos, exp)
    if not exp[site]:
        return ""
    return _piece(game, pos, site, colour)


def _piece(game, pos, site, colour):
    side = game.owner(pos, site)
    role = game.shows(pos, site)
    value = str(role - games.ROLE_GAME + 1) if role >= games.ROLE_GAME else ""
    if side < 0:
        return ("*" + value) if value else "*"
    letter = game.SIDES[side]
    token = (letter if side == 0 else letter.upper()) + value
    if colour:
        token = _ansi(game, side) + token + _RESET
    return token


def _common_suffix(names):
    rev = [n[::-1] for n in names]
    return os.path.commonprefix(rev)[::-1]


def _grid(game):
    """(rows, columns) of site indices when the sites are the squares of a
    full rectangle with integer coordinates, else None."""
    n = game.N_SITES
    xy = {}
    for i in range(n):
        if game.site_shape(i) != "square":
            return None
        x, y = game.site_xy(i)
        if x != int(x) or y != int(y) or (int(x), int(y)) in xy:
            return None
        xy[(int(x), int(y))] = i
    xs = sorted({x for x, _ in xy})
    ys = sorted({y for _, y in xy})
    if len(xs) * len(ys) != n:
        return None
    return [[xy[(x, y)] for x in xs] for y in ys]


def status_line(game, pos):
    names = game.SIDE_NAMES
    scores = "  ".join("%s %d" % (names[s], game.score(pos, s)) for s in range(len(game.SIDES)))
    status = games.outcome_words(game, pos)
    if not status:
        status = "%s to move" % names[pos.side]
        note = games.notice_text(game, pos)
        if note:
            status += " (%s)" % note
    return "%s  %s   %s" % (games.word(game, "SCORE_NAME", "Score"), scores, status)


def render(pos, colour=False, marks=(), game=None):
    """The position as text (for Nehren: Black's home row at the bottom as
    Black sees it). marks: site names to bracket, e.g. the last move."""
    if game is None:
        game = games.load()
    exp = bytearray(game.N_SITES)
    game.expected(pos, exp)
    names = game.SITE_NAMES
    grid = _grid(game)
    lines = []
    if grid is not None:
        width = max(len(_common_suffix([names[i] for i in row])) for row in grid)
        for row in grid:
            label = _common_suffix([names[i] for i in row])
            out = ["%*s " % (width, label)]
            for i in row:
                token = _piece(game, pos, i, colour) if exp[i] else " ."
                out.append(("[%s]" if names[i] in marks else " %s ") % token)
            lines.append("".join(out))
        cols = []
        for c in range(len(grid[0])):
            cols.append(os.path.commonprefix([names[row[c]] for row in grid]) or " ")
        lines.append(" " * (width + 2) + "".join(" %s  " % f for f in cols))
    else:
        for i in range(game.N_SITES):
            if exp[i] or names[i] in marks:
                token = _piece(game, pos, i, colour) if exp[i] else "."
                lines.append("%s%s: %s" % ("*" if names[i] in marks else " ", names[i], token))
        if not lines:
            lines.append(" (no pieces)")
    lines.append(status_line(game, pos))
    return "\n".join(lines)
