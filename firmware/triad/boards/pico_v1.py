# Triad smart board, revision 1: Raspberry Pi Pico (RP2040), 6x6 reed switch
# matrix with one diode per switch, 36 + 8 WS2812 LEDs on one data line,
# four push buttons. This file is the single source of the pin map, matrix
# wiring, LED chain order and power figures; hardware/README.md documents it.
#
# Conventions (fixed by the controller): cell = rank * 6 + file, a1 = 0,
# f1 = 5, a6 = 30, f6 = 35; files a..f run left to right as seen from
# Black's seat, rank 1 is Black's home row.

NAME = "pico_v1"
# The games this board plays (the first one is the default): its sites are
# the game's sites, numbered as the game numbers them.
GAMES = ("nehren",)

# -- Geometry ----------------------------------------------------------------
FILES = 6
RANKS = 6
N_CELLS = 36
N_SITES = N_CELLS

# -- Reed switch matrix --------------------------------------------------------
# Rows are driven low one at a time (open drain: a released row floats, so a
# reversed or missing diode can never short two GPIOs); columns are inputs
# pulled up (external 10k recommended, internal pull-ups are enabled too).
# A closed switch pulls its column low while its row is driven. Diodes point
# from column to row (cathode / stripe on the row side).
ROW_PINS = (2, 3, 4, 5, 6, 7)  # GP2..GP7: matrix rows 0..5
COL_PINS = (8, 9, 10, 11, 12, 13)  # GP8..GP13: matrix columns 0..5

# Matrix position (row * 6 + col) -> cell. On this PCB row r is rank r + 1
# and column c is file c, so the map is the identity; a board whose traces
# cross changes only this table.
MATRIX_CELL = bytes(range(36))

# Time a driven row needs before its columns read true: the column line's
# capacitance against a 10k pull-up settles in a few microseconds, internal
# ~50k pull-ups need more; RP2040 matrices read phantom keys when scanned
# with no wait at all.
SETTLE_US = 30

SCAN_HZ = 100
# Debounce: a reed switch must differ from the snapshot this many readings
# in a row, the first of them (DEBOUNCE - 1) half periods less 3 ms old
# (7 ms with 3; board/scan.py's HOLD_JITTER_MS), before the
# snapshot follows it (board/scan.py). A switch whose reading differs is
# read again halfway to the next scan (App._halfway), so 3 readings span
# 10 ms: a lift is believed 10 ms after it is first seen (a reed's bounce
# lasts well under 1 ms) and its lights come within 25 ms (issue 48); a
# reed that chatters, however often read, is never believed (issue 47).
DEBOUNCE = 3

# -- Buttons -----------------------------------------------------------------
# Active low, pulled up; index order is fixed by the controller.
BUTTON_NAMES = ("confirm", "new", "hint", "menu")
BUTTON_PINS = (18, 19, 20, 21)  # GP18..GP21
BUTTON_DEBOUNCE = 3  # scans, as for the reed switches
LONG_PRESS_MS = 800

# -- LEDs --------------------------------------------------------------------
LED_PIN = 16  # GP16, through a 74AHCT125 level shifter to 5 V logic

# Status LEDs follow the 36 cells in the frame: slot = N_CELLS + index.
STATUS_TURN_BLACK = 0
STATUS_TURN_WHITE = 1
STATUS_TRIADS_BLACK = 2  # 2, 3, 4: one per Triad scored by Black
STATUS_TRIADS_WHITE = 5  # 5, 6, 7
N_STATUS = 8
# Per side (the game's side order: Black, White): its turn LED, and its
# score LEDs in the order they fill.
STATUS_TURN = bytes((STATUS_TURN_BLACK, STATUS_TURN_WHITE))
STATUS_SCORE = (
    bytes(range(STATUS_TRIADS_BLACK, STATUS_TRIADS_BLACK + 3)),
    bytes(range(STATUS_TRIADS_WHITE, STATUS_TRIADS_WHITE + 3)),
)
N_LEDS = N_CELLS + N_STATUS

# Chain position -> frame slot. The data line enters at a1 (next to the
# Pico on Black's side), runs along rank 1 to f1, back along rank 2 from f2
# to a2, and so on (serpentine: the shortest wire between neighbours). After
# a6 it feeds the status column left of file a, from White's end to Black's:
# White's turn LED, White's Triad LEDs 1..3, Black's Triad LEDs 3..1,
# Black's turn LED, so each player's LEDs sit at that player's end.
LED_CHAIN = bytes((
    0, 1, 2, 3, 4, 5,  # rank 1: a1 -> f1
    11, 10, 9, 8, 7, 6,  # rank 2: f2 -> a2
    12, 13, 14, 15, 16, 17,  # rank 3: a3 -> f3
    23, 22, 21, 20, 19, 18,  # rank 4: f4 -> a4
    24, 25, 26, 27, 28, 29,  # rank 5: a5 -> f5
    35, 34, 33, 32, 31, 30,  # rank 6: f6 -> a6
    37, 41, 42, 43,  # White: turn, Triads 1..3 (slots 36 + 1, 36 + 5..7)
    40, 39, 38, 36,  # Black: Triads 3..1, turn (slots 36 + 4..2, 36 + 0)
))

# -- The plate's other holes (hardware/: the template and drill.csv; the
# firmware reads none of these). In the game's layout units (site_xy: one
# unit between neighbouring cells, a1 at (0, 5), y down as seen from
# Black's seat), so the template scales them with the cells.
# Status LED n (slot N_CELLS + n): the column left of file a, in chain order
# from White's end (top) to Black's (bottom), evenly spaced.
STATUS_XY = (
    (-1.0, 5.0), (-1.0, 0.0), (-1.0, 4.286), (-1.0, 3.571),
    (-1.0, 2.857), (-1.0, 0.714), (-1.0, 1.429), (-1.0, 2.143),
)
# BUTTON_NAMES' buttons in a row below rank 1, on Black's side.
BUTTON_XY = ((1.5, 5.8), (2.5, 5.8), (3.5, 5.8), (4.5, 5.8))
# The Pico's centre, lying along x below the status column, next to a1
# (where the chain's data line enters); its USB end faces the plate's left
# edge, where the template cuts the USB opening (21 mm deep: the Pico's end
# is as far out as the status LEDs' carriers).
PICO_XY = (-0.9, 5.8)
PICO_USB = "left"

# -- Sound ---------------------------------------------------------------------
# An optional passive piezo on GP22 (Pico pin 29, PWM slice 3 A: shared with
# nothing else here) through an NPN transistor or a series resistor
# (hardware/README.md). The firmware drives it only while the setting
# `sound` is on; a board built without it loses nothing.
BUZZER_PIN = 22

# -- Power -------------------------------------------------------------------
# WS2812B: about 20 mA per colour channel at full (60 mA full white) plus
# about 1 mA per LED even when dark. 44 LEDs at full white would draw
# 44 * 60 = 2640 mA; USB gives 500 mA. The Pico, pull-ups and level shifter
# take about 50 mA, 44 dark LEDs 44 mA, and 56 mA stay as margin, which
# leaves 350 mA for colour. The LED driver scales each frame down to that.
LED_MA_PER_CHANNEL = 20
LED_IDLE_MA = 1
BOARD_MA = 50
USB_BUDGET_MA = 500
LED_BUDGET_MA = 350

# Brightness 0..255, applied before the power limiter. The default is
# comfortable indoors; the maximum keeps the top of the range usable in
# daylight without making the limiter dim the whole board for every frame.
BRIGHTNESS_DEFAULT = 64
BRIGHTNESS_MAX = 192
