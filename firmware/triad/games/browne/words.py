# Browne: the game's words for people -- the rules card, the state lines,
# the notices and the draw reasons -- read by the simulator page and the host
# tools through triad.games.words(). The board never imports this module:
# its RAM holds no text it would not show.

STATE_TEXT = {
    "play": "Slide one of your pieces in a straight line to a lit cell (never your own colour; the most captures).",
    "capture": "Take the blinking captured pieces off, then drop a bunny piece on any empty cell (they pulse in its colour).",
}

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
