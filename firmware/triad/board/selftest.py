# Matrix self-test for builders: every cell lights while its switch is
# closed, so walking a die (or a magnet) over the board shows each reed
# switch, each diode and each LED at once. Cells that have worked stay
# faintly green, cells not yet seen closed glow faintly blue, and a cell that
# has been closed since the test began without ever opening (a stuck or
# shorted switch, or a wrong diode making a phantom) blinks red. Status LEDs
# step through red, green, blue and white so every channel of them is seen.
# update()/render() run every tick and allocate nothing; report() builds a
# short text for the serial console when the test ends.
from triad.compat import const, ticks_diff

STUCK_MS = const(10000)
_BLINK_MS = const(250)
_STATUS_STEP_MS = const(1000)

CLOSED = (255, 255, 255)
TESTED = (0, 40, 0)
UNTESTED = (0, 0, 40)
STUCK = (255, 0, 0)
_STATUS_CYCLE = ((80, 0, 0), (0, 80, 0), (0, 0, 80), (80, 80, 80))

def _put(frame, slot, rgb):
    i = slot * 3
    frame[i] = rgb[0]
    frame[i + 1] = rgb[1]
    frame[i + 2] = rgb[2]


class SelfTest:
    def __init__(self, names, n_buttons=4, stuck_ms=STUCK_MS):
        # names: the game's site names (their count is the number of switches).
        n_cells = len(names)
        self.names = names
        self.n = n_cells
        self.stuck_ms = stuck_ms
        self.closed = bytearray(n_cells)  # current snapshot copy
        self.ever_closed = bytearray(n_cells)
        self.ever_open = bytearray(n_cells)  # seen open since the test began
        self.buttons = bytearray(n_buttons)
        self.started = False
        self.start_at = 0
        self.now = 0

    def update(self, occ, now):
        if not self.started:
            self.started = True
            self.start_at = now
        self.now = now
        for c in range(self.n):
            v = occ[c]
            self.closed[c] = v
            if v:
                self.ever_closed[c] = 1
            else:
                self.ever_open[c] = 1

    def note_button(self, ev):
        """Record a button event code (board.scan): index * 2 + long."""
        b = ev >> 1
        if 0 <= b < len(self.buttons):
            self.buttons[b] = 1

    def elapsed(self):
        return ticks_diff(self.now, self.start_at) if self.started else 0

    def is_stuck(self, cell):
        return (self.started and self.closed[cell] and not self.ever_open[cell]
                and self.elapsed() >= self.stuck_ms)

    def render(self, frame, now):
        blink = (now // _BLINK_MS) & 1
        for c in range(self.n):
            if self.is_stuck(c):
                _put(frame, c, STUCK if blink else UNTESTED)
            elif self.closed[c]:
                _put(frame, c, CLOSED)
            elif self.ever_closed[c]:
                _put(frame, c, TESTED)
            else:
                _put(frame, c, UNTESTED)
        rgb = _STATUS_CYCLE[(now // _STATUS_STEP_MS) % len(_STATUS_CYCLE)]
        for slot in range(self.n, len(frame) // 3):
            _put(frame, slot, rgb)

    def never_closed(self):
        return [c for c in range(self.n) if not self.ever_closed[c]]

    def stuck(self):
        return [c for c in range(self.n) if self.is_stuck(c)]

    def report(self):
        never = self.never_closed()
        stuck = self.stuck()
        parts = ["%ds: %d/%d switches closed" % (
            self.elapsed() // 1000, self.n - len(never), self.n)]
        if never:
            parts.append("never closed: " + " ".join(self.names[c] for c in never))
        if stuck:
            parts.append("stuck: " + " ".join(self.names[c] for c in stuck))
        if any(self.buttons):
            from triad.board.scan import BUTTON_ORDER

            missing = [BUTTON_ORDER[b] for b in range(len(self.buttons))
                       if not self.buttons[b]]
            if missing:
                parts.append("buttons never pressed: " + " ".join(missing))
        if not never and not stuck:
            parts.append("all switches OK")
        return "; ".join(parts)
