# Triad smart board for Don Cornelson's TRIAD: Raspberry Pi Pico (RP2040),
# a reed switch and an RGB LED under each of the 37 posts, 54 treys, 6 docks
# and 12 portals (109 spots), scanned as an 11 x 10 diode matrix (110
# positions, one spare), 109 + 22 WS2812 LEDs, four push buttons.
# hardware/tri_v1.md documents it.
#
# Sites are the game's: posts 0..36, treys 37..90, docks 91..96 (S1-S3,
# N1-N3), portals 97..108 (P1-P12).
NAME = "tri_v1"
GAMES = ("cornelson",)

N_SITES = 109

# -- Reed switch matrix: 11 rows x 10 columns, rows driven low (open drain),
# columns pulled up, one diode per switch from column to row. 21 GPIOs: with
# the LED line and four buttons this board uses all 26 of the Pico's free
# GPIOs (GP0/GP1 included: the console is the USB serial line).
ROW_PINS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
COL_PINS = (11, 12, 13, 14, 15, 17, 22, 26, 27, 28)
# Matrix position (row * 10 + col) -> site, chosen for short row and column
# wires on the 1:1 plate (host_tools/hardware/wiring.py short_matrix): each
# row line runs top to bottom through a band of neighbouring spots (row 0
# along the right edge, P6..P2; row 5 down the middle, f4..S2; row 10 along
# the left edge), each column line across them from right to left (column
# 0 along North's side, column 9 along South's): 8.0 m of matrix wire (in
# site order it was 14.4 m, each line through spots all over the board).
# Position 109 (row 10, column 9) has no switch and maps to the spare
# number 109, never read by the controller.
MATRIX_CELL = bytes((
    102, 27, 101, 100, 74, 21, 63, 99, 52, 98,  # row 0
    36, 90, 32, 83, 73, 20, 62, 14, 8, 97,  # row 1
    96, 89, 82, 26, 72, 61, 13, 51, 43, 3,  # row 2
    35, 81, 31, 71, 19, 60, 50, 7, 42, 93,  # row 3
    95, 88, 80, 25, 70, 59, 12, 49, 41, 2,  # row 4
    87, 30, 79, 69, 18, 58, 48, 6, 40, 92,  # row 5
    34, 86, 78, 24, 68, 57, 11, 47, 39, 1,  # row 6
    94, 85, 29, 77, 67, 17, 56, 46, 5, 38,  # row 7
    33, 84, 76, 23, 66, 55, 10, 45, 37, 91,  # row 8
    103, 28, 75, 65, 16, 54, 44, 4, 108, 0,  # row 9
    104, 105, 22, 64, 15, 53, 9, 106, 107, 109,  # row 10
))
SETTLE_US = 30
SCAN_HZ = 100
DEBOUNCE = 3

# -- Buttons -------------------------------------------------------------------
BUTTON_NAMES = ("confirm", "new", "hint", "menu")
BUTTON_PINS = (18, 19, 20, 21)
BUTTON_DEBOUNCE = 3
LONG_PRESS_MS = 800

# -- LEDs ----------------------------------------------------------------------
LED_PIN = 16
# Status LEDs follow the 109 spots: per side (South, North) a turn LED and
# ten tally LEDs (captured gems; ten win by Capture); then the game's own:
# four for the mode (standard, breach, trap, capture; in a tourney the
# current game's) and six for the tourney's Game Tally (South's Breach,
# Trap, Capture; North's), in the order of the face's status_lights().
N_STATUS = 32
STATUS_TURN = bytes((0, 11))
STATUS_SCORE = (bytes(range(1, 11)), bytes(range(12, 22)))
STATUS_GAME = bytes(range(22, 32))
N_LEDS = N_SITES + N_STATUS
# Chain position -> frame slot. The data line leaves the Pico for South's
# status row beside it, out along every other LED and back along the rest
# (turn, tally 2, 4, ..., 10, then 9, 7, ..., 1: 73 mm hops, both ends by
# the Pico), enters the spots at post 0 and runs spot to spot by the
# shortest wires on the 1:1 plate (host_tools/hardware/wiring.py
# short_chain: nearest neighbour, then 2-opt): 4.1 m of data wire between
# spots, no hop over 61 mm (in site order it was 9.1 m, hops up to
# 397 mm). At G4, by North's corner, it runs North's row from right to
# left (tally 10 .. 1, turn) and the game's row above it back from left to
# right (mode, then Game Tally), and on to P6: every hop within 150 mm
# (hardware checks; wiring.csv DIN<n>).
_S = N_SITES
LED_CHAIN = bytes(
    tuple(range(_S, _S + 11, 2)) + tuple(range(_S + 9, _S, -2))  # South: turn, tally 2..10, tally 9..1
    + (
        0, 108, 4, 107, 106, 9, 54, 44, 10, 56, 46, 11,
        58, 48, 49, 12, 59, 70, 18, 68, 57, 17, 66, 55,
        16, 64, 53, 15, 105, 104, 28, 103, 84, 76, 75, 22,
        65, 23, 67, 77, 29, 78, 86, 30, 80, 88, 87, 34,
        85, 33, 94, 95, 35, 96, 89, 36,
    )
    + tuple(range(_S + 21, _S + 10, -1)) + tuple(range(_S + 22, _S + 32))  # North: tally 10..1, turn; the game's
    + (
        102, 32, 101, 27, 100, 21, 99, 14, 98, 8, 97, 3,
        93, 2, 92, 1, 91, 38, 37, 45, 5, 47, 6, 39,
        40, 41, 42, 43, 51, 7, 50, 60, 13, 52, 62, 63,
        74, 20, 61, 72, 19, 71, 26, 73, 83, 82, 90, 31,
        81, 25, 69, 24, 79,
    )
)

# -- The plate's other holes (hardware/: the template and drill.csv; the
# firmware reads none of these). In the game's layout units (site_xy: one
# unit between neighbouring posts, North's docks at the top, y down).
# Status LED n: South's turn and tally in a row below South's docks,
# North's above North's, and the game's (mode, then Game Tally) in a second
# row above North's.
STATUS_XY = (
    # South: turn, tally 1..10
    (0.0, 6.3), (0.6, 6.3), (1.2, 6.3), (1.8, 6.3), (2.4, 6.3), (3.0, 6.3),
    (3.6, 6.3), (4.2, 6.3), (4.8, 6.3), (5.4, 6.3), (6.0, 6.3),
    # North
    (0.0, -1.1), (0.6, -1.1), (1.2, -1.1), (1.8, -1.1), (2.4, -1.1), (3.0, -1.1),
    (3.6, -1.1), (4.2, -1.1), (4.8, -1.1), (5.4, -1.1), (6.0, -1.1),
    # the mode
    (0.3, -1.7), (0.9, -1.7), (1.5, -1.7), (2.1, -1.7),
    # the Game Tally
    (2.7, -1.7), (3.3, -1.7), (3.9, -1.7), (4.5, -1.7), (5.1, -1.7), (5.7, -1.7),
)
# BUTTON_NAMES' buttons in a row in the bottom right corner, by P1.
BUTTON_XY = ((4.95, 5.6), (5.4, 5.6), (5.85, 5.6), (6.3, 5.6))
# The Pico's centre, lying along x in the bottom left corner by P12, beside
# South's status row where the data line starts; its USB end faces the
# plate's left edge, the template's USB notch 21 mm deep.
PICO_XY = (0.05, 5.6)
PICO_USB = "left"

# -- Sound ---------------------------------------------------------------------
# No piezo: the matrix, LED line and buttons take all 26 free GPIOs. (The
# shift-register variant in hardware/tri_v1.md would free pins for one.)
BUZZER_PIN = None

# -- Power ---------------------------------------------------------------------
# 141 LEDs at full white: 141 * 60 = 8460 mA, far over USB's 500 mA. Board
# 50 mA + 141 dark LEDs 141 mA leave 309 mA; 280 mA go to colour (29 mA
# stay as margin: the hardware checks want 25) and the LED driver scales
# every frame down to that (a board lit for a lifted jewel
# uses under 100 mA at the default brightness).
LED_MA_PER_CHANNEL = 20
LED_IDLE_MA = 1
BOARD_MA = 50
USB_BUDGET_MA = 500
LED_BUDGET_MA = 280
BRIGHTNESS_DEFAULT = 48
BRIGHTNESS_MAX = 160
