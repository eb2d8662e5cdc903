"""A board description as plain data, and the Pico's pins.

A description is read either by its board name (firmware/triad/boards/B.py)
or from a file (the tests break copies of one). Nothing is checked here:
checks.py says what is wrong with it, naming the part and the rule.
"""
import importlib.util
import os

from host_tools import FIRMWARE  # noqa: F401  (puts firmware/ on sys.path)

from triad import games

BOARDS_DIR = os.path.join(FIRMWARE, "triad", "boards")

# Raspberry Pi Pico datasheet (RP-008307), "Pico pinout": pin -> (name, type).
# Types are KiCad/SKiDL pin functions. VBUS is the USB 5 V the board runs on
# (a source for this circuit), 3V3(OUT) the regulator's output; the grounds
# are inputs whose net is driven by USB's return (erc.txt says so).
PICO_PINS = {}
_GND_PINS = (3, 8, 13, 18, 23, 28, 38)
_GPIO_PIN = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14,
    11: 15, 12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25,
    20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34,
}
for _gp, _pin in _GPIO_PIN.items():
    PICO_PINS[_pin] = ("GP%d" % _gp, "bidirectional")
for _pin in _GND_PINS:
    PICO_PINS[_pin] = ("GND", "power_in")
PICO_PINS[30] = ("RUN", "input")
PICO_PINS[33] = ("AGND", "power_in")
PICO_PINS[35] = ("ADC_VREF", "power_in")
PICO_PINS[36] = ("3V3(OUT)", "power_out")
PICO_PINS[37] = ("3V3_EN", "input")
PICO_PINS[39] = ("VSYS", "power_in")
PICO_PINS[40] = ("VBUS", "power_out")
assert sorted(PICO_PINS) == list(range(1, 41))
# GPIOs the Pico keeps for itself (datasheet: GP23 SMPS mode, GP24 VBUS
# sense, GP25 the on-board LED, GP29 VSYS/3 on ADC3); GP30+ do not exist.
PICO_RESERVED = {23: "SMPS power-save", 24: "VBUS sense", 25: "on-board LED", 29: "VSYS/3 sense (ADC3)"}


def pico_pin(gpio):
    """Physical Pico pin of GPIO `gpio` (None: not on the header)."""
    return _GPIO_PIN.get(gpio)


def board_names():
    return sorted(f[:-3] for f in os.listdir(BOARDS_DIR) if f.endswith(".py") and not f.startswith("_"))


class Board:
    """The description's fields plus its game's sites."""

    def __init__(self, mod, source):
        self.source = source
        self.name = mod.NAME
        self.game = games.load(mod.GAMES[0])
        self.n_sites = mod.N_SITES
        self.site_names = tuple(self.game.SITE_NAMES[:self.n_sites])
        self.site_xy = tuple(self.game.site_xy(i) for i in range(self.n_sites))
        self.row_pins = tuple(mod.ROW_PINS)
        self.col_pins = tuple(mod.COL_PINS)
        self.matrix_cell = bytes(mod.MATRIX_CELL)
        self.button_names = tuple(mod.BUTTON_NAMES)
        self.button_pins = tuple(mod.BUTTON_PINS)
        self.led_pin = mod.LED_PIN
        self.n_status = mod.N_STATUS
        self.n_leds = mod.N_LEDS
        self.led_chain = bytes(mod.LED_CHAIN)
        self.buzzer_pin = getattr(mod, "BUZZER_PIN", None)
        self.led_ma_per_channel = mod.LED_MA_PER_CHANNEL
        self.led_idle_ma = mod.LED_IDLE_MA
        self.board_ma = mod.BOARD_MA
        self.usb_budget_ma = mod.USB_BUDGET_MA
        self.led_budget_ma = mod.LED_BUDGET_MA
        self.brightness_max = mod.BRIGHTNESS_MAX
        # The plate's other parts (plate.py; missing ones: plate.check says so).
        self.status_xy = tuple(getattr(mod, "STATUS_XY", ()))
        self.button_xy = tuple(getattr(mod, "BUTTON_XY", ()))
        self.pico_xy = getattr(mod, "PICO_XY", None)
        self.pico_usb = getattr(mod, "PICO_USB", None)

    def position(self, r, c):
        return r * len(self.col_pins) + c

    def sensing(self):
        """[(row, col, site)] for every matrix position that carries a switch
        (its site is one of the game's), in matrix order."""
        out = []
        for r in range(len(self.row_pins)):
            for c in range(len(self.col_pins)):
                p = self.position(r, c)
                if p < len(self.matrix_cell) and self.matrix_cell[p] < self.n_sites:
                    out.append((r, c, self.matrix_cell[p]))
        return out

    def slot_name(self, slot):
        """A frame slot's name: its site's, or ST<n> for status LED n."""
        if slot < self.n_sites:
            return self.site_names[slot]
        return "ST%d" % (slot - self.n_sites)


def load(name_or_path):
    """The Board of firmware/triad/boards/<name>.py, or of a file path."""
    if os.sep in name_or_path or name_or_path.endswith(".py"):
        path = name_or_path
    else:
        path = os.path.join(BOARDS_DIR, name_or_path + ".py")
        if not os.path.exists(path):
            raise ValueError("no board %r (one of %s)" % (name_or_path, ", ".join(board_names())))
    spec = importlib.util.spec_from_file_location("_hw_board_" + os.path.basename(path)[:-3], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return Board(mod, path)
