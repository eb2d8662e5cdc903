# Don Cornelson's TRIAD: gems on 37 posts, three jewels a side on 54 treys,
# docks and portals; a game is won by Breach, Trap or Capture.
#
# This module is the game's face (docs/architecture.md, "The game face"). Sites: posts 0..36
# (A1..G4), treys 37..90 (a1..f7), docks 91..96 (S1 S2 S3 N1 N2 N3),
# portals 97..108 (P1..P12): geometry.py's space s is site 37 + s.
# Rule readings: docs/cornelson.md.
from triad.compat import const
from triad.games import (
    KIND_POST, KIND_TREY, KIND_DOCK, KIND_PORTAL,
    LIFT, PLACE, TOUCH, ROLE_SOURCE, ROLE_REMOVE, ROLE_GAME, DRAW,
)
from triad.games import engine_kit
from triad.games.cornelson import core, notation
from triad.games.cornelson import geometry as _g

NAME = "cornelson"
TITLE = "Cornelson's TRIAD"
SIDES = "sn"
SIDE_NAMES = ("South", "North")
# The rulebook's examples play Green against Blue.
SIDE_RGB = ((0, 200, 40), (0, 80, 255))
SCORE_MAX = core.WIN_TALLY

N_SITES = const(109)
SITE_NAMES = _g.SITE_NAMES
SITE_KIND = bytes(
    KIND_POST if i < 37 else KIND_TREY if i < 91 else KIND_DOCK if i < 97 else KIND_PORTAL
    for i in range(109)
)
_FS = const(37)  # site of space 0

# Light roles of this game (ROLE_GAME + index).
ROLE_SOUTH = const(16)  # a South gem or jewel; where South's gem goes
ROLE_NORTH = const(17)
ROLE_SWAP = const(18)  # a captured gem to swap for the capturer's
ROLE_STEP = const(19)  # where a lifted jewel may go
ROLE_CAPTURING = const(20)  # a post where the gem would capture
ROLE_BARRIER = const(21)  # a post of a Barrier in the lifted jewel's way
ROLE_RGB = (
    SIDE_RGB[0],
    SIDE_RGB[1],
    (255, 255, 255),
    (255, 160, 0),
    (220, 0, 160),
    (255, 0, 0),
)

# Sites the board uses for its own displays: the six treys around D4 while
# it thinks, row D's posts to count a level, each side's docks and row.
# The six centre treys, round the centre (the thinking light circles them).
CENTRE = bytes((_FS + 20, _FS + 21, _FS + 22, _FS + 33, _FS + 32, _FS + 31))
LEVEL_SITES = bytes(range(15, 22))
HOME = (bytes((0, 1, 2, 3, 91, 92, 93)), bytes((33, 34, 35, 36, 94, 95, 96)))

PHASE_NAMES = ("swap", "choose")
FINISH_EVENT = "capture"


def site_xy(i):
    return _g.site_xy(i)


def site_shape(i):
    return _g.site_shape(i)


def site_index(name):
    for i in range(109):
        if SITE_NAMES[i] == name:
            return i
    return -1


# -- notation ------------------------------------------------------------------

NotationError = notation.NotationError
START = notation.START
parse_position = notation.parse_position
format_position = notation.format_position
parse_move = notation.parse_move
format_move = notation.format_move

# -- rules ---------------------------------------------------------------------

Position = core.Position
MAX_MOVES = core.MAX_MOVES
MAX_SEL_MOVES = core.MAX_MOVES  # small enough to keep whole (1110 turns)
MODE_NAMES = core.MODE_NAMES
MOVE_WORDS = 4  # a turn's text: the placement and up to three steps
bind = None


def gen(pos, buf, start=0, sel=-1):
    return pos.gen(buf, start, sel)


def outcome(pos):
    return pos.result


def notice(pos):
    """A position the players must be told of before acting: the side to
    move has only the empty turn (a full board, no jewel that steps), and
    in a game without the Trap rule it leaves an opponent jewel trapped,
    which leaves play: the person takes that jewel off (it pulses), and the
    board does not play the turn itself (the empty turn with nothing to do,
    it does)."""
    if pos.result != -1 or pos.filled < _g.N_POSTS or not pos.mode & core.RULE_JEWELS:
        return ""
    sets = pos._sets
    if pos._step_sets(sets) != 1 or sets[0] != 0:
        return ""  # (a jewel steps: the turn is the person's to choose)
    return "trapped" if pos.first_site(core.NO_POST) >= 0 else ""


def outcome_text(pos, draw=0):
    w = pos.result
    if w < 0:
        return ""
    if w == DRAW:
        return "draw"
    if pos.reason == core.WHY_STUCK:
        return "%s trap (%s stuck)" % (SIDES[w], SIDES[w ^ 1])
    return "%s %s" % (SIDES[w], core.WHY_NAMES[pos.reason])


def score(pos, side):
    return pos.tally[side]


perft = engine_kit.face_perft(MAX_MOVES)


# The board's own draw rule (issue 23). Once every post holds a gem no turn
# places or captures, and the jewels may step round each other for ever
# (games of 300 plies were seen): FULL_PLIES turns in a row with no gem placed
# end the game drawn. Decided from the game's history alone (a pure function
# of the start and the turns), so a game resumed after a power cut gives the
# same answer; on the rules card (words.py) and in DRAW_TEXT.
FULL_PLIES = 60
DRAW_NO_GEM = 1
DRAW_NAMES = ("none", "no gem")


class _DrawWatch:
    """w = draw_watch(start); after each pos.make(m): reason = w.push(pos, m)
    (0 while the game goes on)."""

    def __init__(self, start, full_plies=FULL_PLIES):
        self.full_plies = full_plies
        self.quiet = 0

    def push(self, pos, m):
        if m & 63 == core.NO_POST:
            self.quiet += 1  # no post vacant: a turn of jewels only
        else:
            self.quiet = 0
        if pos.result == -1 and self.quiet >= self.full_plies:
            return DRAW_NO_GEM
        return 0


def draw_watch(start):
    return _DrawWatch(start)

marks = None

# -- what the board senses and shows -------------------------------------------


def expected(pos, out):
    posts = pos.posts
    for i in range(37):
        out[i] = 1 if posts[i] else 0
    occ = pos.occ
    for s in range(72):
        out[_FS + s] = 1 if occ[s] else 0


def footprint(pos, m, out):
    """PLACE the gem; TOUCH each captured gem in chain order (swapped for
    the capturer's); LIFT/PLACE each jewel step in the turn's order; LIFT
    any opponent jewel a breach game removes as trapped."""
    side = pos.side
    n = 0
    p = m & 63
    if p != core.NO_POST:
        out[0] = p | (PLACE << 8) | ((ROLE_SOUTH + side) << 10)
        n = 1
    ob = (side ^ 1) * 3
    jw = pos.jewel
    o0 = jw[ob]
    o1 = jw[ob + 1]
    o2 = jw[ob + 2]
    pos.make(m)
    ring = pos._ring
    r = pos.last_record()
    if ring[r] > 1:
        out[0] = p | (PLACE << 8) | (ROLE_CAPTURING << 10)
    for i in range(r + 9, r + 8 + ring[r]):
        out[n] = ring[i] | (TOUCH << 8) | (ROLE_SWAP << 10)
        n += 1
    # Which opponent jewels the turn removed (breach game, trapped).
    gone = core.removed_jewels(jw, ob, o0, o1, o2)
    pos.unmake(m)
    base = side * 3
    for i in range(core.n_steps(m)):
        c = core.step_code(m, i)
        s = jw[base + (c & 3)]
        out[n] = (_FS + s) | (LIFT << 8) | (ROLE_SOURCE << 10)
        out[n + 1] = (_FS + _g.EXIT_TO[s * 3 + (c >> 2)]) | (PLACE << 8) | (ROLE_STEP << 10)
        n += 2
    for k in range(3):
        if (gone >> k) & 1:
            out[n] = (_FS + jw[ob + k]) | (LIFT << 8) | (ROLE_REMOVE << 10)
            n += 1
    return n


def finish_text(pos, m):
    """The turn so far, for the board's `evt capture` (FINISH_EVENT): the
    placed gem's post; `-` for a turn without a gem (the notation's word
    for it), whose jewels step in any order (rule 2.2.3): no one step is
    its first, and the footprint's first (the board's own order) may not
    be the one the person made (issue 35)."""
    p = m & 63
    return SITE_NAMES[p] if p != core.NO_POST else "-"


def idle_hints(pos, out):
    """Roles for the untouched board in play (out: one byte per site, zero
    where nothing lights): each vacant post where the mover's gem may go,
    ROLE_CAPTURING where it would capture. Nothing when no post is vacant
    (the turn begins with a jewel). Returns how many sites it lit."""
    if pos.result != -1 or pos.filled >= 37:
        return 0
    own = ROLE_SOUTH + pos.side
    posts = pos.posts
    n = 0
    for p in range(37):
        if not posts[p]:
            out[p] = ROLE_CAPTURING if pos._captures(p) else own
            n += 1
    return n


def lift_marks(pos, m, site, out):
    """While the jewel lifted from `site` in turn m is in the hand: the posts
    of each Barrier bordering its space (after m's placement and the
    captures it keeps), as `site | ROLE_BARRIER << 10`; the count."""
    s = site - _FS
    if s < 0 or s >= 72:
        return 0
    p = m & 63
    q = pos._q
    cnt = 0
    if p != core.NO_POST:
        keep = (m >> core.KEEP_SHIFT) & 63
        cnt = pos._place(p, q, 0, keep - 1 if keep else 99)
    opp = 2 - pos.side
    posts = pos.posts
    n = 0
    for e in range(3):
        b = _g.EXIT_BORDER[s * 3 + e]
        if b != core.NONE and posts[_g.BORDER_U[b]] == opp and posts[_g.BORDER_V[b]] == opp:
            out[n] = _g.BORDER_U[b] | (ROLE_BARRIER << 10)
            out[n + 1] = _g.BORDER_V[b] | (ROLE_BARRIER << 10)
            n += 2
    if cnt:
        pos._unplace(q, 0, cnt)
    return n


def gen_cut(pos, buf, start, sel, kept):
    """The forfeit rule (3.1): the turns placing on post `sel` that make only
    the first `kept` captures of its chain (a jewel was lifted before the
    other captured gems were swapped). Into buf from start; the end."""
    if sel < 0 or sel >= 37:
        return start
    return pos.gen_forfeit(buf, start, sel, kept)


def shows(pos, site):
    if site < 37:
        v = pos.posts[site]
        return ROLE_SOUTH + v - 1 if v else 0
    o = pos.occ[site - _FS]
    return ROLE_SOUTH + (o - 1) // 3 if o else 0


def owner(pos, site):
    if site < 37:
        return pos.posts[site] - 1
    o = pos.occ[site - _FS]
    return (o - 1) // 3 if o else -1


# -- set-up, settings, engine --------------------------------------------------

FIRST_ALTERNATES = True
# mode: an index into SETTING_CHOICES["mode"] (0 standard; 4 a tourney,
# whose games take their rules from the Game Tally). series: the tourney's
# Game Tally as tourney.Tourney.code(), kept in the game's settings file so
# that it survives power cuts; its words name the outcomes each side has
# won ("bt:c": South Breach and Trap, North Capture; "-:-" none).
MODE_TOURNEY = const(4)
# Levels 1-3 make many random turns (so that each level beats the one below
# at the chip's node budget): a new board plays at 4, a fair opponent.
DEFAULT_LEVEL = 4
SETTINGS = {"mode": 0, "series": 0}


def _series_word(code):
    out = ""
    for side in (0, 1):
        won = (code >> (3 * side)) & 7
        part = ""
        for k in range(3):
            if (won >> k) & 1:
                part += "btc"[k]
        out += (part or "-") + (":" if side == 0 else "")
    return out


SERIES_WORDS = tuple(_series_word(c) for c in range(64))
SETTING_CHOICES = {"mode": core.MODE_NAMES + ("tourney",), "series": SERIES_WORDS}


def new_game(roll, first):
    """The start: jewels on their docks, no gems; `first` moves first."""
    side = SIDES[first]
    text = START[:-5] + side + " 0 0"
    return text, "start:" + side


def apply_setting(pos, name, value):
    """mode: "standard", "breach", "trap", "capture", "tourney" (or its
    index); series: the tourney's Game Tally code (tourney.py). In a tourney
    the rules are the Game Tally's (12.2-12.4). A game of Capture uses no
    jewels, so they leave the position. Either order of the two gives the
    same position."""
    if name == "series":
        pos.series = value & 63
    elif name == "mode":
        pos.in_tourney = value == MODE_TOURNEY or value == "tourney"
        if not pos.in_tourney:
            pos.mode = notation.mode_rules(value)
    else:
        return
    if pos.in_tourney:
        pos.mode = new_tourney(pos.series).rules()
    if not pos.mode & core.RULE_JEWELS:
        for slot in range(6):
            pos.put_jewel(slot, core.NONE)
    pos.derive_result()


# What new_engine imports, for the board's player to import before it (the
# main loop ticks between: issue 15).
ENGINE_MODULES = (
    "triad.games.engine_kit",  # (on its own: search.py imports it)
    "triad.games.cornelson.engine.tables",
    "triad.games.cornelson.engine.evaluate",
    "triad.games.cornelson.engine.search",
)


def new_engine(level, tt_entries=0, now_ms=None):
    """The searching engine (engine.py), loaded on first use. now_ms: read
    between its buffers (board/player.py)."""
    from triad.games.cornelson.engine.search import Engine

    return Engine(level, tt_entries, now_ms=now_ms)


def new_tourney(code=0):
    """A tourney's Game Tally (rules 12.0-12.4), from its saved code."""
    from triad.games.cornelson.tourney import Tourney

    return Tourney(code)


def finished(pos, options):
    """A game ended (the controller calls this once, right after the
    deciding turn is saved): in a tourney, enter it into the Game Tally
    (options["series"], which the controller then saves) and say what it
    means for the series; None outside a tourney. A won tourney is
    announced and the next game begins a new one."""
    if options.get("mode") != MODE_TOURNEY:
        return None
    from triad.games.cornelson import tourney as _t

    t = _t.Tourney(options.get("series", 0))
    r = t.record(pos)
    if r == _t.SERIES_WON:
        options["series"] = 0
        return "won %s" % SIDES[pos.result]
    options["series"] = t.code()
    word = SERIES_WORDS[t.code()]
    if r == _t.GAME_DRAWN:
        return "drawn %s" % word  # 12.1
    if r == _t.GAME_WON:
        return "tally %s" % word
    return "none %s" % word

# How far each space is from each side's goal (the other side's docks), in
# steps, ignoring gems and jewels: quick_move's sense of progress.
_GOAL_DIST = (bytearray(b"\x63" * 72), bytearray(b"\x63" * 72))


def _goal_distances():
    for side in (0, 1):
        d = _GOAL_DIST[side]
        first = _g.FIRST_DOCK + 3 * (side ^ 1)
        frontier = [first, first + 1, first + 2]
        for s in frontier:
            d[s] = 0
        while frontier:
            nxt = []
            for s in frontier:
                for e in range(3):
                    t = _g.EXIT_TO[s * 3 + e]
                    if t != core.NONE and d[t] > d[s] + 1:
                        d[t] = d[s] + 1
                        nxt.append(t)
            frontier = nxt


_goal_distances()


_quick_buf = None


def quick_move(pos):
    global _quick_buf
    if _quick_buf is None:
        from array import array

        _quick_buf = array("i", bytes(4 * MAX_MOVES))
    return _quick(pos, _quick_buf)


def _quick(pos, buf):
    """A cheap decent turn: win now if possible, never lose by being stuck
    if avoidable, else the most captures and jewel progress. 0 if none."""
    n = pos.gen(buf, 0)
    if n == 0:
        return 0
    side = pos.side
    dist = _GOAL_DIST[side]
    best = buf[0]
    best_score = -1000000
    for i in range(n):
        m = buf[i]
        t0 = pos.tally[side]
        pos.make(m)
        if pos.result == side:
            sc = 100000
        elif pos.result >= 0:
            sc = -100000
        else:
            sc = (pos.tally[side] - t0) * 40
            for k in range(side * 3, side * 3 + 3):
                s = pos.jewel[k]
                if s != core.NONE:
                    sc -= dist[s] * 10
        pos.unmake(m)
        if sc > best_score:
            best_score = sc
            best = m
    return best


def status_lights(pos, options, out):
    """The board's extra status LEDs (tri_v1's STATUS_GAME): the mode played
    (standard, breach, trap, capture: one lit), then the tourney's Game
    Tally (South's Breach, Trap, Capture, North's: lit when won), as light
    roles into out; the count."""
    mode = options.get("mode", 0)
    series = options.get("series", 0) if mode == MODE_TOURNEY else 0
    if mode == MODE_TOURNEY:
        # In a tourney: the outcomes that still end a game (12.2-12.4).
        rules = new_tourney(series).rules()
        out[0] = 0
        out[1] = ROLE_STEP if rules & core.RULE_BREACH else 0
        out[2] = ROLE_STEP if rules & core.RULE_TRAP else 0
        out[3] = ROLE_STEP if rules & core.RULE_CAPTURE else 0
    else:
        for k in range(4):
            out[k] = ROLE_STEP if k == mode else 0
    for side in (0, 1):
        won = (series >> (3 * side)) & 7
        for k in range(3):
            out[4 + 3 * side + k] = (ROLE_SOUTH + side) if (won >> k) & 1 else 0
    return 10


def LESSONS():
    """The board's teaching mode: this game's lessons (triad/board/lessons.py
    runs them), loaded on first use: the data module costs RAM only once a
    lesson is asked for."""
    from triad.games.cornelson import lessons

    return lessons.LESSONS
