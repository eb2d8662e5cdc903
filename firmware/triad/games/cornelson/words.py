# Cornelson: the game's words for people -- the rules card, the state lines,
# the notices and the draw reasons -- read by the simulator page and the host
# tools through triad.games.words(). The board never imports this module:
# its RAM holds no text it would not show.

STATE_TEXT = {
    "setup": "Set-up: put South's jewels on S1-S3 and North's on N1-N3; no gems.",
    "play": "Place a gem on a lit post (posts that would capture show magenta), swap each "
    "captured gem as it lights, then step each of your jewels once (a lifted jewel shows "
    "its steps in orange and the Barriers in its way in red).",
    "finish": "Swap the captured gem that is lit for one of yours, then step your jewels. "
    "Lifting a jewel before every swap is done forfeits the captures left (rule 3.1).",
    "choose": "Press menu to pick between turns that look the same, then confirm.",
}



def finish_state_text(pos, so_far):
    """The headline once the gem is placed (the board's `evt capture <post>`):
    the swap only when the gem captured; else the jewels' steps."""
    from triad.games.cornelson import geometry as g

    name = so_far.split()[0] if so_far.split() else ""
    if name not in g.SITE_NAMES[:37]:
        return ""
    p = g.SITE_NAMES.index(name)
    if pos.posts[p] == 0 and pos._captures(p):
        return STATE_TEXT["finish"]
    return ("Your gem is on %s (it captures nothing): now step each of your jewels once (a lifted "
            "jewel shows its steps in orange and the Barriers in its way in red)." % name)


# The rules card (the simulator's page).
RULES = """Two players, South and North, three jewels on their docks each.
A turn: place one gem on any empty post; a gem of the opponent's between two
of yours on consecutive posts in a line is captured: swap it for one of
yours (a swapped gem may capture again). Lifting a jewel before every
swap is done forfeits the captures left. Then move all three jewels, each
across one border to an adjacent empty trey (never onto or across a post,
never back onto your own dock). A border between two of the opponent's gems is a barrier: no crossing.
Portals: three on each side of the board. A jewel that steps onto a portal
may, on your next turn, step back onto the trey beside it or transfer to the
portal directly across the board (barriers do not stop a transfer; an
occupied portal does). After a transfer it must step onto a trey next turn.
Win by Breach (a jewel reaches the opponent's dock), Trap (an opponent's
jewel cannot move: barriers, jewels or its own dock all round it; or the
opponent cannot step all three jewels) or Capture (ten gems captured).
Draw: the board full and no jewels in play.
The board: a move counts once the pieces have rested 0.8 s."""


def result_reason(pos, text):
    """Why the game ended, in words, from the final position and the
    board's result text ("s breach", "n trap", "n trap (s stuck)",
    "s capture", "draw"): which jewel breached or is trapped and by what."""
    from triad.games.cornelson import core
    from triad.games.cornelson import geometry as g

    names = ("South", "North")
    words = text.split()
    if not words:
        return ""
    if words[0] == "draw":
        return "every post is filled and no jewel is in play"
    w = "sn".find(words[0])
    if w < 0:
        return ""
    win, lose = names[w], names[w ^ 1]
    site = g.SITE_NAMES
    if "stuck" in text:
        return "Trap: %s could not step all three jewels" % lose
    why = words[1] if len(words) > 1 else ""
    if why == "breach":
        for slot in range(w * 3, w * 3 + 3):
            s = pos.jewel[slot]
            if s != core.NONE and g.DOCK_OWNER[s] == 2 - w:
                return "Breach: %s's jewel reached %s's dock %s" % (win, lose, site[g.FIRST_SPACE + s])
        return "Breach: a %s jewel reached %s's dock" % (win, lose)
    if why == "capture":
        return "Capture: %s captured %d gems" % (win, pos.tally[w])
    if why == "trap":
        ob = (w ^ 1) * 3
        for slot in range(ob, ob + 3):
            if pos.jewel[slot] != core.NONE and pos._trapped(slot):
                return "Trap: %s's jewel on %s cannot move, every way out is closed: %s" % (
                    lose, site[g.FIRST_SPACE + pos.jewel[slot]], _blocked(pos, slot, names))
        return "Trap: a %s jewel cannot move" % lose
    return ""


def _blocked(pos, slot, names):
    """What closes each way out of the jewel in slot, e.g. "a barrier of
    South's gems at C2-C3, South's jewel on b4, its own dock S1"."""
    from triad.games.cornelson import core
    from triad.games.cornelson import geometry as g

    s = pos.jewel[slot]
    jside = slot // 3
    other = names[jside ^ 1]
    site = g.SITE_NAMES
    out = []
    for e in range(3):
        i = s * 3 + e
        t = g.EXIT_TO[i]
        if t == core.NONE:
            continue
        b = g.EXIT_BORDER[i]
        o = pos.occ[t]
        name = site[g.FIRST_SPACE + t]
        if g.DOCK_OWNER[t] == jside + 1:
            out.append("its own dock %s" % name)
        elif g.DOCK_OWNER[t]:
            out.append("%s's dock %s (closed in this game)" % (other, name))
        elif b == core.NONE and pos.flags[slot]:
            out.append("no transfer back to %s" % name)
        elif b != core.NONE and pos.posts[g.BORDER_U[b]] == 2 - jside and pos.posts[g.BORDER_V[b]] == 2 - jside:
            out.append("a barrier of %s's gems at %s-%s" % (other, site[g.BORDER_U[b]], site[g.BORDER_V[b]]))
        elif o:
            out.append("%s's jewel on %s" % (names[(o - 1) // 3], name))
    return ", ".join(out)


# What a piece is called on each kind of site (the page's move words).
PIECE_KINDS = {"post": "gem", "trey": "jewel", "dock": "jewel", "portal": "jewel"}
