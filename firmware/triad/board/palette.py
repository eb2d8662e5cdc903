# The board's colour language, in one place. Values 1..3 use blue, orange
# and reddish purple from the Okabe-Ito set, which stay apart for the common
# colour-vision deficiencies; errors blink (so they never rely on hue alone).
from triad.compat import const

VALUE = ((0, 0, 0), (0, 70, 255), (255, 120, 0), (210, 0, 150))
OFF = (0, 0, 0)
SOURCE = (160, 160, 160)  # the cell a lifted die came from
ERROR = (255, 0, 0)  # a die where it may not stand (fast blink)
MISSING = (255, 255, 255)  # a die the game expects here is missing (slow blink)
TRIAD = (0, 255, 40)  # cells of a newly formed Triad
LAST_MOVE = (24, 24, 24)  # faint trace of the last move
# The board's own displays: each has its own colour *and* its own motion, so
# a player who cannot tell the hues apart still tells them by how they move.
HINT = (0, 200, 200)  # a hint: the piece to move, steady cyan
# The board's own move waits for a person: the piece to lift breathes in the
# board's side colour (the game's SIDE_RGB) and its destination breathes in
# its role in counter-phase, so the light seems to flow from one to the other.
THINK = (80, 100, 255)  # the board thinks: one light circles the centre, with a faint tail
LEVEL = (255, 220, 120)  # the level: a gauge along the level row, N bright, the rest faint
STATUS_ON = (0, 180, 40)
TURN = (200, 200, 200)
WIN = ((120, 0, 255), (255, 200, 0))  # Black's and White's win sweep

FAST_BLINK_MS = const(250)
SLOW_BLINK_MS = const(600)
BREATHE_STEP_MS = const(40)  # 32 steps: one breath in 1.28 s (the frame changes every 4th tick)
THINK_STEP_MS = const(200)  # the thinking light moves on one site
