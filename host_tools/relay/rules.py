"""A room's game as the rules core sees it: the start, the moves, whose turn
and whether it is over. Every move a relay accepts goes through here, so the
relay's judgement is the game's own (the firmware's rules core on CPython,
through the game face: parse_move, format_move, make, outcome, draw_watch).

No game is named here: whatever triad.games.load(name) hands back is played.
"""
import host_tools  # noqa: F401  (puts firmware/ on the path)
from triad import games as _games

NAMES = _games.NAMES
DRAW = _games.DRAW
MAX_PLIES = 2000  # a safety net against an endless game (the draw rules end them long before)


class Refused(ValueError):
    """A move or a game the rules refuse; its text goes back to the sender."""


def load_game(name):
    if not isinstance(name, str) or name not in NAMES:
        raise Refused("unknown game %r (one of %s)" % (name if isinstance(name, str) else type(name).__name__,
                                                       ", ".join(NAMES)))
    return _games.load(name)


def mode_value(game, mode):
    """The index of `mode` among the game's modes (its setting "mode")."""
    words = game.SETTING_CHOICES.get("mode") if "mode" in game.SETTINGS else None
    if not words:
        raise Refused("%s has no modes" % game.NAME)
    if not isinstance(mode, str) or mode not in words:
        raise Refused("mode must be one of %s" % ", ".join(words))
    return words.index(mode)


def catalogue():
    """What a page needs to offer the games: each game's name, title, sides
    (letters and names) and modes, from the faces."""
    out = []
    for name in NAMES:
        g = _games.load(name)
        modes = list(g.SETTING_CHOICES.get("mode", ())) if "mode" in g.SETTINGS else []
        out.append({"name": name, "title": g.TITLE, "sides": list(g.SIDES), "side_names": list(g.SIDE_NAMES),
                    "modes": modes})
    return out


class Game:
    """One room's game: start text, mode and moves (canonical texts)."""

    def __init__(self, name, start=None, mode=None, moves=()):
        self.game = g = load_game(name)
        self.name = name
        if start is None:
            start = g.START
        if not isinstance(start, str) or len(start) > 2000:
            raise Refused("position must be the game's position text")
        try:
            pos = g.parse_position(start)
        except (g.NotationError, ValueError, IndexError, KeyError) as e:
            raise Refused("bad position: %s" % e)
        if mode is not None:
            g.apply_setting(pos, "mode", mode_value(g, mode))
        self.mode = mode
        # The start as the game writes it, so every relay replays the same text.
        self.start = g.format_position(g.parse_position(start))
        self._start_pos = pos
        self.pos = pos.copy()
        self.watch = g.draw_watch(pos.copy()) if g.draw_watch is not None else None
        self.moves = []  # canonical move texts
        self.seats = []  # the side letter of each move's mover
        self.draw_reason = 0
        self.over_text = g.outcome_text(self.pos)
        for text in moves:
            self.play(text)

    # -- questions ---------------------------------------------------------

    @property
    def sides(self):
        return tuple(self.game.SIDES)

    def over(self):
        return bool(self.over_text) or len(self.moves) >= MAX_PLIES

    def to_move(self):
        """The side letter to move, None when the game is over."""
        return None if self.over() else self.game.SIDES[self.pos.side]

    def result(self):
        """The winner's side letter, "draw", or None while the game goes on."""
        if not self.over():
            return None
        w = self.game.outcome(self.pos)
        if w >= 0 and w != DRAW:
            return self.game.SIDES[w]
        return "draw"

    def reason(self):
        if self.over_text:
            return self.over_text
        return "the game reached %d moves" % MAX_PLIES if self.over() else ""

    def legal(self):
        """The legal moves of the side to move, as the game writes them."""
        if self.over():
            return []
        from array import array

        g = self.game
        buf = array("i", bytes(4 * 2 * g.MAX_MOVES))
        n = g.gen(self.pos, buf, 0, -1)
        return [g.format_move(self.pos, buf[i]) for i in range(n)]

    # -- the one way the game changes ----------------------------------------

    def check(self, text):
        """The canonical text of `text` if it is a legal move for the side to
        move now; Refused (the room unchanged) if not."""
        g = self.game
        if self.over():
            raise Refused("the game is over (%s)" % self.reason())
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise Refused("move must be a move in %s's notation" % g.TITLE)
        try:
            m = g.parse_move(self.pos, text.strip())
        except (g.NotationError, ValueError, IndexError, KeyError) as e:
            raise Refused("illegal move %r: %s" % (text.strip(), e))
        if not m:
            raise Refused("illegal move %r" % text.strip())
        return g.format_move(self.pos, m), m

    def play(self, text):
        """Check and make one move; returns its canonical text."""
        canon, m = self.check(text)
        seat = self.game.SIDES[self.pos.side]
        self.pos.make(m)
        self.moves.append(canon)
        self.seats.append(seat)
        if self.watch is not None:
            r = self.watch.push(self.pos, m)
            if r:
                self.draw_reason = r
        self.over_text = self.game.outcome_text(self.pos, self.draw_reason)
        return canon
