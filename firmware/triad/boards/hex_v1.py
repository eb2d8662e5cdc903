# Triad smart board for Cameron Browne's three-player game: Raspberry Pi
# Pico (RP2040), 61 reed switches under the hexagon's cells in an 8x8 diode
# matrix (61 of 64 positions populated), 61 + 6 WS2812 LEDs on one data
# line, four push buttons. hardware/hex_v1.md documents it.
#
# Sites are the game's: cell = its index in A1..A5, B1..B6, ..., I5..I9.
NAME = "hex_v1"
GAMES = ("browne",)

N_SITES = 61

# -- Reed switch matrix (as pico_v1: rows driven low, open drain; columns
# pulled up; one diode per switch, from column to row) ------------------------
ROW_PINS = (2, 3, 4, 5, 6, 7, 8, 9)  # GP2..GP9
COL_PINS = (10, 11, 12, 13, 14, 15, 26, 27)  # GP10..GP15, GP26, GP27
# Matrix position (row * 8 + col) -> site, chosen for short row and column
# wires on the 1:1 plate (host_tools/hardware/wiring.py short_matrix): each
# row line runs through neighbouring cells from the top down to the right
# (row 3: A1, B2, C3, D4, E5, F6, G8, H9), each column line crosses them
# down to the left (column 0 along the top and upper left edges: A4..A1,
# B1..E1): 3.9 m of matrix wire (in reading order, row by row, it was
# 5.5 m).
# Positions 61..63 (row 7, columns 5..7) carry no switch (always open) and
# map to the spare site numbers 61..63, which the controller never reads.
MATRIX_CELL = bytes((
    3, 4, 9, 16, 17, 10, 25, 34,  # row 0
    2, 8, 15, 23, 24, 32, 33, 42,  # row 1
    1, 7, 14, 22, 31, 40, 41, 49,  # row 2
    0, 6, 13, 21, 30, 39, 48, 55,  # row 3
    5, 12, 20, 29, 38, 47, 54, 60,  # row 4
    11, 19, 28, 37, 45, 46, 53, 59,  # row 5
    18, 27, 36, 44, 51, 52, 57, 58,  # row 6
    26, 35, 43, 50, 56, 61, 62, 63,  # row 7
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
# Status LEDs follow the 61 cells: per side (Red, Green, Blue) a turn LED and
# a "still in the game" LED (lit while the side has pieces).
N_STATUS = 6
STATUS_TURN = bytes((0, 2, 4))
STATUS_SCORE = (bytes((1,)), bytes((3,)), bytes((5,)))
N_LEDS = N_SITES + N_STATUS

# Chain position -> frame slot. The rows run serpentine (A1 -> A5, B6 -> B1,
# ..., I5 -> I9: the shortest wire between neighbours in a hexagon's rows),
# each player's two status LEDs on the line where it passes that player's
# corner (Blue's before A1, Green's between E9 and F9, Red's between H4 and
# I5), and the whole reversed: the data line enters at I9, beside the Pico,
# and every hop stays within 150 mm (hardware checks; wiring.csv DIN<n>).
_ROWS = (5, 6, 7, 8, 9, 8, 7, 6, 5)


def _chain():
    s = N_SITES
    out = [s + 5, s + 4]  # Blue: still in, turn (top-left corner)
    first = 0
    for r, n in enumerate(_ROWS):
        if r == 5:
            out.extend((s + 2, s + 3))  # Green: turn, still in (right corner)
        if r == 8:
            out.extend((s + 0, s + 1))  # Red: turn, still in (bottom-left corner)
        row = list(range(first, first + n))
        out.extend(row if r % 2 == 0 else row[::-1])
        first += n
    out.reverse()
    return bytes(out)


LED_CHAIN = _chain()

# -- The plate's other holes (hardware/: the template and drill.csv; the
# firmware reads none of these). In the game's layout units (site_xy: one
# unit between neighbouring cell centres, row A at the top, y down).
# Status LED n: each player's turn and "still in" LEDs as a pair outside a
# corner of the hexagon, at that player's seat (an assumption: move them
# to where your players sit): Red at the bottom-left corner, Green at the
# right one, Blue at the top-left. A pair's two LEDs are a unit (35 mm) or
# 0.7 (24.5 mm) apart: each rides on a 26 x 20 mm sensor module of its own
# (hardware/README.md), which must clear its neighbour's.
STATUS_XY = (
    (1.117, 7.458), (1.983, 7.958),  # Red: turn, still in
    (9.4, 3.114), (9.4, 3.814),  # Green
    (1.983, -1.029), (1.117, -0.529),  # Blue
)
# BUTTON_NAMES' buttons in a row below row I.
BUTTON_XY = ((3.2, 7.75), (4.0, 7.75), (4.8, 7.75), (5.6, 7.75))
# The Pico's centre, lying along x off the hexagon's lower right edge, 83 mm
# from I9 where the data line enters; its USB end faces the plate's right
# edge, the template's USB notch 21 mm deep.
PICO_XY = (8.8, 6.6)
PICO_USB = "right"

# -- Sound ---------------------------------------------------------------------
# Optional passive piezo on GP22 (Pico pin 29), one of the five free GPIOs
# (GP0, GP1, GP17, GP22, GP28; hardware/hex_v1.md); PWM slice 3 A.
BUZZER_PIN = 22

# -- Power ---------------------------------------------------------------------
# 67 LEDs at full white would draw 67 * 60 = 4020 mA; USB gives 500 mA. The
# Pico and pull-ups take about 50 mA, 67 dark LEDs 67 mA, 33 mA stay as
# margin: 350 mA are left for colour, and the LED driver scales each frame
# down to that (a lit cell at the default brightness costs about 15 mA).
LED_MA_PER_CHANNEL = 20
LED_IDLE_MA = 1
BOARD_MA = 50
USB_BUDGET_MA = 500
LED_BUDGET_MA = 350
BRIGHTNESS_DEFAULT = 64
BRIGHTNESS_MAX = 192
