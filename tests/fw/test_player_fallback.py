# Issue 23, case 6: an engine that finds no move while the game goes on is
# a fault the board says, and it plays the game's quick move instead (the
# board's side must never stall). CPython and MicroPython (mp_run).
from triad.board.player import Player
from triad.games import cornelson as G


class _Events:
    def __init__(self):
        self.seen = []

    def event(self, kind, text):
        self.seen.append((kind, text))


class _Mute:
    """An engine that answers 0 whatever the position."""

    uses_history = False

    def set_level(self, level):
        pass

    def choose(self, pos, budget_ms, clock, keys, nodes):
        return 0


class _Game:
    """Cornelson's face with the mute engine."""

    def __init__(self):
        self.quick_move = G.quick_move
        self.parse_position = G.parse_position
        self.new_engine = lambda level, tt, now_ms=None: _Mute()
        self.ENGINE_MODULES = ()  # the face's default: nothing to import first


def test_no_move_from_the_engine_is_said_and_the_quick_move_played():
    pos = G.parse_position(G.START)
    ev = _Events()
    pl = Player(_Game())
    pl.max_nodes = 100
    m = pl.choose(pos, G.START, [], 4, 100, ev)
    assert m and m in pos.legal_moves()
    assert [k for k, t in ev.seen] == ["error"] and "quick move" in ev.seen[0][1]
