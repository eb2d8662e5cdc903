# A bench rig for the controller with any game and board description: an
# ideal (already debounced) board of the game's sites, a clock in ms and the
# LED frame, driven 10 ms per tick like the real loop. Sites by name.
from triad.board import controller as C


class Events:
    def __init__(self):
        self.seen = []

    def event(self, kind, text):
        self.seen.append((kind, text))


class SiteRig:
    def __init__(self, game, board, position, store=None):
        self.game = game
        self.events = Events()
        self.ctl = C.Controller(game, board, store, None, None, self.events)
        self.n = game.N_SITES
        self.occ = bytearray(self.n)
        self.frame = bytearray(3 * (board.N_SITES + board.N_STATUS))
        self.base = board.N_SITES
        self.now = 1000
        self.changed = 0
        self.ctl.load(position)
        self.occ[:] = self.ctl.expected
        self.wait(1000)

    def site(self, name):
        i = name if isinstance(name, int) else self.game.site_index(name)
        assert i >= 0, name
        return i

    def tick(self, button=-1):
        self.ctl.update(self.now, self.occ, self.now - self.changed, button)
        self.ctl.render(self.frame, self.now, self.occ)

    def wait(self, ms):
        end = self.now + ms
        while self.now < end:
            self.now += 10
            self.tick()

    def set(self, name, v, ms=100):
        i = self.site(name)
        if self.occ[i] != v:
            self.occ[i] = v
            self.changed = self.now
        self.wait(ms)

    def lift(self, name, ms=100):
        self.set(name, 0, ms)

    def place(self, name, ms=100):
        self.set(name, 1, ms)

    def press(self, button):
        self.now += 10
        self.tick(button * 2)

    def slot(self, slot):
        j = slot * 3
        return (self.frame[j], self.frame[j + 1], self.frame[j + 2])

    def led(self, name):
        return self.slot(self.site(name))

    def status(self, k):
        return self.slot(self.base + k)

    def colours(self, name, ms):
        """Every colour a site shows during ms (blinks included)."""
        out = []
        end = self.now + ms
        while self.now < end:
            self.wait(10)
            c = self.led(name)
            if c not in out:
                out.append(c)
        return out
