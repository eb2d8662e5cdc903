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
# Matrix position (row * 10 + col) -> site: in site order; position 109 has
# no switch and maps to the spare number 109, never read by the controller.
MATRIX_CELL = bytes(range(110))
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
# Chain: the posts row by row, then the treys, docks and portals in site
# order, then the status LEDs (South's, North's): the spots are wired in the
# order the game numbers them, so the map is the identity.
LED_CHAIN = bytes(range(N_LEDS))

# -- Sound ---------------------------------------------------------------------
# No piezo: the matrix, LED line and buttons take all 26 free GPIOs. (The
# shift-register variant in hardware/tri_v1.md would free pins for one.)
BUZZER_PIN = None

# -- Power ---------------------------------------------------------------------
# 141 LEDs at full white: 141 * 60 = 8460 mA, far over USB's 500 mA. Board
# 50 mA + 141 dark LEDs 141 mA leave 309 mA; 300 mA go to colour and the
# LED driver scales every frame down to that (a board lit for a lifted jewel
# uses under 100 mA at the default brightness).
LED_MA_PER_CHANNEL = 20
LED_IDLE_MA = 1
BOARD_MA = 50
USB_BUDGET_MA = 500
LED_BUDGET_MA = 300
BRIGHTNESS_DEFAULT = 48
BRIGHTNESS_MAX = 160
