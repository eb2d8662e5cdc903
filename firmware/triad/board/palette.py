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
HINT = (0, 200, 200)
STATUS_ON = (0, 180, 40)
TURN = (200, 200, 200)
WIN = ((120, 0, 255), (255, 200, 0))  # Black's and White's win sweep

FAST_BLINK_MS = const(250)
SLOW_BLINK_MS = const(600)
