# A tiny game of another shape than any real one, to prove the board's
# controller holds no game knowledge: three sides, three sites in a row,
# one shared token. A turn either carries the token to another site, or
# spins it where it stands, showing red or blue (the board cannot see which,
# so the player picks it on the buttons). After five turns the side that
# made the most spins wins (ties: the last mover).
from triad.games import KIND_CELL, LIFT, PLACE, TOUCH, ROLE_SOURCE, ROLE_GAME

NAME = "tiny"
TITLE = "Tiny"
SIDES = "xyz"
SIDE_NAMES = ("Ex", "Why", "Zed")
SIDE_RGB = ((255, 0, 0), (0, 255, 0), (0, 0, 255))
N_SITES = 3
SITE_NAMES = ("p", "q", "r")
SITE_KIND = bytes((KIND_CELL, KIND_CELL, KIND_CELL))
ROLE_RGB = ((200, 0, 0), (0, 0, 200), (90, 90, 90))  # spun red, spun blue, a destination
CENTRE = bytes((1,))
LEVEL_SITES = bytes((0, 1, 2))
HOME = (bytes((0,)), bytes((1,)), bytes((2,)))
PHASE_NAMES = ("finish", "choose")
FINISH_EVENT = "finish"
STATE_TEXT = {}
FIRST_ALTERNATES = False
SETTINGS = {}
SETTING_CHOICES = {}
MAX_MOVES = 4
MAX_SEL_MOVES = 4
START = "p x 000 0"
draw_watch = None
DRAW_NAMES = ()
bind = None
marks = None
new_engine = None
TURNS = 5


class NotationError(ValueError):
    pass


class Position:
    def __init__(self):
        self.token = 0
        self.side = 0
        self.spins = bytearray(3)
        self.ply = 0
        self.spun = 0  # colour shown: 0 none, 1 red, 2 blue

    def copy(self):
        p = Position()
        p.token, p.side, p.ply, p.spun = self.token, self.side, self.ply, self.spun
        p.spins[:] = self.spins
        return p

    # move: to_site | spin << 2 (spin 1 red, 2 blue, then to_site == token) | old_spun << 4
    def make(self, m):
        spin = (m >> 2) & 3
        if spin:
            self.spins[self.side] += 1
            self.spun = spin
        else:
            self.token = m & 3
        self.ply += 1
        self.side = (self.side + 1) % 3

    def unmake(self, m):
        self.side = (self.side - 1) % 3
        self.ply -= 1
        spin = (m >> 2) & 3
        if spin:
            self.spins[self.side] -= 1
            self.spun = (m >> 4) & 3
        else:
            self.token = m >> 6


def gen(pos, buf, start=0, sel=-1):
    if outcome(pos) >= 0 or (sel >= 0 and sel != pos.token):
        return start  # every move starts at the token
    n = start
    for s in range(3):
        if s != pos.token:
            buf[n] = s | (pos.token << 6)
            n += 1
    for spin in (1, 2):
        buf[n] = pos.token | (spin << 2) | (pos.spun << 4)
        n += 1
    return n


def footprint(pos, m, out):
    spin = (m >> 2) & 3
    if spin:
        out[0] = pos.token | (TOUCH << 8) | ((ROLE_GAME + spin - 1) << 10)
        return 1
    out[0] = pos.token | (LIFT << 8) | (ROLE_SOURCE << 10)
    out[1] = (m & 3) | (PLACE << 8) | ((ROLE_GAME + 2) << 10)
    return 2


def expected(pos, out):
    for i in range(3):
        out[i] = 1 if i == pos.token else 0


def outcome(pos):
    if pos.ply < TURNS:
        return -1
    best = max(pos.spins)
    last = (pos.side - 1) % 3
    if pos.spins[last] == best:
        return last
    for s in range(3):
        if pos.spins[s] == best:
            return s
    return -1


def outcome_text(pos, draw=0):
    w = outcome(pos)
    return SIDES[w] if w >= 0 else ""


def score(pos, side):
    return pos.spins[side]


def shows(pos, site):
    return ROLE_GAME + pos.spun - 1 if site == pos.token and pos.spun else 0


def owner(pos, site):
    return 0 if site == pos.token else -1


def site_xy(i):
    return (float(i), 0.0)


def site_shape(i):
    return "square"


def site_index(name):
    return SITE_NAMES.index(name)


def parse_position(text):
    f = text.split() if isinstance(text, str) else ()
    if len(f) != 4 or f[0] not in SITE_NAMES or f[1] not in SIDES or len(f[2]) != 3 or f[3] not in "012":
        raise NotationError("bad tiny position %r" % (text,))
    p = Position()
    p.token = SITE_NAMES.index(f[0])
    p.side = SIDES.index(f[1])
    for i in range(3):
        if f[2][i] not in "0123456789":
            raise NotationError("bad spin count")
        p.spins[i] = int(f[2][i])
    p.spun = int(f[3])
    p.ply = sum(p.spins)
    return p


def format_position(pos):
    return "%s %s %s %d" % (SITE_NAMES[pos.token], SIDES[pos.side], "".join(str(v) for v in pos.spins), pos.spun)


def format_move(pos, m):
    spin = (m >> 2) & 3
    if spin:
        return "spin" + "rb"[spin - 1]
    return SITE_NAMES[pos.token] + SITE_NAMES[m & 3]


def parse_move(pos, text):
    from array import array

    buf = array("i", bytes(4 * MAX_MOVES))
    n = gen(pos, buf)
    for i in range(n):
        if format_move(pos, buf[i]) == text:
            return buf[i]
    raise NotationError("illegal move %r" % (text,))


def new_game(roll, first):
    return START, ""


def apply_setting(pos, name, value):
    pass


def quick_move(pos):
    from array import array

    buf = array("i", bytes(4 * MAX_MOVES))
    n = gen(pos, buf)
    return buf[n - 1] if n else 0


def perft(pos, depth):
    if depth == 0:
        return 1
    from array import array

    buf = array("i", bytes(4 * MAX_MOVES))
    n = gen(pos, buf)
    t = 0
    for i in range(n):
        pos.make(buf[i])
        t += perft(pos, depth - 1)
        pos.unmake(buf[i])
    return t

status_lights = None  # no status LEDs of its own beyond turn and score
