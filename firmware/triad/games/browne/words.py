# Browne: the game's words for people -- the rules card, the state lines,
# the notices and the draw reasons -- read by the simulator page and the host
# tools through triad.games.words(). The board never imports this module:
# its RAM holds no text it would not show.

STATE_TEXT = {
    "play": "Slide one of your pieces in a straight line to a lit cell (never your own colour; the most captures).",
    "lifted": "Now slide the piece on to a lit cell (its colour is who moves next); back on its own cell (grey) takes it back.",
    "capture": "Take the blinking captured pieces off, then drop a bunny piece on any empty cell (they pulse in its colour).",
}

_NAMES = ("Red", "Green", "Blue")


def bunny(pos, landing):
    """The bunny's side for a slide of the side to move onto landing (a
    site index): the player who is neither the mover nor the landing
    cell's owner (who moves next), or -1."""
    from triad.games.browne import site_owner

    owner = site_owner(landing)
    if owner < 0 or owner == pos.side:
        return -1
    return 3 - pos.side - owner


def after_move_text(pos, move):
    """After a turn with a drop, the drop's colour said again (the board
    cannot see colours: issue 35.4): pos is the position now, move the last
    turn's text ("E3-H6@D5")."""
    from triad.games.browne import SITE_NAMES

    _, at, cell = move.partition("@")
    if not at or cell not in SITE_NAMES:
        return ""
    side = pos.owner(SITE_NAMES.index(cell)) if hasattr(pos, "owner") else -1
    if not 0 <= side < 3:
        return ""
    return "The piece dropped on %s counts as %s: if it is not a %s piece, put a %s one there." % (
        cell, _NAMES[side], _NAMES[side], _NAMES[side])


def finish_state_text(pos, so_far, fix=None):
    """The line once the slide has landed (the board's `evt landed <from><to>`):
    the drop's colour named (the board cannot sense it: the words are the
    only guard, issue 35.4), and what is next by the board's diagnosis
    (fix: its `take` sites, the captures still on the board)."""
    from triad.games.browne import SITE_NAMES

    land = so_far.strip()[-2:]
    if land not in SITE_NAMES:
        return ""
    b = bunny(pos, SITE_NAMES.index(land))
    if b < 0:
        return ""
    drop = "drop a %s piece on any empty cell (they pulse in %s)" % (_NAMES[b], _NAMES[b])
    take = (fix or {}).get("take") if fix is not None else None
    if fix is None or take:
        where = " (%s)" % ", ".join(take) if take else ""
        return "Take the blinking captured pieces off%s, then %s." % (where, drop)
    if fix.get("fault"):
        # (while something is wrong the captures are not lit: the words
        # say nothing of them the lights do not show)
        return "Once the captured pieces are off, " + drop + "."
    return "Now " + drop + "."

# The rules card (the simulator's page).
RULES = """Three players, Red, Green and Blue, nine pieces each; Red starts.
A turn: slide one of your pieces in a straight line (six directions, over
empty cells only) onto an empty cell of another colour. The owner of that
cell moves next; the third player is the bunny.
Every opponent piece next to the landing cell is captured and taken off.
You must make a move that captures the most (choose among equals).
Then drop a bunny piece on any empty cell (not when a player was just
eliminated).
The game ends as soon as a player is eliminated: the most pieces left wins,
equal counts tie.
The board: a move counts once the pieces have rested 0.8 s."""

# The legend of the simulator's page ("What the lights mean"): every light
# and animation this game's board shows, as (colour(s), look, words). A
# colour is an (r, g, b); several make a band. The look is how it moves:
# "" steady, "blink-fast", "blink-slow", "pulse", "breathe", "spin",
# "gauge", "sweep", "sweep-all".
_RGB = ((255, 0, 0), (0, 255, 0), (0, 0, 255))
# A piece to put down or take off, in its owner's light (the game's
# ROLE_RGB: Red's an orange red, apart from the red of "wrong").
_ROLE = ((255, 96, 0), (0, 255, 0), (0, 0, 255))
LEGEND = (
    (_RGB, "", "cells: each cell is one player's colour (painted on the board, drawn on the page; while a piece is lifted the empty cells glow faintly in it); land on another colour and its owner moves next, the third player is the bunny"),
    ((160, 160, 160), "", "lifted from: the cell the piece came from (grey)"),
    (_ROLE, "", "landing: the cells a lifted piece can slide to, lit in the mover's colour, Red's in orange red (never a cell of its own colour; only the slides that capture the most)"),
    (_ROLE, "blink-slow", "capture: after the landing, each captured piece blinks in its owner's colour (Red's orange red): take it off"),
    (_ROLE, "", "drop: every empty cell lit in the bunny's colour (Red's orange red; the board's move: the one cell): put a piece of the bunny's colour there"),
    ((255, 0, 0), "blink-fast", "wrong: a piece where it may not stand (fast pure red blink; Red's pieces to move are orange red)"),
    ((255, 255, 255), "blink-slow", "missing: a piece belongs here (slow white blink)"),
    ((58, 58, 58), "", "last move: faint white where it was lifted and put down"),
    ((0, 200, 200), "", "hint: the piece to move is steady cyan, its landing cell steady in its colour (4 s; the words say the hint too)"),
    (_ROLE, "breathe", "the board's move: its piece breathes in the seat's colour, then the landing, the captures and the drop breathe in turn; carry it out for the board"),
    ((80, 100, 255), "spin", "thinking: a blue light circles the centre while the board chooses"),
    ((255, 220, 120), "gauge", "level: a warm white gauge along row E, as many cells bright as the level (2 s)"),
    (_RGB, "", "seats set (hold hint: first Green and Blue, then Red and Blue, Red and Green, each alone, nobody): the home cells of each side the board plays, in its colour, for 2 s; a short press of hint meanwhile steps on"),
    (_RGB, "sweep", "win: the winner's colour sweeps across the board"),
    (_RGB, "sweep-all", "draw: the tied players' colours sweep in turn"),
    ((200, 200, 200), "", "status: whose turn (the player's turn LED)"),
    ((0, 180, 40), "", "status: a player's green LED is lit while they have pieces on the board"),
    ((255, 0, 0), "blink-slow", "status: the turn LEDs blink red while a move is not saved"),
)

def result_reason(pos, text):
    """Why the game ended, in words, from the final position and the board's
    result text ("r wins: g eliminated", "draw r g: b cannot move"): who is
    out and the pieces each player has left."""
    names = ("Red", "Green", "Blue")
    c = pos.counts
    out = [names[s] for s in (0, 1, 2) if not c[s]]
    why = (" and ".join(out) + (" has" if len(out) == 1 else " have") + " no pieces left") if out else (
        names[pos.side] + " cannot move")
    left = ", ".join("%s %d" % (names[s], c[s]) for s in (0, 1, 2) if c[s])
    if text.startswith("draw"):
        return "%s; the others have equally many pieces left (%s)" % (why, left)
    return "%s; the most pieces left win (%s)" % (why, left)


def refusal(pos, frm, to):
    """Why the mover's piece from site frm may not stand on site to, by the
    rule that forbids it (issue 47: "the rule's reason and what is allowed
    instead"); "" when no single rule says it (the lights say the rest).
    The fault's words (triad.games.text.fix_words)."""
    from array import array

    from triad.games.browne import core

    if pos.owner(frm) != pos.side or pos.owner(to) >= 0:
        return ""
    board = pos.board
    a, b = core.CELLS[frm], core.CELLS[to]
    line = 0
    for d in core.DIRECTIONS:
        s = a + d
        while core.CELL_COLOUR[s] != 3:
            if s == b:
                line = d
                break
            s += d
        if line:
            break
    if not line:
        return "a piece slides in a straight line, along one of the six directions of the cells"
    s = a + line
    while s != b:
        if board[s]:
            return "a piece slides over empty cells only, and another piece is in its way"
        s += line
    if core.CELL_COLOUR[b] == pos.side:
        return "a piece never lands on a cell of its own colour"
    # A slide the rules allow but for its captures: every opponent piece
    # next to the landing is taken, and a turn must take the most.
    took = 0
    for d in core.DIRECTIONS:
        q = board[b + d]
        if q and core.SIDE_OF_PIECE[q & 7] < 3 and core.SIDE_OF_PIECE[q & 7] != pos.side:
            took += 1  # (off the board is a BORDER: no piece)
    buf = array("i", bytes(4 * core.MAX_SLIDES))
    n = pos.gen_slides(buf)
    most = -1
    for i in range(n):
        m = buf[i]
        if core.m_from(m) == frm and core.m_to(m) == to:
            return ""  # (a legal slide: no rule forbids it)
        k = bin(core.m_mask(m)).count("1")
        most = k if k > most else most
    if most > took:
        return "a turn must capture the most: this slide captures %s, another %d" % (
            "nothing" if not took else took, most)
    return ""
