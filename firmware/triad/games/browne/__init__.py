# Cameron Browne's Triad: three players on a 61-cell tricoloured hexagon,
# straight slides onto foreign cells, the max-capture rule, bunny drops, and
# the landing cell's owner moves next. The face of docs/architecture.md ("The game face").
from triad.games import (
    DRAW,
    KIND_CELL,
    LIFT,
    PLACE,
    ROLE_GAME,
    WILD,
    ROLE_SOURCE,
)
from triad.games import engine_kit
from triad.games.browne import core, notation

NAME = "browne"
TITLE = "Browne's Triad"
SIDES = "rgb"
SIDE_NAMES = ("Red", "Green", "Blue")
SIDE_RGB = ((255, 0, 0), (0, 255, 0), (0, 0, 255))

# -- sites -------------------------------------------------------------------

N_SITES = 61
SITE_NAMES = notation.SITE_NAMES
SITE_KIND = bytes(KIND_CELL for _ in range(N_SITES))

_SQRT3_2 = 0.8660254037844386


def site_xy(i):
    """Centre of cell i: pointy-top hexagons, one unit between neighbouring
    centres, rows A (top) to I, E1 at x = 0."""
    sq = core.CELLS[i]
    r = core.row_of(sq)
    return (core.num_of(sq) - r * 0.5 + 1.0, r * _SQRT3_2)


def site_shape(i):
    return "hex"


def site_owner(i):
    """The owner of cell i (the tricoloured board: land on another colour
    and that colour's player moves next), from the core's own table."""
    return core.CELL_COLOUR[core.CELLS[i]]


site_index = notation.site_index

# -- notation ----------------------------------------------------------------

NotationError = notation.NotationError
START = notation.START
parse_position = notation.parse_position
format_position = notation.format_position
parse_move = notation.parse_move
format_move = notation.format_move

# -- rules -------------------------------------------------------------------

Position = core.Position
MAX_MOVES = core.MAX_MOVES
MAX_SEL_MOVES = core.MAX_PIECE_MOVES  # the turns of one piece (gen's sel)


def gen(pos, buf, start=0, sel=-1):
    return pos.gen(buf, start, sel)


# The board matches slides open-ended: the drop is a WILD step, bound to
# the cell where the bunny piece is put (a piece's 1188 whole turns would
# cost the matcher seconds on the RP2040; its slides are at most 18).
MAX_SEL_OPEN = core.MAX_SLIDES


def gen_open(pos, buf, start=0, sel=-1):
    return pos.gen_slides(buf, start, sel)


def bind(pos, m, site):
    return core.with_drop(m, site)


def first_site(pos, m):
    """The site a move's footprint begins at (the moving piece's): every
    open move fits the board's buffer (MAX_SEL_OPEN is all slides)."""
    return m & 63


outcome = core.outcome
perft = engine_kit.face_perft(MAX_MOVES)
draw_watch = None


def outcome_text(pos, draw=0):
    """"" while the game goes on, else e.g. "r wins: g eliminated",
    "r wins: g b eliminated", "draw r g: b cannot move"."""
    o = outcome(pos)
    if o == -1:
        return ""
    c = pos.counts
    out = ""
    for s in (0, 1, 2):
        if not c[s]:
            out += " " + SIDES[s]
    if out:
        why = out[1:] + " eliminated"
    else:
        why = SIDES[pos.side] + " cannot move"
    if o == DRAW:
        tied = ""
        for s in (0, 1, 2):
            if c[s] and not (s == pos.side and not out):
                tied += " " + SIDES[s]
        return "draw" + tied + ": " + why
    return SIDES[o] + " wins: " + why


def drawn_sides(pos):
    """The sides sharing a draw (the two remaining players with equal
    counts), () unless the game is drawn."""
    if outcome(pos) != DRAW:
        return ()
    c = pos.counts
    out = []
    for s in (0, 1, 2):
        if c[s] and not (s == pos.side and c[0] and c[1] and c[2]):
            out.append(s)
    return tuple(out)


def score(pos, side):
    """Pieces on the board: what decides the winner."""
    return pos.counts[side]


# -- what the board senses and shows -------------------------------------------

ROLE_RED = ROLE_GAME
ROLE_GREEN = ROLE_GAME + 1
ROLE_BLUE = ROLE_GAME + 2
# Indexed by role - ROLE_GAME: an owner's colour, as the lights show a
# piece of that owner's to put down or take off (landings, captures, the
# drop, a hint's or a lesson's answer). Red's is an orange red: in pure red
# a legal landing looked like the fast red blink of "wrong" (palette.ERROR;
# issue 35, defect 13). The cells, seats and win sweeps keep SIDE_RGB.
RED_ROLE_RGB = (255, 96, 0)
ROLE_RGB = (RED_ROLE_RGB, SIDE_RGB[1], SIDE_RGB[2])


def expected(pos, out):
    board = pos.board
    cells = core.CELLS
    for i in range(N_SITES):
        out[i] = 1 if board[cells[i]] else 0


def footprint(pos, m, out):
    """Lift the piece, place it on the landing cell (in the mover's colour),
    take off each captured piece (in its owner's colour), then place the
    bunny piece (in the bunny's colour)."""
    side = pos.side
    to = core.CELLS[(m >> 6) & 63]
    out[0] = (m & 63) | (LIFT << 8) | (ROLE_SOURCE << 10)
    out[1] = ((m >> 6) & 63) | (PLACE << 8) | ((ROLE_GAME + side) << 10)
    n = 2
    mask = (m >> 18) & 63
    if mask:
        owners = (m >> 24) & 63
        s1 = (side + 1) % 3
        s2 = (side + 2) % 3
        for k in range(6):
            if mask & (1 << k):
                who = s2 if owners & (1 << k) else s1
                out[n] = (
                    core.SITE_OF_SQ[to + core.DIRECTIONS[k]]
                    | (LIFT << 8)
                    | ((ROLE_GAME + who) << 10)
                )
                n += 1
    drop = (m >> 12) & 63
    bunny = 3 - side - core.CELL_COLOUR[to]
    if drop != core.NO_DROP:
        out[n] = drop | (PLACE << 8) | ((ROLE_GAME + bunny) << 10)
        n += 1
    elif not core.eliminates(pos, m):
        out[n] = WILD | (PLACE << 8) | ((ROLE_GAME + bunny) << 10)  # an open slide
        n += 1
    return n


marks = None
DRAW_NAMES = ()


def owner(pos, site):
    return pos.owner(site)


# Sites the board uses for its own displays: the ring round the centre E5
# while it thinks (a light circles it in this order: clockwise), row E to
# count the level, each side's start cells for the seat it plays.
CENTRE = bytes(site_index(n) for n in ("D4", "D5", "E6", "F6", "F5", "E4"))
LEVEL_SITES = bytes(site_index("E%d" % k) for k in range(3, 8))
HOME = (
    bytes(site_index(n) for n in ("C1", "D1", "D2", "E1", "E2", "E3", "F2", "F3", "G3")),
    bytes(site_index(n) for n in ("A3", "A4", "A5", "B4", "B5", "B6", "C5", "C6", "C7")),
    bytes(site_index(n) for n in ("G7", "G8", "G9", "H7", "H8", "H9", "I7", "I8", "I9")),
)
PHASE_NAMES = ("capture", "choose")
FINISH_EVENT = "landed"
SETTING_CHOICES = {}  # type: dict[str, tuple]


def shows(pos, site):
    """The owner's colour role of the piece on site, 0 for none."""
    q = pos.board[core.CELLS[site]]
    return ROLE_GAME + core.SIDE_OF_PIECE[q] if q else 0


# -- set-up, settings, engine ----------------------------------------------------


def new_game(roll, first):
    """Red always starts; no roll."""
    return START, ""


FIRST_ALTERNATES = False
# Levels 1-3 make many random turns (so that each level beats the one below
# at the chip's node budget): a new board plays at 4, a fair opponent.
DEFAULT_LEVEL = 4
SETTINGS = {}  # type: dict[str, int]


def apply_setting(pos, name, value):
    pass


# What new_engine imports, for the board's player to import before it (the
# main loop ticks between: issue 15).
ENGINE_MODULES = (
    "triad.games.engine_kit",  # (Browne's core does not import it)
    "triad.games.browne.engine.tables",
    "triad.games.browne.engine.evaluate",
    "triad.games.browne.engine.search",
)


def new_engine(level, tt_entries, now_ms=None):
    """The searching engine (triad.games.browne.engine.search): paranoid
    alpha-beta over slides with a few chosen drops; no table, so tt_entries
    is unused. now_ms: read between the constructor's parts (its big
    buffers are made in choose, with the clock read between them:
    Engine.ready)."""
    from triad.games.browne.engine.search import Engine

    return Engine(level, tt_entries, now_ms=now_ms)

def LESSONS():
    """The board's teaching mode: this game's lessons (triad/board/lessons.py
    runs them), loaded on first use: the data module costs RAM only once a
    lesson is asked for."""
    from triad.games.browne import lessons

    return lessons.LESSONS


_quick_buf = None


def quick_move(pos):
    global _quick_buf
    if _quick_buf is None:
        from array import array

        _quick_buf = array("i", bytes(4 * core.MAX_SLIDES))
    return _quick(pos, _quick_buf)


def _quick(pos, buf):
    """A cheap, sensible turn (every legal slide captures the same number):
    the slide that leaves the stronger opponent weakest (or wins at once),
    and the drop on the empty cell next to most of the mover's own pieces, so
    the bunny piece blocks a landing that would capture them. buf needs
    room for core.MAX_SLIDES. -1 when the game is over."""
    n = pos.gen_slides(buf, 0)
    if n == 0:
        return 0
    side = pos.side
    s1 = (side + 1) % 3
    s2 = (side + 2) % 3
    c = pos.counts
    best = buf[0]
    best_v = -1000
    for i in range(n):
        m = buf[i]
        t = core.taken(m)
        a = c[s1] - (t & 7)
        b = c[s2] - (t >> 3)
        own = c[side]
        if a == 0 or b == 0:
            # The game ends now: the larger remaining count wins.
            rest = a if b == 0 else b
            v = 500 if (a == 0 and b == 0) or own > rest else (0 if own == rest else -500)
        else:
            v = -(a if a > b else b)
        if v > best_v:
            best_v = v
            best = m
    if _ends(pos, best):
        return best
    pos.make(best)
    board = pos.board
    own_bit = 1 << side
    drop = -1
    drop_v = -1
    for i in range(N_SITES):
        sq = core.CELLS[i]
        if board[sq]:
            continue
        v = 0
        for d in core.DIRECTIONS:
            if board[sq + d] == own_bit:
                v += 1
        if v > drop_v:
            drop_v = v
            drop = i
    pos.unmake(best)
    return core.with_drop(best, drop)


def _ends(pos, m):
    """True when slide m leaves a player without pieces (no drop follows)."""
    pos.make(m)
    c = pos.counts
    r = not (c[0] and c[1] and c[2])
    pos.unmake(m)
    return r

status_lights = None  # no status LEDs of its own beyond turn and score
