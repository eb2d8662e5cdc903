# Browne's evaluation (the engine's side r): a finished game scores a win
# WIN - ply, a tie with r in it TIE, a loss -WIN + ply (_final); a game that
# goes on is scored by who is likely to be eliminated first (_material: each
# side weighted by 1 / count^2, its elimination scored for r by _outlook).
# The search (search.py) plays the side to move's forced capture out on the
# counts before it asks these.
from triad.compat import const

WIN = const(20000)  # a win at ply p scores WIN - p
WIN_BOUND = const(19000)
TIE = const(-900)  # a tie with the engine in it: worse than _outlook(0)
OUTLOOK_TIE = const(-300)


def _outlook(d):
    """The engine's prospects (per mille) when the game ends with it d
    pieces ahead of the other remaining player."""
    if d >= 2:
        return 1000
    if d == 1:
        return 700
    if d == 0:
        return OUTLOOK_TIE
    if d == -1:
        return -700
    return -1000


def _material(r, c0, c1, c2):
    """The engine's side r: counts c0, c1, c2 (all > 0) of a game that goes
    on. The game ends at the first elimination, most likely of the side
    with fewest pieces: each side x is weighted 1 / count(x)^2 and its
    elimination scored for r (r's own: -1000; an opponent's: _outlook of r
    against the other), plus ten per piece r has over the stronger
    opponent."""
    if r == 0:
        me = c0
        a = c1
        b = c2
    elif r == 1:
        me = c1
        a = c2
        b = c0
    else:
        me = c2
        a = c0
        b = c1
    wm = 4096 // (me * me)
    wa = 4096 // (a * a)
    wb = 4096 // (b * b)
    v = (wa * _outlook(me - b) + wb * _outlook(me - a) - wm * 1000) // (wm + wa + wb)
    return v + 10 * (me - (a if a > b else b))


def _final(r, c0, c1, c2, out, ply):
    """The score of a finished game for r: counts c0..c2, side `out`
    eliminated by having no move (-1: by counts, some count is 0)."""
    # best count among the remaining, how many have it, whether r does
    best = -1
    n = 0
    rin = False
    for s in range(3):
        if s == 0:
            c = c0
        elif s == 1:
            c = c1
        else:
            c = c2
        if c == 0 or s == out:
            continue
        if c > best:
            best = c
            n = 1
            rin = s == r
        elif c == best:
            n += 1
            if s == r:
                rin = True
    if not rin:
        return ply - WIN
    if n == 1:
        return WIN - ply
    return TIE



def _clip(v):
    """A finished game's score on _material's scale."""
    if v >= WIN_BOUND:
        return 2000
    if v <= -WIN_BOUND:
        return -2000
    return v
