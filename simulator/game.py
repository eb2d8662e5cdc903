# The game the simulated board runs, through the game face only: the
# simulator names sites, dresses pieces and draws the page from it, so a
# board description that names another game gets its own simulator.
import os
import sys

_FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware")
if _FIRMWARE not in sys.path:
    # Appended: firmware/code.py and boot.py must not shadow the stdlib's.
    sys.path.append(_FIRMWARE)

from triad import boards, games  # noqa: E402
from simulator import choice  # noqa: E402


SimError = choice.SimError

# The board description: the firmware's own choice (triad.boards.ACTIVE)
# unless TRIAD_SIM_BOARD names another (python -m simulator --game NAME or
# --board NAME sets it before this module loads; simulator/choice.py).
DESC = choice.description(os.environ["TRIAD_SIM_BOARD"]) if os.environ.get("TRIAD_SIM_BOARD") else boards.ACTIVE
GAME = games.load(DESC.GAMES[0])
N_SITES = GAME.N_SITES
_INDEX = {name: i for i, name in enumerate(GAME.SITE_NAMES)}


def site_index(name):
    i = _INDEX.get(name) if isinstance(name, str) else None
    if i is None:
        raise SimError("bad %s %r: one of %s..%s" % (
            games.KIND_NAMES[GAME.SITE_KIND[0]], name, GAME.SITE_NAMES[0], GAME.SITE_NAMES[-1]))
    return i


def site_name(i):
    return GAME.SITE_NAMES[i]


def piece(pos, site):
    """(side letter, label) of the piece the game has on site, or None. The
    label is what a person sets on the piece (a die's value), or None."""
    owner = GAME.owner(pos, site)
    if owner < 0:
        return None
    label = GAME.label(pos, site) if getattr(GAME, "label", None) else None
    return GAME.SIDES[owner], label


def parse_position(text):
    try:
        return GAME.parse_position(text)
    except ValueError as e:
        raise SimError("bad position: %s" % e)


def layout():
    """What the page needs to draw this board: sites, sides, status LEDs."""
    sites = []
    for i in range(N_SITES):
        x, y = GAME.site_xy(i)
        sites.append({"name": GAME.SITE_NAMES[i], "kind": games.KIND_NAMES[GAME.SITE_KIND[i]],
                      "x": x, "y": y, "shape": GAME.site_shape(i)})
    n_sides = len(GAME.SIDES)
    status = []
    for p in range(n_sides):
        status.append({"side": GAME.SIDES[p], "name": GAME.SIDE_NAMES[p],
                       "turn": N_SITES + DESC.STATUS_TURN[p],
                       "score": [N_SITES + s for s in DESC.STATUS_SCORE[p]]})
    return {
        "game": GAME.NAME,
        "title": GAME.TITLE,
        "sides": [{"letter": GAME.SIDES[p], "name": GAME.SIDE_NAMES[p], "rgb": list(GAME.SIDE_RGB[p])}
                  for p in range(n_sides)],
        "sites": sites,
        "status": status,
        "state_text": dict(getattr(GAME, "STATE_TEXT", {})),
        "labels": list(getattr(GAME, "LABELS", ())),
    }
