# From raw switch levels to a stable occupancy snapshot and button events.
# Pure logic: the drivers fill the raw buffers, the caller supplies `now`
# (ms ticks), so the same code runs on the board, in the simulator and in
# tests. update() and pop() run every scan and allocate nothing.
from array import array

from triad.compat import micropython, const, ptr8, ptr16, ptr32, ticks_diff, ticks_add

# Button event codes: button_index * 2 + 1 for a long press.
NO_EVENT = const(-1)
CONFIRM = const(0)
CONFIRM_LONG = const(1)
NEW = const(2)
NEW_LONG = const(3)
HINT = const(4)
HINT_LONG = const(5)
MENU = const(6)
MENU_LONG = const(7)

# The event codes above assume this order; a board description that names
# its buttons differently is rejected rather than silently remapped.
BUTTON_ORDER = ("confirm", "new", "hint", "menu")

# ticks wrap after 2**29 ms (about 6 days); an idle board must not see its
# settle time jump negative, so the age of the snapshot saturates here.
STABLE_CAP_MS = const(3600000)

_RING = const(8)
# ms: see MatrixScanner._hold
HOLD_JITTER_MS = const(3)


def event_button(ev):
    return ev >> 1


def event_is_long(ev):
    return ev & 1


class MatrixScanner:
    def __init__(self, desc, now=0):
        cmap = desc.MATRIX_CELL
        n = len(cmap)
        seen = bytearray(n)
        for m in range(n):
            c = cmap[m]
            if c >= n or seen[c]:
                raise ValueError("MATRIX_CELL is not a permutation")
            seen[c] = 1
        if desc.DEBOUNCE < 1 or desc.DEBOUNCE > 255:
            raise ValueError("DEBOUNCE out of range")
        self.n = n
        self._map = cmap
        self._limit = desc.DEBOUNCE
        # One count per matrix position (integrate_py): the readings in a
        # row that differ from the snapshot, from its end (0 open, DEBOUNCE
        # closed); the stable bit flips at the other end once the first of
        # them is _hold ms old: DEBOUNCE readings at the fastest the board
        # reads on purpose (halfway between two scans: 10 ms with 3), less
        # HOLD_JITTER_MS, how much closer the readings of a search come (a
        # knock read at 0, 5.7 and 9.1 ms on the chip, then a long slice:
        # with a hold of 10 its light came 10 ms later). So chatter whose
        # stretches are shorter than the hold on the board's ms clock (the
        # simulator's: 7 ms, from whole ms) never flips it, however often
        # read.
        self._count = bytearray(n)
        self._began = array("H", bytes(2 * n))
        hold = (self._limit - 1) * (1000 // desc.SCAN_HZ) // 2 - HOLD_JITTER_MS
        self._hold = hold if hold > 0 else 0
        self.stable = bytearray(n)
        self.changed_at = now
        # A change is dated when it would have been confirmed had the board
        # scanned on time. Each scan adds its lateness (the gap since the
        # last one less the period: a serial `position` computes for
        # ~100 ms on the RP2040 and scans nothing meanwhile; the scan after
        # a late tick, back on the loop's grid, comes early and gives it
        # back) to _lost; each switch notes
        # _lost when its integrator leaves its end (_since), and a change is
        # dated back by the lateness since then. Without it the settle time
        # of pieces set out during a long tick began only after it: the
        # board entered play a long tick later than a board that had kept
        # scanning (the CPython simulator), and every light after that ran
        # in another phase (issue 22). When every scan is on time nothing
        # is dated back: changed_at is the confirming scan's time.
        self._period = 1000 // desc.SCAN_HZ
        self._last = now
        self._lost = 0
        self._since = array("i", bytes(4 * n))
        # Scans still to come before the snapshot is debounced: every
        # integrator starts at "open", so a piece standing at power-up shows
        # only after DEBOUNCE scans. Until then the snapshot is not the
        # board's and its age is 0 (changed_at follows each scan), counted
        # from the scan that completes the debounce, not from the time the
        # scanner was made (issue 36: made at time 0 by the app, the first
        # tick found an "empty" board resting since boot, set-up completed on
        # it and a gem left standing was committed as a move).
        self._warm = self._limit
        self._lost0 = 0

    def reset(self, now):
        for i in range(self.n):
            self._count[i] = 0
            self.stable[i] = 0
        self.changed_at = now
        self._last = now
        self._warm = self._limit

    def update(self, raw, now):
        if self._warm:
            return self._first_scans(raw, now)
        # (signed: a scan that comes early, as the one after a late tick
        # does when the loop returns to its grid, gives the time back)
        lost = ticks_add(self._lost, ticks_diff(now, self._last) - self._period)
        self._lost = lost
        self._last = now
        # back: -1 when no stable bit flipped, else the least lateness since
        # a confirmed change began (0 when it began on time or later)
        back = _integrate(raw, self._count, self.stable, self._map, self.n, self._limit, self._since, lost,
                          self._began, now, self._hold)
        if back >= 0:
            self._date(back, now)
            return True
        if ticks_diff(now, self.changed_at) > STABLE_CAP_MS:
            self.changed_at = ticks_add(now, -STABLE_CAP_MS)
        return False

    def read_between(self, raw, now):
        """One more reading between two scans of the rhythm (issue 48): the
        debounce steps as in update, the rhythm's lateness is left as it
        is (this reading is not one of its scans). The App reads a switch
        that is changing once more halfway to the next scan, so a change is
        believed on its DEBOUNCE-th agreeing reading 10 ms after it was
        first seen instead of 20; and while the engine searches it reads
        the matrix whenever a scan would otherwise come late. True when a
        stable bit flipped."""
        if self._warm:
            return False
        back = _integrate(raw, self._count, self.stable, self._map, self.n, self._limit, self._since, self._lost,
                          self._began, now, self._hold)
        if back < 0:
            return False
        self._date(back, now)
        return True

    def _date(self, back, now):
        if back > 0:
            at = ticks_add(now, -back)
            if ticks_diff(at, self.changed_at) > 0:
                self.changed_at = at  # (never before a change already dated)
        else:
            self.changed_at = now

    def unsettled(self):
        """True while some switch's count is between its ends: a reading
        differed from the snapshot and the debounce has not yet believed
        or dismissed it."""
        return bool(_mid(self._count, self.n, self._limit))

    def _first_scans(self, raw, now):
        # The first DEBOUNCE scans: time starts at the first reading (no
        # lateness before it), the snapshot's age stays 0 until the last of
        # them has debounced every switch, and that scan is dated as if
        # every scan since the first had come on time (as update dates a
        # change: a boot or a command that held up a scan costs no settle).
        if self._warm == self._limit:
            self._last = ticks_add(now, -self._period)
            self._lost0 = self._lost
        self._warm -= 1
        lost = ticks_add(self._lost, ticks_diff(now, self._last) - self._period)
        self._lost = lost
        self._last = now
        # (no hold: a piece standing at power-up shows after these scans,
        # however close together they come)
        back = _integrate(raw, self._count, self.stable, self._map, self.n, self._limit, self._since, lost,
                          self._began, now, 0)
        late = ticks_diff(lost, self._lost0) if not self._warm else 0
        self.changed_at = ticks_add(now, -late) if late > 0 else now
        return back >= 0

    def stable_for(self, now):
        """ms since the stable snapshot last changed (saturates at STABLE_CAP_MS)."""
        return ticks_diff(now, self.changed_at)


def integrate_py(raw, count, stable, cmap, n, limit, since, lost, began, now, hold):
    """The scan's integrators, one step (the plain twin of _integrate,
    which tests/fw/test_tick_fast_paths.py holds it equal to): a reading
    that differs from stable[cmap[m]] moves count[m] one towards its end
    (0 open, limit closed); a reading that agrees sends it back to the
    stable end, so only `limit` differing readings in a row count. At the
    end the stable bit flips only when the first of those readings is at
    least `hold` ms old (began[m], ms modulo 2**16); before that count[m]
    waits a step short of its end. A reed that chatters (a knocked piece,
    a neighbour taken off) flips for a few ms at a time: however often the
    board reads it, it never flips the snapshot (issue 47; the readings
    between the scans of issue 48 are 5 ms apart or closer, and an
    integrator that summed them let 40 ms of chatter through).
    since[m] notes the running lateness `lost` when the differing readings
    begin. -1 when no stable bit flipped, else the least lateness since a
    flipped switch's change began (at least 0): how far back the change is
    dated (MatrixScanner)."""
    back = -1
    for m in range(n):
        c = count[m]
        if raw[m]:
            if c < limit:
                cell = cmap[m]
                if c == 0:
                    since[m] = lost  # (closed, the snapshot open: a change begins)
                    began[m] = now & 0xFFFF
                elif stable[cell]:
                    count[m] = limit  # (closed as the snapshot says: the opening did not hold)
                    continue
                c += 1
                if c == limit:
                    if ((now - began[m]) & 0xFFFF) < hold:
                        c = limit - 1  # (held too briefly yet)
                    else:
                        stable[cell] = 1
                        b = max(0, ticks_diff(lost, since[m]))
                        if back < 0 or b < back:
                            back = b
                count[m] = c
        elif c:
            cell = cmap[m]
            if c == limit:
                since[m] = lost  # (open, the snapshot closed: a change begins)
                began[m] = now & 0xFFFF
            elif not stable[cell]:
                count[m] = 0  # (open as the snapshot says: the closing did not hold)
                continue
            c -= 1
            if c == 0:
                if ((now - began[m]) & 0xFFFF) < hold:
                    c = 1
                else:
                    stable[cell] = 0
                    b = max(0, ticks_diff(lost, since[m]))
                    if back < 0 or b < back:
                        back = b
            count[m] = c
    return back


@micropython.viper
def _integrate(raw, count, stable, cmap, n: int, limit: int, since, lost: int, began, now: int, hold: int) -> int:
    """integrate_py in viper: it runs every tick over every switch (as
    native code 0.24-0.61 ms of a tick on the emulated chip). The ticks'
    difference is taken modulo 2**30 (the RP2040's ticks period, and
    triad.compat's): lateness since a change began is small, so a port
    with a longer period (64-bit unix) gives the same difference; the
    hold's, modulo 2**16 (2**30 is a multiple: the same across a wrap)."""
    r = ptr8(raw)
    cnt = ptr8(count)
    st = ptr8(stable)
    mp = ptr8(cmap)
    sn = ptr32(since)
    bg = ptr16(began)
    back = -1
    m = 0
    while m < n:
        c = cnt[m]
        if r[m]:
            if c < limit:
                cell = mp[m]
                if c == 0:
                    sn[m] = lost
                    bg[m] = now & 0xFFFF
                    c = 1
                elif st[cell]:
                    c = limit + 1  # (snap back: below)
                else:
                    c += 1
                if c > limit:
                    cnt[m] = limit
                else:
                    if c == limit:
                        if ((now - bg[m]) & 0xFFFF) < hold:
                            c = limit - 1
                        else:
                            st[cell] = 1
                            b = ((lost - sn[m] + 0x20000000) & 0x3FFFFFFF) - 0x20000000
                            if b < 0:
                                b = 0
                            if back < 0 or b < back:
                                back = b
                    cnt[m] = c
        elif c:
            cell = mp[m]
            if c == limit:
                sn[m] = lost
                bg[m] = now & 0xFFFF
                c -= 1
            elif st[cell] == 0:
                c = -1  # (snap back: below)
            else:
                c -= 1
            if c < 0:
                cnt[m] = 0
            else:
                if c == 0:
                    if ((now - bg[m]) & 0xFFFF) < hold:
                        c = 1
                    else:
                        st[cell] = 0
                        b = ((lost - sn[m] + 0x20000000) & 0x3FFFFFFF) - 0x20000000
                        if b < 0:
                            b = 0
                        if back < 0 or b < back:
                            back = b
                cnt[m] = c
        m += 1
    return back


def mid_py(count, n, limit):
    """1 when some count[m] is strictly between 0 and limit, else 0 (the
    plain twin of _mid, held equal in tests/fw/test_tick_fast_paths.py)."""
    for m in range(n):
        c = count[m]
        if 0 < c < limit:
            return 1
    return 0


@micropython.viper
def _mid(count, n: int, limit: int) -> int:
    """mid_py in viper: it runs after every tick."""
    x = ptr8(count)
    m = 0
    while m < n:
        c = x[m]
        if c > 0 and c < limit:
            return 1
        m += 1
    return 0


@micropython.viper
def _any_set(a, b, n: int) -> int:
    """1 when a[i] or b[i] is not zero for some i < n, else 0."""
    x = ptr8(a)
    y = ptr8(b)
    i = 0
    while i < n:
        if x[i] or y[i]:
            return 1
        i += 1
    return 0


class Buttons:
    def __init__(self, desc, now=0):
        names = desc.BUTTON_NAMES
        n = len(names)
        if n > len(BUTTON_ORDER) or len(desc.BUTTON_PINS) != n:
            raise ValueError("bad BUTTON_NAMES / BUTTON_PINS")
        for i in range(n):
            if names[i] != BUTTON_ORDER[i]:
                raise ValueError("button %d must be %s" % (i, BUTTON_ORDER[i]))
        self.n = n
        self._limit = desc.BUTTON_DEBOUNCE
        self._long_ms = desc.LONG_PRESS_MS
        self._count = bytearray(n)
        self.pressed = bytearray(n)  # debounced state, 1 = held
        self._long_sent = bytearray(n)
        self._down_at = [now] * n  # small ints: stored without allocating
        self._ring = bytearray(_RING)
        self._head = 0
        self._len = 0

    def _push(self, ev):
        ring = self._ring
        if self._len == _RING:
            # Full means nobody has polled for a while; the newest press is
            # what the player means now, so the oldest one goes.
            self._head = (self._head + 1) % _RING
            self._len -= 1
        ring[(self._head + self._len) % _RING] = ev
        self._len += 1

    def update(self, raw, now):
        # No button down and none counting: nothing can change (a held
        # button has a count above 0), and the tick skips the loop below
        # (0.1 ms of every tick on the emulated chip).
        if _any_set(raw, self._count, self.n):
            self._update(raw, now)

    @micropython.native
    def _update(self, raw, now):
        count = self._count
        pressed = self.pressed
        limit = self._limit
        for i in range(self.n):
            c = count[i]
            if raw[i]:
                if c < limit:
                    c += 1
                    count[i] = c
                    if c == limit and not pressed[i]:
                        pressed[i] = 1
                        self._down_at[i] = now
                        self._long_sent[i] = 0
            elif c:
                c -= 1
                count[i] = c
                if c == 0 and pressed[i]:
                    pressed[i] = 0
                    if not self._long_sent[i]:
                        self._push(i * 2)
            if pressed[i] and not self._long_sent[i]:
                if ticks_diff(now, self._down_at[i]) >= self._long_ms:
                    self._long_sent[i] = 1
                    self._push(i * 2 + 1)

    def pop(self):
        """Oldest pending event code, or NO_EVENT."""
        if not self._len:
            return NO_EVENT
        ev = self._ring[self._head]
        self._head = (self._head + 1) % _RING
        self._len -= 1
        return ev

    def clear(self):
        self._head = 0
        self._len = 0
