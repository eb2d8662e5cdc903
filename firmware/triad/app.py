# The board's main loop: switches -> debounced snapshot -> controller ->
# LED frame, at a steady rate, plus the serial console. The same code runs
# on the Pico and, over simulated machine/neopixel modules, in the simulator.
import random
import time

from triad.compat import ticks_add, ticks_diff
from triad.board.scan import MatrixScanner, Buttons
from triad.board.controller import Controller, FRAME_BYTES
from triad.board.protocol import Protocol
from triad.board.store import GameStore, Settings

# note2_triads: the Note 2 Triad rule option, kept and reported over the
# serial protocol (set note2-triads on|off); the rules core reads it later.
SETTING_DEFAULTS = {"brightness": 64, "next_start": 0, "note2_triads": 0}


class App:
    def __init__(self, desc, hw, serial, seed, root=""):
        self.desc = desc
        self.hw = hw
        self.serial = serial
        self.scanner = MatrixScanner(desc)
        self.buttons = Buttons(desc)
        self.raw = bytearray(36)
        self.levels = bytearray(len(desc.BUTTON_PINS))
        self.frame = bytearray(FRAME_BYTES)
        self.shown = bytearray(FRAME_BYTES)
        self.period_ms = 1000 // desc.SCAN_HZ
        random.seed(seed)
        self.settings = Settings(root, SETTING_DEFAULTS)
        self.store = GameStore(root)
        self.protocol = Protocol(None, serial.write, self.settings, self._apply_setting)
        self.ctl = Controller(self.store, self.settings, _roll, self.protocol)
        self.protocol.ctl = self.ctl
        self.ctl.next_start = self.settings.get("next_start") & 1
        hw.leds.set_brightness(self.settings.get("brightness"))
        self.errors = 0
        if not self.ctl.load_saved():
            self.ctl.new_game()
        # Show the first frame at once, whatever it is.
        self.shown[0] = 1

    def tick(self, now):
        hw = self.hw
        hw.matrix.read_into(self.raw)
        self.scanner.update(self.raw, now)
        hw.buttons.read_into(self.levels)
        self.buttons.update(self.levels, now)
        ev = self.buttons.pop()
        stable = self.scanner.stable
        self.ctl.update(now, stable, self.scanner.stable_for(now), ev)
        self.ctl.render(self.frame, now, stable)
        if self.frame != self.shown:
            hw.leds.show(self.frame)
            self.shown[:] = self.frame
        self.protocol.poll()
        data = self.serial.read()
        if data:
            self.protocol.feed(data)

    def _apply_setting(self, name, value):
        """A setting changed over the serial line: put it in effect now and
        return the value in effect (the LED driver caps the brightness)."""
        if name == "brightness":
            leds = self.hw.leds
            leds.set_brightness(value)
            return getattr(leds, "brightness", value)
        return value

    def run(self):
        next_tick = time.ticks_ms()
        while True:
            try:
                self.tick(time.ticks_ms())
            except Exception as e:  # keep scanning: a bug must not brick a game
                self.errors += 1
                self.serial.write("evt error internal %s %s\n" % (type(e).__name__, e))
            next_tick = ticks_add(next_tick, self.period_ms)
            wait = ticks_diff(next_tick, time.ticks_ms())
            if wait > 0:
                time.sleep_ms(wait)
            else:
                next_tick = time.ticks_ms()


def _roll():
    return random.randint(1, 3)


def main():
    from triad import boards
    from triad.drivers import entropy, rp2, usb_serial

    desc = boards.ACTIVE
    App(desc, rp2.Hardware(desc), usb_serial.UsbSerial(), entropy.seed()).run()
