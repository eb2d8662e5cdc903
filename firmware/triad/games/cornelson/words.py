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

# The rules card (the simulator's page).
RULES = """Two players, South and North, three jewels on their docks each.
A turn: place one gem on any empty post; a gem of the opponent's between two
of yours on consecutive posts in a line is captured: swap it for one of
yours. Then move all three jewels, each across one border to an adjacent
empty trey (never onto or across a post, never back onto your own dock).
A border between two of the opponent's gems is a barrier: no crossing.
Win by Breach (a jewel reaches the opponent's dock), Trap (an opponent's
jewel cannot move) or Capture (ten gems captured).
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
    ((0, 200, 200), "", "hint: the piece to move is steady cyan, where it goes steady in its light (4 s)"),
    ((_SOUTH, _NORTH), "breathe", "the board's move: the gem's post breathes in the board's colour, then each swap and step in turn; carry it out for the board"),
    ((80, 100, 255), "spin", "thinking: a blue light circles the six centre treys while the board chooses"),
    ((255, 220, 120), "gauge", "level: a warm white gauge along row D's posts, as many bright as the level (2 s)"),
    ((_SOUTH, _NORTH), "", "seat set: the docks and home row of the side the board plays, in its colour, for 2 s"),
    ((_SOUTH, _NORTH), "sweep", "win (Breach, Trap or Capture): the winner's colour sweeps across the board"),
    ((_SOUTH, _NORTH), "sweep-all", "draw: both colours sweep in turn"),
    ((200, 200, 200), "", "status: whose turn (the side's turn LED)"),
    ((0, 180, 40), "", "status: one green LED per gem captured (ten win by Capture)"),
    ((255, 160, 0), "", "status, between the sides: the mode played (standard, Breach, Trap, Capture: one lit orange; in a tourney the outcomes that still end a game)"),
    ((_SOUTH, _NORTH), "", "status, between the sides: the tourney's Game Tally, a side's colour for each outcome it has won"),
    ((255, 0, 0), "blink-slow", "status: the turn LEDs blink red while a move is not saved"),
)
