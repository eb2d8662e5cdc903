# The board's firmware loop (triad.app.App: controller, protocol, settings,
# saved game) under the MicroPython unix port, with the real USB serial
# driver (triad.drivers.usb_serial over stdin/stdout) and stand-in switches
# and LEDs. Tests talk the line protocol to it over a pipe.
#
#   MICROPYPATH=firmware micropython tests/unixboard.py HANDS_FILE [SEED]
#
# Run it in the folder that is the board's flash (settings.txt, game.*).
# Physical actions come through HANDS_FILE, a file the test appends lines
# to (a second channel, so the serial line carries only the protocol):
#   lift <cell> | place <cell> | press <button> [long] | wait <ms> | match
# ("match": every die stands where the game expects it). Time is virtual:
# each loop turn is one 10 ms tick of the board.
import sys
import time

from triad import boards
from triad.app import App
from triad.drivers.usb_serial import UsbSerial

BUTTONS = ("confirm", "new", "hint", "menu")
desc = boards.ACTIVE


def cell_index(name):
    return (ord(name[1]) - 49) * 6 + ord(name[0]) - 97


class World:
    def __init__(self):
        self.occ = bytearray(36)
        self.levels = bytearray(len(desc.BUTTON_PINS))
        self.cmap = desc.MATRIX_CELL


class Matrix:
    def __init__(self, world):
        self.w = world

    def read_into(self, raw):
        occ = self.w.occ
        cmap = self.w.cmap
        for m in range(len(cmap)):
            raw[m] = occ[cmap[m]]


class ButtonPins:
    def __init__(self, world):
        self.w = world

    def read_into(self, levels):
        levels[:] = self.w.levels


class Leds:
    def __init__(self):
        self.brightness = desc.BRIGHTNESS_DEFAULT
        self.frame = None

    def set_brightness(self, b):
        self.brightness = max(0, min(desc.BRIGHTNESS_MAX, b))

    def show(self, frame):
        self.frame = frame


class Hardware:
    def __init__(self, world):
        self.matrix = Matrix(world)
        self.buttons = ButtonPins(world)
        self.leds = Leds()


class Hands:
    """Reads actions appended to the hands file; 'wait' and presses hold the
    next action back for some board time."""

    def __init__(self, path, world):
        self.f = open(path, "rb")
        self.buf = b""
        self.world = world
        self.until = 0
        self.release = -1

    def step(self, now, app):
        if now < self.until:
            return
        if self.release >= 0:
            self.world.levels[self.release] = 0
            self.release = -1
        data = self.f.read()
        if data:
            self.buf += data
        while b"\n" in self.buf and now >= self.until:
            i = self.buf.index(b"\n")
            line = self.buf[:i].decode().strip()
            self.buf = self.buf[i + 1:]
            if line:
                self.do(line, now, app)

    def do(self, line, now, app):
        w = line.split()
        occ = self.world.occ
        if w[0] == "lift":
            occ[cell_index(w[1])] = 0
        elif w[0] == "place":
            occ[cell_index(w[1])] = 1
        elif w[0] == "match":
            occ[:] = app.ctl.expected
        elif w[0] == "wait":
            self.until = now + int(w[1])
        elif w[0] == "press":
            b = BUTTONS.index(w[1])
            self.world.levels[b] = 1
            self.release = b
            self.until = now + (1000 if len(w) > 2 else 100)
        else:
            sys.stderr.write("hands: unknown action %s\n" % line)


def main():
    hands_path = sys.argv[1]
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    world = World()
    app = App(desc, Hardware(world), UsbSerial(), seed)
    hands = Hands(hands_path, world)
    now = 1000
    while True:
        hands.step(now, app)
        app.tick(now)
        now += 10
        time.sleep_ms(1)


try:
    main()
except Exception as e:
    # MicroPython's unix port prints an uncaught exception on stdout, where
    # the link takes it for protocol noise: the test saw an exit with no
    # traceback (issue 35.13). It goes to stderr, which the tests read.
    sys.print_exception(e, sys.stderr)
    sys.exit(1)
