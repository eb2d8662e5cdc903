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



def finish_state_text(pos, so_far, fix=None):
    """The headline once the gem is placed (the board's `evt capture <post>`):
    the swap only when the gem captured; else the jewels' steps. fix: the
    board's diagnosis (triad.games.text.fix_record), whose take names what
    the turn still needs: the captured gem to swap (its post), then the
    jewels still to step, named as its lights show them (issue 47)."""
    from triad.games.cornelson import geometry as g

    name = so_far.split()[0] if so_far.split() else ""
    take = (fix or {}).get("take") or []
    posts = [t for t in take if t in g.SITE_NAMES[:37]]
    jewels = [t for t in take if t in g.SITE_NAMES[37:]]
    if name == "-":
        # (every post taken: the turn is the jewels' steps alone)
        return ("No gem to place (every post is taken): step each of your jewels once%s (a lifted jewel "
                "shows its steps in orange and the Barriers in its way in red)." % _left(jewels))
    if name not in g.SITE_NAMES[:37]:
        return ""
    if posts:
        # (the board's own word that the gem captured: the position text
        # carries no mode, and a tourney's rules capture where the standard
        # rules would not)
        what = ("the captured gem on %s (blinking white) for one of yours" % posts[0] if len(posts) == 1 else
                "the captured gems on %s and %s (blinking white), each for one of yours" % (
                    ", ".join(posts[:-1]), posts[-1]))
        return ("Swap %s, then step your jewels%s. Lifting a jewel before every swap is done forfeits the "
                "captures left (rule 3.1)." % (what, _left(jewels)))
    p = g.SITE_NAMES.index(name)
    if pos.posts[p] == 0 and pos._captures(p):
        if jewels:
            return "Every capture is swapped: now step each of your jewels once%s." % _left(jewels)
        return STATE_TEXT["finish"]
    return ("Your gem is on %s (it captures nothing): now step each of your jewels once%s (a lifted "
            "jewel shows its steps in orange and the Barriers in its way in red)." % (name, _left(jewels)))


def _left(jewels):
    """The jewels a turn still steps, named by what stands on their spots."""
    if not jewels:
        return ""
    if len(jewels) == 1:
        return "; still to step: the jewel on " + jewels[0]
    return "; still to step: the jewels on " + ", ".join(jewels[:-1]) + " and " + jewels[-1]


def refusal(pos, frm, to, so_far=""):
    """Why the mover's jewel from site frm may not stand on site to, by the
    rule that forbids it (issue 47: "the rule's reason and what is allowed
    instead"); "" when no single rule says it for certain (the lights say
    the rest). pos: the position at the turn's start; so_far: the turn so
    far (the board's `evt capture <post>`), whose gem and captures are laid
    first, since they make and break Barriers. The mode is not in the
    position text, so no reason here depends on it."""
    from triad.games.cornelson import core
    from triad.games.cornelson import geometry as g

    fs = g.FIRST_SPACE
    if frm < fs:
        return ""
    s = frm - fs
    o = pos.occ[s]
    if not o or (o - 1) // 3 != pos.side:
        return ""  # (not the mover's jewel where the turn began: one stepped already, say)
    if to < fs:
        return "a jewel stands on a trey, a dock or a portal, never on a post"
    t = to - fs
    exits = [g.EXIT_TO[s * 3 + e] for e in range(3)]
    if t not in exits:
        return "a jewel steps across one border, to a space next to its own"
    if g.DOCK_OWNER[t] == pos.side + 1:
        return "a jewel never steps back onto its own dock"
    b = g.EXIT_BORDER[s * 3 + exits.index(t)]
    if b == core.NONE:
        if pos.flags[o - 1]:
            return "a jewel that has just transferred steps onto its trey next, never back"
        return ""
    if g.DOCK_OWNER[t]:
        return ""  # (the opponent's dock: Breach's rules, and the mode is not known here)
    # A Barrier is read after the turn's gem and its captures (they turn
    # the opponent's gems: a Barrier may be gone): not while a post is
    # vacant and the board has read no gem yet.
    head = so_far.split()[0] if so_far.split() else ""
    if not head and pos.filled < g.N_POSTS:
        return ""
    post, _, kept = head.partition("!")
    p = pos
    if post in g.SITE_NAMES[:fs]:
        i = g.SITE_NAMES.index(post)
        if pos.posts[i]:
            return ""
        p = pos.copy()
        p._place(i, bytearray(64), 0, int(kept) if kept.isdigit() else 99)
    elif head not in ("", "-"):
        return ""
    opp = 2 - pos.side
    if p.posts[g.BORDER_U[b]] == opp and p.posts[g.BORDER_V[b]] == opp:
        return "a Barrier, two of the opponent's gems, stands on the border between"
    return ""


def forfeit_text(pos, arg, fix=None):
    """The line once a capture is forfeit (the board's `evt forfeit <post>
    <kept>`, rule 3.1): what happened, by which rule, and what is next (fix:
    the board's diagnosis: the jewels still to step, named)."""
    from triad.games.cornelson import geometry as g

    words = arg.split()
    if len(words) != 2 or not words[1].isdigit():
        return ""
    post, kept = words[0], int(words[1])
    stand = ("only its first capture stands" if kept == 1 else "only its first %d captures stand" % kept) if kept else (
        "none of its captures stands")
    return ("Forfeit (rule 3.1): a jewel was lifted before the gem on %s had all its captures swapped, so %s. "
            "Leave the gems not swapped as they are and step each of your jewels once%s." % (
                post, stand, _left([t for t in (fix or {}).get("take") or [] if t in g.SITE_NAMES[37:]])))


def move_note(move):
    """A word for the move list where a turn needs one: a forfeit (rule 3.1)
    is written <post>!<kept>; "" for any other turn."""
    first = move.split()[0] if move.split() else ""
    if "!" not in first:
        return ""
    post, _, kept = first.partition("!")
    return ("%s: forfeit (rule 3.1): a jewel was lifted before every captured gem was swapped; "
            "the gem on %s kept %s of its captures" % (first, post, kept or "0"))


def phase_label(pos, so_far, state, forfeit=""):
    """The board's state as the page names it: Cornelson's finish phase is
    "swap" only while the placed gem captured something (issue 35.9) and
    no capture was forfeit (rule 3.1: then the jewels' steps, issue 47)."""
    if state != "swap":
        return state
    if forfeit:
        return "steps"
    from triad.games.cornelson import geometry as g

    name = so_far.split()[0] if so_far.split() else ""
    if name not in g.SITE_NAMES[:37]:
        return "steps"
    p = g.SITE_NAMES.index(name)
    return "swap" if pos.posts[p] == 0 and pos._captures(p) else "steps"


# Why a game was drawn (DRAW_NAMES' order: none, the board's full-board rule).
NOTICE_TEXT = {"trapped": "You have no gem to place and no jewel to step: your turn is empty, and it "
               "leaves your opponent's jewel trapped, which leaves play. Take off the jewel "
               "that pulses."}

DRAW_TEXT = ("", "by the full-board rule: 60 turns in a row with every post taken")

# The rules card (the simulator's page).
RULES = """Two players, South and North, three jewels on their docks each.
A turn: place one gem on any empty post; a gem of the opponent's between two
of yours on consecutive posts in a line is captured: swap it for one of
yours (a swapped gem may capture again). Lifting a jewel before every swap
is done forfeits the captures left. Then move all three jewels, each across
one border to an adjacent empty trey (never onto or across a post, never
back onto your own dock). A border between two opponent gems is a barrier.
Portals, three a side: a jewel on a portal may next step back to its trey
or transfer to the portal directly across (barriers do not stop it, an
occupied portal does), then must step onto a trey.
Win by Breach (a jewel reaches the opponent's dock), Trap (an opponent's
jewel cannot move: barriers, jewels or its own dock all round it; or the
opponent cannot step all three jewels) or Capture (ten gems captured).
Draw (the board's rule): 60 turns in a row with every post taken (no gem
placed): on a full board the jewels could step round each other for ever.
The board: a move counts once the pieces have rested 0.8 s."""

# The legend of the simulator's page ("What the lights mean"): every light
# and animation this game's board shows, as (colour(s), look, words). A
# colour is an (r, g, b); several make a band. The look is how it moves:
# "" steady, "blink-fast", "blink-slow", "pulse", "breathe", "spin",
# "gauge", "sweep", "sweep-all".
_SOUTH, _NORTH = (0, 200, 40), (0, 80, 255)
LEGEND = (
    ((_SOUTH, _NORTH), "", "place: the empty posts where a gem may go glow in the colour of the side to move (green South, blue North) while nothing is lifted"),
    ((220, 0, 160), "", "capture: a post where your gem would capture glows magenta"),
    ((255, 255, 255), "blink-slow", "swap: a captured gem blinks white: lift it and put one of yours there"),
    ((160, 160, 160), "", "lifted from: the trey a jewel came from (grey)"),
    ((255, 160, 0), "", "step: the treys a lifted jewel may step to, orange (each jewel steps once a turn)"),
    ((255, 0, 0), "", "Barrier: the posts of each Barrier in the lifted jewel's way, steady red (no crossing between two of the opponent's gems)"),
    ((255, 0, 0), "blink-fast", "wrong: a gem or jewel where it may not stand (fast red blink)"),
    ((255, 255, 255), "blink-slow", "missing: a gem or jewel belongs here (slow white blink)"),
    ((58, 58, 58), "", "last move: faint white where pieces were lifted and put down"),
    ((0, 200, 200), "", "hint: the piece to move is steady cyan, where it goes steady in its light; a gem to place: its post steady cyan (4 s; the words say the hint too)"),
    ((_SOUTH, _NORTH), "breathe", "the board's move: the gem's post breathes in the board's colour, then each swap and step in turn; carry it out for the board"),
    ((80, 100, 255), "spin", "thinking: a blue light circles the six centre treys while the board chooses"),
    ((255, 220, 120), "gauge", "level: a warm white gauge along row D's posts, as many bright as the level (2 s)"),
    ((_SOUTH, _NORTH), "", "seat set (hold hint: North, South, nobody): the docks and home row of the side the board plays, in its colour, for 2 s; a short press of hint meanwhile steps on"),
    ((_SOUTH, _NORTH), "sweep", "win (Breach, Trap or Capture): the winner's colour sweeps across the board"),
    ((_SOUTH, _NORTH), "sweep-all", "draw: both colours sweep in turn"),
    ((200, 200, 200), "", "status: whose turn (the side's turn LED)"),
    ((0, 180, 40), "", "status: one green LED per gem captured (ten win by Capture)"),
    ((255, 160, 0), "", "status, between the sides: the mode played (standard, Breach, Trap, Capture: one lit orange; in a tourney the outcomes that still end a game)"),
    ((_SOUTH, _NORTH), "", "status, between the sides: the tourney's Game Tally, a side's colour for each outcome it has won"),
    ((255, 0, 0), "blink-slow", "status: the turn LEDs blink red while a move is not saved"),
)

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
        if "no gem" in text:
            return "the board's full-board rule: 60 turns in a row with every post taken"
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
# Where a piece put wrong may go instead, lit: a jewel's steps are treys,
# portals and (in Breach) a dock, so "a lit spot" (issue 47).
LIT_FOR = {"jewel": "spot", "gem": "post"}
