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

# Why a game was drawn (DRAW_NAMES' order: none, the board's full-board rule).
DRAW_TEXT = ("", "by the full-board rule: 60 turns in a row with every post taken")

# The rules card (the simulator's page).
RULES = """Two players, South and North, three jewels on their docks each.
A turn: place one gem on any empty post; a gem of the opponent's between two
of yours on consecutive posts in a line is captured: swap it for one of
yours. Then move all three jewels, each across one border to an adjacent
empty trey (never onto or across a post, never back onto your own dock).
A border between two of the opponent's gems is a barrier: no crossing.
Win by Breach (a jewel reaches the opponent's dock), Trap (an opponent's
jewel cannot move) or Capture (ten gems captured).
Draw (the board's rule): 60 turns in a row with every post taken (no gem
placed): on a full board the jewels could step round each other for ever.
The board: a move counts once the pieces have rested 0.8 s."""
