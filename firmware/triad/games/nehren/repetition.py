# Endless games. Nehren's rules have no draw: the board adds one, decided
# from the game's history alone (a pure function of the start position and
# the moves, so a resumed game after a power cut gives the same answer):
#
#   REPETITION  the same position (every die and its value, the side to
#               move and both players' Triads) stands for the third time;
#   NO_TRIAD    QUIET_PLIES moves in a row (both players together) without a
#               Triad.
#
# Either ends the game as a draw (the board shows it like a game over and a
# new game can be started). A Triad can never be undone (it takes a die off
# and raises a score), so only positions since the last Triad can repeat.
from triad.games.nehren import core

NONE = 0
REPETITION = 1
NO_TRIAD = 2
REPEATS = 3
QUIET_PLIES = 200
NAMES = ("none", "repetition", "no Triad")


def position_key(pos):
    """An exact, hashable key of everything that makes two positions equal."""
    b = pos.board
    out = bytearray(21)
    i = 0
    for k in range(0, 36, 2):
        out[i] = b[core.CELLS[k]] | (b[core.CELLS[k + 1]] << 4)
        i += 1
    out[18] = pos.side
    out[19] = pos.score[0]
    out[20] = pos.score[1]
    return bytes(out)


def draw_reason(start, moves, repeats=REPEATS, quiet_plies=QUIET_PLIES):
    """NONE, REPETITION or NO_TRIAD for the game that started at position
    `start` (not changed) and went on with `moves` (core move ints, all
    legal). REPETITION counts the final position's occurrences; because the
    check runs after every move, a game ends at the first third occurrence.
    A game already won is never a draw."""
    pos = start.copy()
    seen = {position_key(pos): 1}
    quiet = 0
    for m in moves:
        pos.make(m)
        if (m >> 18) & 127:
            seen = {}
            quiet = 0
        else:
            quiet += 1
        k = position_key(pos)
        seen[k] = seen.get(k, 0) + 1
    if pos.game_over():
        return NONE
    if seen[position_key(pos)] >= repeats:
        return REPETITION
    if quiet >= quiet_plies:
        return NO_TRIAD
    return NONE


class DrawWatch:
    """The same rule, incrementally (one call per move, for a game loop):
    w = DrawWatch(pos); after each pos.make(m): reason = w.push(pos, m)."""

    def __init__(self, start, repeats=REPEATS, quiet_plies=QUIET_PLIES):
        self.repeats = repeats
        self.quiet_plies = quiet_plies
        self.seen = {position_key(start): 1}
        self.quiet = 0

    def push(self, pos, m):
        if (m >> 18) & 127:
            self.seen = {}
            self.quiet = 0
        else:
            self.quiet += 1
        k = position_key(pos)
        n = self.seen.get(k, 0) + 1
        self.seen[k] = n
        if pos.game_over():
            return NONE
        if n >= self.repeats:
            return REPETITION
        if self.quiet >= self.quiet_plies:
            return NO_TRIAD
        return NONE
