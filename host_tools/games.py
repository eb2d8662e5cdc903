"""The game a host tool works on, and what every tool needs from it.

Every host tool reaches a game only through its face (docs/game-face.md):
`load(name)` is `triad.games.load` behind `--game NAME`. The helpers here are
generic: they use the face's functions and a few optional attributes looked
up with getattr (listed in OPTIONAL below), never a particular game's modules.
"""
import importlib
import sys
from array import array

import host_tools  # noqa: F401  (puts firmware/ on the path)
from triad import games as _games

DEFAULT = "nehren"
NAMES = _games.NAMES
DRAW = _games.DRAW
LIFT = _games.LIFT
PLACE = _games.PLACE
TOUCH = _games.TOUCH
ROLE_GAME = _games.ROLE_GAME
KIND_NAMES = _games.KIND_NAMES
MAX_STEPS = 32  # the longest footprint of any game (the controller's bound)

# Optional face attributes the host tools use when a game has them:
#   board_text(pos, colour, marks)  the game's own terminal drawing (str)
#   owner(pos, site)                side index of the piece on a site, -1 none
#   notice(pos)                     a short code of a position to announce ("note2")
#   DRAW_NAMES                      reasons of draw_watch().push, by number
#   SCORE_NAME                      what score() counts, e.g. "Triads"
#   NOTICE_TEXT                     {notice code: words}, e.g. {"note2": "Note 2: no regular move"}
#   NOTICE_SHORT                    {notice code: a word or two}, e.g. {"note2": "Note 2"}
#   MOVE_HELP                       how moves are written (play's help)
# The words below stand in for a game whose face does not carry them yet
# (they keep the tools' Nehren output as it was); the face's own win.
_WORDS = {
    "nehren": {
        "SCORE_NAME": "Triads",
        "NOTICE_TEXT": {"note2": "Note 2: no regular move"},
        "NOTICE_SHORT": {"note2": "Note 2"},
        "MOVE_HELP": "moves: c1c3 (the new value is the distance), c1c3xd3 (remove d3 after a Triad),\n"
                     "       c1=2 (Note 2: turn in place), c1c2 (Note 2: move keeping the value)",
    },
}


def usage_error(msg):
    """A bad command line: one line on stderr, exit status 2 (as argparse)."""
    print("python -m host_tools: error: %s" % msg, file=sys.stderr)
    raise SystemExit(2)


def add_game_arg(p, default=DEFAULT, help_text=None):
    p.add_argument("--game", choices=NAMES, default=default, metavar="NAME",
                   help=help_text or "the game (one of %s; default %s)" % (", ".join(NAMES), DEFAULT))


def load(name=None):
    """The face module of game `name` (the default game for None)."""
    try:
        return _games.load(name or DEFAULT)
    except ValueError as e:  # unknown game
        usage_error(str(e))


def words(game, name, default=None):
    """A text of the game for people (RULES, STATE_TEXT, NOTICE_TEXT,
    DRAW_TEXT, ...): from its face, else from its words.py, which only the
    host side (the simulator page, these tools) imports: the board's RAM
    holds no text it never shows."""
    v = getattr(game, name, None)
    if v is None:
        try:
            mod = importlib.import_module("triad.games." + game.NAME + ".words")
        except ImportError:
            return default
        v = getattr(mod, name, None)
    return default if v is None else v


def word(game, attr, default=None):
    v = words(game, attr)
    if v is None:
        v = _WORDS.get(game.NAME, {}).get(attr, default)
    return v


def notice_text(game, pos, short=False):
    """Words for the position's notice (Nehren's Note 2), or ""."""
    fn = getattr(game, "notice", None)
    code = fn(pos) if fn is not None and game.outcome(pos) < 0 else ""
    if not code:
        return ""
    table = word(game, "NOTICE_SHORT" if short else "NOTICE_TEXT", {}) or {}
    return table.get(code, code)


def move_buffer(game):
    # quick_move uses the space after the root moves as scratch
    return array("i", bytes(4 * 2 * game.MAX_MOVES))


def legal_moves(game, pos, sel=-1, buf=None):
    """The legal moves of pos as a list (only those of site sel when sel >= 0)."""
    if buf is None:
        buf = move_buffer(game)
    n = game.gen(pos, buf, 0, sel)
    return [buf[i] for i in range(n)]


def footprint(game, pos, m):
    out = array("i", bytes(4 * MAX_STEPS))
    n = game.footprint(pos, m, out)
    return [out[i] for i in range(n)]


def move_marks(game, pos, m):
    """Names of the sites to mark for move m played from pos: where the moved
    piece came from and every site a piece is put on or turned on (not the
    pieces taken off)."""
    steps = footprint(game, pos, m)
    names = []
    for j, e in enumerate(steps):
        act = (e >> 8) & 3
        if j == 0 or act != LIFT:
            name = game.SITE_NAMES[e & 255]
            if name not in names:
                names.append(name)
    return tuple(names)


def outcome_words(game, pos):
    """'Black wins', 'Draw' or '' while the game goes on."""
    w = game.outcome(pos)
    if w < 0:
        return ""
    if w == DRAW:
        return "Draw"
    return "%s wins" % game.SIDE_NAMES[w]


def side_index(game, text):
    """A side from its letter or its name (any case); -1 if neither."""
    t = text.strip().lower()
    for i, (letter, name) in enumerate(zip(game.SIDES, game.SIDE_NAMES)):
        if t in (letter.lower(), name.lower()):
            return i
    return -1


def new_start(game, seed, first=0):
    """The start position text of set-up roll `seed` (the face's new_game
    with a seeded roll of 1..3), and the game's set-up meta."""
    import random

    rng = random.Random(seed)
    return game.new_game(lambda: rng.randint(1, 3), first)


def parse_position(game, text):
    """The position, or a one-line error and exit status 1."""
    try:
        return game.parse_position(text)
    except game.NotationError as e:
        raise SystemExit("host_tools: bad position: %s" % e)


def group_turns(game, pos, words):
    """Words of several moves (a `moves` reply, a record's body) grouped into
    moves, replayed from pos (left as it was). A game whose turn has several
    words (Cornelson: "D4 S1-a2 S2-a4 S3-a6") says so with MOVE_WORDS; the
    longest group that reads as a legal move is taken (a turn's later words
    are steps, which never begin one). Raises the game's NotationError, with
    the words it could not read, when no group does."""
    words = list(words)
    most = getattr(game, "MOVE_WORDS", 1) or 1
    if most <= 1:
        return words
    pos = pos.copy()
    out = []
    i = 0
    while i < len(words):
        for k in range(min(most, len(words) - i), 0, -1):
            text = " ".join(words[i : i + k])
            try:
                m = game.parse_move(pos, text)
            except game.NotationError:
                continue
            out.append(game.format_move(pos, m))
            pos.make(m)
            i += k
            break
        else:
            raise game.NotationError("no legal move reads from %r" % " ".join(words[i : i + most]))
    return out


def move_error(game, pos, text, e):
    """Words for a typed move the game refused. The game's message when it is
    about the whole move; when it only names a piece of it (Nehren's "bad
    cell 'yz'" for "xyz"), a message about the move, with examples."""
    msg = str(e)
    t = text.strip()
    if t and (repr(t) in msg or t in msg.split()):
        return msg
    shapes = {}
    for m in legal_moves(game, pos):
        s = game.format_move(pos, m)
        shape = "".join("a" if ch.isalpha() else "1" if ch.isdigit() else ch for ch in s)
        if shape not in shapes:
            shapes[shape] = s
        if len(shapes) >= 3:
            break
    hint = (" (moves here look like %s; 'moves' lists them)" % ", ".join(shapes.values())) if shapes else ""
    return "%r is not a move of %s%s" % (t, game.TITLE, hint)
