# What any page needs to draw a game's board (issue 43): the game's sites
# with their kind, drawing position, shape and owner, its sides with their
# names and colours, its piece labels and words, from the game face alone.
# The simulator's page (/api/layout, simulator/game.py) and the relay's page
# (host_tools/relay/view.py) both draw from it with one drawing,
# simulator/static/board_draw.js. No game is named here.
from triad import games


def board_drawing(g):
    """The drawing data of game face g."""
    sites = []
    for i in range(g.N_SITES):
        x, y = g.site_xy(i)
        sites.append({"name": g.SITE_NAMES[i], "kind": games.KIND_NAMES[g.SITE_KIND[i]],
                      "x": x, "y": y, "shape": g.site_shape(i),
                      # the side the site belongs to (its colour on the board), -1 none
                      "owner": g.site_owner(i)})
    return {
        "game": g.NAME,
        "title": g.TITLE,
        "sides": [{"letter": g.SIDES[p], "name": g.SIDE_NAMES[p], "rgb": list(g.SIDE_RGB[p])}
                  for p in range(len(g.SIDES))],
        "sites": sites,
        "labels": list(g.LABELS),
        # Words for people, the game's own: never a die where there are none.
        "piece": list(g.PIECE_NAMES),
    }


def pieces(g, pos):
    """The piece on each site ({"colour": side letter, "value": label} or
    None), in site order: what the drawing puts on the spots."""
    out = []
    for i in range(g.N_SITES):
        owner = g.owner(pos, i)
        out.append(None if owner < 0 else {"colour": g.SIDES[owner], "value": g.label(pos, i)})
    return out
