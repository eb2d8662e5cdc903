# Which board the simulator is: a board description of firmware/triad/boards/,
# picked by name or by a game it plays. Loads no game, so it can run before
# simulator.game decides.
import os
import sys

_FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware")
if _FIRMWARE not in sys.path:
    sys.path.append(_FIRMWARE)

BOARDS = ("pico_v1", "hex_v1", "tri_v1")


class SimError(ValueError):
    """A physical action that cannot happen (e.g. lifting an empty cell)."""


def description(name):
    if name not in BOARDS:
        raise SimError("unknown board %r (one of %s)" % (name, ", ".join(BOARDS)))
    return __import__("triad.boards." + name, None, None, ("NAME",))


def board_for_game(game):
    for name in BOARDS:
        if game in description(name).GAMES:
            return name
    from triad import games

    raise SimError("no board plays %r (games: %s)" % (game, ", ".join(games.NAMES)))
