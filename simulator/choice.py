# Which board the simulator is: a board description of firmware/triad/boards/,
# picked by name or by a game it plays. Loads no game, so it can run before
# simulator.game decides.
import os
import sys

_FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware")
if _FIRMWARE not in sys.path:
    sys.path.append(_FIRMWARE)

from triad.boards import KNOWN as BOARDS  # noqa: E402  (every board description)


class SimError(ValueError):
    """A physical action that cannot happen (e.g. lifting an empty cell)."""


def description(name):
    if name not in BOARDS:
        raise SimError("unknown board %r (one of %s)" % (name, ", ".join(BOARDS)))
    return __import__("triad.boards." + name, None, None, ("NAME",))


def check_board_plays(board, game):
    """A board asked for with a game it does not play is refused (the
    simulator would otherwise show one and play another)."""
    games = description(board).GAMES
    if game not in games:
        raise SimError("board %s plays %s, not %s (--board %s goes with --game %s; or leave --board out)"
                       % (board, ", ".join(games), game, board, games[0]))


def board_for_game(game):
    for name in BOARDS:
        if game in description(name).GAMES:
            return name
    from triad import games

    raise SimError("no board plays %r (games: %s)" % (game, ", ".join(games.NAMES)))
