# The controller's vocabulary, in one place: its states and the button
# events it is given. Every module that reads a controller's state (the
# lights, the protocol, the lessons, the app) imports these names from here,
# never from the controller (which imports the lights: no cycle) and never
# as a copied number. const(): on MicroPython a name imported from here is
# one global lookup, with no allocation and no call (the tick reads them).
from triad.compat import const

SETUP = const(0)  # waiting for the pieces of a fresh start position
PLAY = const(1)
FINISH = const(2)  # a move is partly done: its further steps are wanted
OVER = const(3)
SYNC = const(4)  # resumed or loaded game: waiting for the board to match
CHOOSE = const(5)  # the board cannot see a step's outcome: menu/confirm pick it
SELFTEST = const(6)
STATE_NAMES = ("setup", "play", "finish", "over", "sync", "choose", "selftest")

# Button events, as produced by board.scan.Buttons: index * 2 + long
BTN_CONFIRM = const(0)
BTN_NEW = const(1)
BTN_HINT = const(2)
BTN_MENU = const(3)

# What the lights show for a while, one bit each: Controller.shown(now), the
# lights' view of the controller's timers and faults (board/lights.py).
SHOW_VALUES = const(1)  # every piece shows its role (a long hint press)
SHOW_SEATS = const(2)  # the banner: the sides the board plays
SHOW_LEVEL = const(4)  # the banner: the engine's level
SHOW_HINT = const(8)  # the hint's move is lit
SHOW_THINK = const(16)  # the board searches (its move or a hint)
SHOW_FAULT = const(32)  # the board does not match any legal move
SHOW_ERROR = const(64)  # ... and has rested in it (PASS_MS): it blinks
SHOW_BLOCKED = const(128)  # a lifted piece of the mover's has no move
SHOW_NOTE = const(256)  # the game's notice (Note 2) stands
