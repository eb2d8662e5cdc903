"""Draw a position in the terminal, for any game behind the face.

The game's own drawing when its face offers one (optional
`board_text(pos, colour, marks)`); else a grid when the sites are the squares
of a full rectangle (Nehren's 6x6: rows labelled by what the site names of a
row share, columns likewise); else the sites plotted where the game draws
them (`site_xy`: Browne's hexagon, Cornelson's triangle of posts and treys
with its docks and portals), one character a site, and a key that says what
each character is. Pieces are written as the side's letter (the first side in
lower case, the others in upper case, so they differ without colour), on the
grid followed by what a person sets on the piece (a die's value)."""
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
        lines = _plotted(game, pos, exp, colour, marks)
    lines.append(status_line(game, pos))
    return "\n".join(lines)


# An empty site by its shape on the page: the character is its outline.
_EMPTY = {"tri-up": "^", "tri-down": "v", "square": "_"}
_ROW_TOLERANCE = 0.12  # board units: sites closer than this in y share a text row
_COLUMN_UNIT = 0.25  # board units a character is wide (a hex cell is 1.0: 4 characters)


def _layout(game):
    """[(text row, column, site)] placing each site where the game draws it:
    rows are the site's y (close ones share a row), columns its x, and a site
    that would land on a taken or touching column moves right."""
    n = game.N_SITES
    xy = [game.site_xy(i) for i in range(n)]
    x0 = min(x for x, _ in xy)
    ys = sorted(y for _, y in xy)
    levels = []
    for y in ys:
        if not levels or y - levels[-1][-1] > _ROW_TOLERANCE:
            levels.append([y])
        else:
            levels[-1].append(y)
    row_of = {}
    for r, group in enumerate(levels):
        for y in group:
            row_of[y] = r
    placed = []
    for r in range(len(levels)):
        taken = -2
        for x, i in sorted((xy[i][0], i) for i in range(n) if row_of[xy[i][1]] == r):
            c = max(int(round((x - x0) / _COLUMN_UNIT)), taken + 2)
            placed.append((r, c, i))
            taken = c
    return placed


def _plotted(game, pos, exp, colour, marks):
    names = game.SITE_NAMES
    placed = _layout(game)
    rows = 1 + max(r for r, _, _ in placed)
    width = 3 + max(c for _, c, _ in placed)
    grid = [[" "] * width for _ in range(rows)]
    by_row = [[] for _ in range(rows)]
    for r, c, i in placed:
        by_row[r].append(names[i])
        cell = grid[r]
        if exp[i]:
            token = _letter(game, pos, i)
            cell[c + 1] = _ansi(game, _owner(game, pos, i)) + token + _RESET if colour and _owner(game, pos, i) >= 0 else token
        else:
            cell[c + 1] = _EMPTY.get(game.site_shape(i), ".")
        if names[i] in marks:
            if cell[c] == " ":
                cell[c] = "["
            if cell[c + 2] == " ":
                cell[c + 2] = "]"
    # A row is labelled by what its sites' names share (Browne's A..I,
    # Cornelson's post rows A..G, trey rows a..f, dock rows N and S).
    labels = [os.path.commonprefix(row) if len(row) > 1 else "" for row in by_row]
    lw = max(len(x) for x in labels)
    lines = [("%*s " % (lw, labels[r]) if lw else "") + "".join(grid[r]).rstrip() for r in range(rows)]
    lines.append(_key(game, placed))
    return lines


def _owner(game, pos, site):
    return game.owner(pos, site)  # (owner is on every game's face: games.face.REQUIRED)


def _letter(game, pos, site):
    side = _owner(game, pos, site)
    if side < 0:
        return "*"
    letter = game.SIDES[side]
    return letter if side == 0 else letter.upper()


def _key(game, placed):
    """What each character means: the sides' pieces, then each kind of site."""
    parts = ["%s %s" % (game.SIDES[s] if s == 0 else game.SIDES[s].upper(), game.SIDE_NAMES[s])
             for s in range(len(game.SIDES))]
    seen = []
    for _, _, i in placed:
        ch = _EMPTY.get(game.site_shape(i), ".")
        kind = games.KIND_NAMES[game.SITE_KIND[i]] if game.SITE_KIND[i] < len(games.KIND_NAMES) else "site"
        if (ch, kind) not in seen:
            seen.append((ch, kind))
    chars = {}  # kind -> its characters (a trey points up or down)
    for ch, kind in seen:
        chars.setdefault(kind, []).append(ch)
    groups = {}  # characters -> kinds (docks and portals share one)
    for kind, chs in chars.items():
        groups.setdefault(" ".join(chs), []).append(kind)
    parts += ["%s empty %s" % (ch, "/".join(k)) for ch, k in groups.items()]
    return "key: " + ", ".join(parts)
