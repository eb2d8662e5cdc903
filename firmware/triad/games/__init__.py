# The games behind one face (docs/architecture.md, "The game face").
#
# load(name) is the only place that imports a particular game: the board,
# protocol, store, simulator and host tools work on the module it returns.
# The constants below are the face's shared vocabulary; they are plain ints
# so that a game's tables and the controller agree without importing each
# other.
from triad.compat import const

# Games this firmware knows, in the order a board offers them.
NAMES = ("nehren", "browne", "cornelson")

# Site kinds (face: SITE_KIND).
KIND_CELL = const(0)
KIND_POST = const(1)
KIND_TREY = const(2)
KIND_DOCK = const(3)
KIND_PORTAL = const(4)
KIND_SUPPLY = const(5)
KIND_NAMES = ("cell", "post", "trey", "dock", "portal", "supply")

# Footprint steps: site | act << 8 | role << 10 (face: footprint()).
LIFT = const(0)  # the site becomes empty
PLACE = const(1)  # the site becomes occupied
TOUCH = const(2)  # lifted and put back (a swapped gem, a die turned in place)
# A step's site WILD: a PLACE on any empty site (a free drop). Only in the
# open moves of gen_open(); bind(pos, m, site) makes the whole move.
WILD = const(255)

# Light roles. Below ROLE_GAME the board's own (triad.board.lights knows
# their colours); from ROLE_GAME up the game's ROLE_RGB[role - ROLE_GAME].
ROLE_NONE = const(0)
ROLE_SOURCE = const(1)  # a piece to lift, or where a lifted piece came from
ROLE_REMOVE = const(2)  # one's own piece to take off
ROLE_TRIAD = const(3)  # a scoring line just formed
ROLE_GAME = const(16)

# outcome(): -1 while the game goes on, a side index for a win, or DRAW.
DRAW = const(255)


def load(name):
    """The face module of game `name` (ValueError for an unknown game), every
    optional name of the face filled in (triad/games/face.py)."""
    if name not in NAMES:
        raise ValueError("unknown game %r (one of %s)" % (name, ", ".join(NAMES)))
    from triad.games import face  # (here: face imports this package's constants)

    return face.fill(__import__("triad.games." + name, None, None, ("NAME",)))


def step_site(e):
    return e & 255


def step_act(e):
    return (e >> 8) & 3


def step_role(e):
    return e >> 10
