# Klaus Nehren's Triad: 6x6 board, dice showing 1..3, three Triads win.
#
# This module is the game's face (docs/architecture.md): the one interface
# the board, protocol, store, simulator and host tools use. Sites are the 36
# cells, numbered rank * 6 + file (a1 = 0, f1 = 5, a6 = 30), which is also
# how pico_v1 numbers them.
from triad.compat import const, micropython, ptr8, ptr32
from triad.games import KIND_CELL, LIFT, PLACE, TOUCH, ROLE_SOURCE, ROLE_REMOVE, ROLE_GAME, DRAW
from triad.games import engine_kit
from triad.games.nehren import core, notation, repetition

NAME = "nehren"
TITLE = "Nehren's Triad"
SIDES = "bw"
SIDE_NAMES = ("Black", "White")
SIDE_RGB = ((120, 0, 255), (255, 200, 0))
SCORE_MAX = core.WIN_TRIADS

N_SITES = const(36)
SITE_NAMES = tuple("abcdef"[i % 6] + str(i // 6 + 1) for i in range(36))
SITE_KIND = bytes(KIND_CELL for _ in range(36))
_SQ = core.CELLS  # site -> padded square
_SITE_OF_SQ = bytearray(100)
for _i in range(36):
    _SITE_OF_SQ[_SQ[_i]] = _i

# Light roles of this game: a die's value 1..3 (Okabe-Ito blue, orange,
# reddish purple: they stay apart for the common colour-vision deficiencies).
ROLE_RGB = ((0, 70, 255), (255, 120, 0), (210, 0, 150))


def value_role(v):
    return ROLE_GAME + v - 1


# Sites the board uses for its own displays: the four centre cells while it
# thinks, rank 3 to count the level, each side's home row.
CENTRE = bytes((14, 15, 21, 20))  # c3 d3 d4 c4: round the centre, as the thinking light circles
LEVEL_SITES = bytes(range(12, 18))
HOME = (bytes(range(0, 6)), bytes(range(30, 36)))


def site_xy(i):
    return (float(i % 6), float(5 - i // 6))


def site_shape(i):
    return "square"


def site_index(name):
    for i in range(36):
        if SITE_NAMES[i] == name:
            return i
    return -1


def site_of_square(sq):
    return _SITE_OF_SQ[sq]


# -- notation ------------------------------------------------------------------

NotationError = notation.NotationError
START = notation.START
parse_position = notation.parse_position
format_position = notation.format_position
parse_move = notation.parse_move


def format_move(pos, m):
    return notation.format_move(m)


# -- rules ---------------------------------------------------------------------

Position = core.Position
MAX_MOVES = core.MAX_MOVES
# The most moves of one die (gen's sel): 8 directions x 2 distances x 6 removals.
MAX_SEL_MOVES = const(96)


def gen(pos, buf, start=0, sel=-1):
    return pos.gen(buf, start, _SQ[sel] if sel >= 0 else 0)


def outcome(pos):
    return pos.winner()


def outcome_text(pos, draw=0):
    if draw:
        return "draw " + repetition.NAMES[draw]
    w = pos.winner()
    return SIDES[w] if w >= 0 else ""


def score(pos, side):
    return pos.score[side]


perft = engine_kit.face_perft(MAX_MOVES)


def draw_watch(start):
    return repetition.DrawWatch(start)


DRAW_NAMES = repetition.NAMES


def notice(pos):
    """A position the players should be told about before they act: Note 2."""
    return "note2" if pos.is_note2() else ""


# -- what the board senses and shows -------------------------------------------


def expected(pos, out):
    board = pos.board
    for i in range(36):
        out[i] = 1 if board[_SQ[i]] else 0


# The footprint's numbers for viper (which cannot read imported names):
# triad.games' LIFT, PLACE, TOUCH, ROLE_SOURCE, ROLE_REMOVE and ROLE_GAME.
_F_LIFT = const(0)
_F_PLACE = const(1 << 8)
_F_TOUCH = const(2 << 8)
_F_SOURCE = const(1 << 10)
_F_REMOVE = const(2 << 10)
_F_VALUE0 = const(15)  # ROLE_GAME - 1: the role of value v is 15 + v
if (_F_LIFT, _F_PLACE, _F_TOUCH, _F_SOURCE, _F_REMOVE, _F_VALUE0 + 1) != (
        LIFT << 8, PLACE << 8, TOUCH << 8, ROLE_SOURCE << 10, ROLE_REMOVE << 10, ROLE_GAME):
    raise ImportError("nehren: the footprint constants disagree with triad.games")


@micropython.viper
def footprint(pos, m: int, out) -> int:
    """The steps of move m into out; their count. Viper: the board's
    matcher asks for the footprint of every move of a lifted die."""
    sq = ptr8(_SITE_OF_SQ)
    o = ptr32(out)
    fr = sq[m & 127]
    to = sq[(m >> 7) & 127]
    role = (_F_VALUE0 + ((m >> 14) & 3)) << 10
    n = 0
    if fr == to:
        # Note 2 (a): the die is lifted, turned and put back where it stood.
        o[0] = fr | _F_TOUCH | role
        n = 1
    else:
        o[0] = fr | _F_LIFT | _F_SOURCE
        o[1] = to | _F_PLACE | role
        n = 2
    rem = (m >> 18) & 127
    if rem:
        o[n] = sq[rem] | _F_LIFT | _F_REMOVE
        n += 1
    return n


def marks(pos, m, out):
    """The cells of the Triads that move m forms (they pulse while the
    player chooses the die to take off)."""
    board = pos.board
    sq_fr = m & 127
    sq_to = (m >> 7) & 127
    saved_fr = board[sq_fr]
    saved_to = board[sq_to]
    board[sq_fr] = 0
    board[sq_to] = (pos.side << 2) | ((m >> 14) & 3)
    n = 0
    for d in core.AXES:
        for k in (-2, -1, 0):
            a = sq_to + k * d
            if core.is_triad(board[a], board[a + d], board[a + d + d]):
                s = a
                for _ in range(3):
                    i = _SITE_OF_SQ[s]
                    j = 0
                    while j < n and out[j] != i:
                        j += 1
                    if j == n:
                        out[n] = i
                        n += 1
                    s += d
    board[sq_to] = saved_to
    board[sq_fr] = saved_fr
    return n


def shows(pos, site):
    p = pos.board[_SQ[site]]
    return value_role(p & 3) if p else 0


def owner(pos, site):
    p = pos.board[_SQ[site]]
    return (p >> 2) if p else -1


# -- set-up, settings, engine --------------------------------------------------

FIRST_ALTERNATES = True
SETTINGS = {"note2_triads": 1}


def new_game(roll, first):
    """Roll both players' dice; they stand sorted on their home rows."""
    b = sorted([roll() for _ in range(6)])
    w = sorted([roll() for _ in range(6)])
    side = SIDES[first]
    # White's home row ascends from f6 to a6 as seen from White's seat.
    rank6 = "".join("w%d" % v for v in reversed(w))
    rank1 = "".join("b%d" % v for v in b)
    text = "%s/....../....../....../....../%s %s 0 0" % (rank6, rank1, side)
    meta = "roll b:%s w:%s start:%s" % (
        "".join(str(v) for v in b),
        "".join(str(v) for v in w),
        side,
    )
    return text, meta


def apply_setting(pos, name, value):
    if name == "note2_triads":
        pos.note2_triads = bool(value)


# What new_engine imports, in an order the board's player can import them one
# at a time before it (the main loop ticks between: issue 15).
# (engine_kit and the search's kernels on their own steps: search.py with
# them held the scan 12-14 ms on the chip: issue 48)
ENGINE_MODULES = ("triad.games.engine_kit", "triad.games.nehren.engine.evaluate",
                  "triad.games.nehren.engine.kernels", "triad.games.nehren.engine.search")


def new_engine(level, tt_entries, now_ms=None):
    """now_ms: read between the engine's big buffers (the board's loop
    reads its switches there: board/player.py)."""
    from triad.games.nehren.engine.search import Engine

    return Engine(level, tt_entries, now_ms=now_ms)


_quick_buf = None


def quick_move(pos):
    """A cheap good move (the hint when there is no RAM for the engine)."""
    global _quick_buf
    from triad.games.nehren import hint

    if _quick_buf is None:
        from array import array

        _quick_buf = array("i", bytes(8 * MAX_MOVES))
    return hint.best_move(pos, _quick_buf)

# The protocol's names for the controller's two in-turn phases, and the
# event sent when a move waits for its removal (protocol v2), with the move
# so far: "c4c2", or "a1=2" for a Note 2 turn in place.
PHASE_NAMES = ("remove", "note2")
FINISH_EVENT = "triad"


def finish_text(pos, m):
    return notation.format_move(m).partition("x")[0]
# Words for the game's settings on the serial line, by stored value.
SETTING_CHOICES = {"note2_triads": ("off", "on")}


def label(pos, site):
    """What a person sets on the piece: the die's value."""
    p = pos.board[_SQ[site]]
    return p & 3 if p else None


# The labels a piece can carry (the simulator's box of dice).
LABELS = (1, 2, 3)
bind = None

# Words for people (the simulator's page, the README): what a piece is
# called, what a scoring move is, what the pulsing marks mean; the rules
# card, the reasons of a draw by DRAW_NAMES, the notice (Note 2).
PIECE_NAMES = ("die", "dice")
SCORE_WORD = "Triad"
MARKS_TEXT = "Triad: its cells pulse green; your dice in it may be taken off"


def LESSONS():
    """The board's teaching mode: this game's lessons (triad/board/lessons.py
    runs them), loaded on first use. A function, not the tuple: importing
    the data module costs RAM only once a lesson is asked for (and its name
    is not `lessons`: that is the submodule's)."""
    from triad.games.nehren import lessons

    return lessons.LESSONS

status_lights = None  # no status LEDs of its own beyond turn and score
