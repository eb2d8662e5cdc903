# A bench rig for the controller: an ideal (already debounced) board, a
# clock in ms and an LED frame, driven 10 ms per tick like the real loop.
from triad.board import controller as C
from triad.boards import pico_v1
from triad.games import load
from triad.games.nehren import notation

GAME = load("nehren")
FRAME_BYTES = 3 * (pico_v1.N_SITES + pico_v1.N_STATUS)


def cell(name):
    return (int(name[1]) - 1) * 6 + ord(name[0]) - 97


class Events:
    def __init__(self):
        self.seen = []

    def event(self, kind, text):
        self.seen.append((kind, text))

    def kinds(self):
        return [k for k, _ in self.seen]


class Rig:
    def __init__(self, position=None, store=None, rolls=None, settings=None):
        self.events = Events()
        self.rolls = list(rolls or [])
        self.ctl = C.Controller(GAME, pico_v1, store, settings, self._roll, self.events)
        self.occ = bytearray(36)
        self.now = 1000
        self.changed = 0
        self.frame = bytearray(FRAME_BYTES)
        if position:
            self.ctl.load(position)
            self.occ[:] = self.ctl.expected
            self.wait(1000)

    def _roll(self):
        return self.rolls.pop(0) if self.rolls else 2

    def set(self, name, v):
        i = cell(name)
        if self.occ[i] != v:
            self.occ[i] = v
            self.changed = self.now

    def lift(self, name, ms=100):
        self.set(name, 0)
        self.wait(ms)

    def place(self, name, ms=100):
        self.set(name, 1)
        self.wait(ms)

    def move(self, fr, to, ms=1500):
        self.lift(fr)
        self.place(to, ms)

    def tick(self, button=-1):
        self.ctl.update(self.now, self.occ, self.now - self.changed, button)
        self.ctl.render(self.frame, self.now, self.occ)

    def wait(self, ms):
        end = self.now + ms
        while self.now < end:
            self.now += 10
            self.tick()

    def press(self, button, long=False):
        self.now += 10
        self.tick(button * 2 + (1 if long else 0))

    def led(self, name):
        j = cell(name) * 3
        return (self.frame[j], self.frame[j + 1], self.frame[j + 2])

    def status(self, slot):
        j = (36 + slot) * 3
        return (self.frame[j], self.frame[j + 1], self.frame[j + 2])

    def leds_over(self, name, ms):
        """Every colour a cell shows during ms (blinks included)."""
        seen = []
        end = self.now + ms
        while self.now < end:
            self.now += 10
            self.tick()
            c = self.led(name)
            if c not in seen:
                seen.append(c)
        return seen

    def moves(self):
        return self.ctl.record.moves_text()

    def position(self):
        return notation.format_position(self.ctl.pos)
