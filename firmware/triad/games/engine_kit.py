# The plumbing every game's engine shares, written once: the random
# numbers, the clock stand-in, the levels, the search's per-move state and
# the preamble of choose (budget, deadline, a blunder, root noise), and the
# perft walk of a rules core. Nothing here knows a game: an engine subclasses
# EngineBase and names its LEVELS and what a level sets (_apply_level); a
# core hands perft its Position (gen/make/unmake, and count for the last
# ply when it can count turns without writing them).
#
# Pure: no hardware, no time (the clock is a callable the caller passes);
# nothing is allocated per node; every int stays below 2**30 (small ints on
# the RP2040).
from array import array

from triad.compat import const, ticks_add, ticks_diff

MASK30 = const(0x3FFFFFFF)
_SEED0 = const(0x2545F49)
# The engines' score scale: INF beyond any score, WIN_BOUND beyond which a
# score is a won or lost game (found by the search, so it stops deepening).
INF = const(30000)
WIN_BOUND = const(19000)
CHECK_EVERY = const(15)  # _node: the node budget when (nodes & CHECK_EVERY) == 0
# From this level up a turn that wins the game at once is always played
# (issue 35: a level 4 that let a win in one go by looked broken); below it
# the levels' random turns may miss one, as a beginner would.
WIN_LEVEL = const(3)
WIN_TICK = const(7)  # the win scan reads the clock when (i & WIN_TICK) == 0


def no_clock():
    """The clock of an engine that is not searching (always 0 ms)."""
    return 0


class Rng:
    """xorshift on 30 bits, every intermediate value below 2**30 (a period
    long enough for noise and blunders)."""

    def __init__(self, seed=1):
        self.x = (seed & MASK30) or _SEED0

    def next(self):
        x = self.x
        x ^= (x & 0x1FFFF) << 13
        x ^= x >> 17
        x ^= (x & 0x3FFFFFF) << 4
        x &= MASK30
        if not x:
            x = _SEED0
        self.x = x
        return x

    def below(self, n):
        return self.next() % n


class EngineBase:
    """What the face's engines have in common (the board's player calls
    set_level, history_keys and choose; bench and tests read depth, nodes,
    score). A subclass sets LEVELS (index 1..5; entry 0 unused) and
    _apply_level(entry), and calls _begin at the top of choose."""

    # No repetition rule unless the game's engine says so: the board's
    # player need not rebuild the game's start position for history_keys.
    uses_history = False
    LEVELS: tuple = ()  # each engine's own entries (tuples of its level's knobs)
    LEVEL_FIELDS: tuple = ()  # the attribute each place of a LEVELS entry sets
    # What _apply_level sets; none until it has (mypy reads them here).
    # _node reads the clock when (nodes & CLOCK_MASK) == 0: every node (0),
    # or every second, fourth... node for an engine whose nodes cost a
    # fraction of the board's clock read (a tick's check on the chip).
    CLOCK_MASK = 0
    max_depth = 0  # iterative deepening's last depth
    blunder = 0  # chance in 256 of a random root turn
    noise = 0  # root noise, 0..noise points a turn
    # A game review's own mark (triad/board/review.py, issue 46): a turn
    # whose value falls REVIEW_MARGIN points or more below the engine's best
    # is marked REVIEW_KIND; "" for none (scores that do not compare across
    # turns: Browne's paranoid search of three seats).
    REVIEW_KIND = ""
    REVIEW_MARGIN = 0

    def _init_kit(self, level, seed):
        self.rng = Rng(seed)
        self.now_ms = no_clock
        self.deadline = 0
        self.max_nodes = 0
        self.stop = False
        self.nodes = 0
        self.depth = 0
        self.score = 0
        self.best = 0
        self.set_level(level)

    def set_level(self, level):
        """Level 1 (beginner) .. 5 (strongest); out-of-range levels clamp."""
        if level < 1:
            level = 1
        if level > 5:
            level = 5
        self.level = level
        self._apply_level(self.LEVELS[level])

    def _apply_level(self, lv):
        """Set the level's knobs: LEVEL_FIELDS names them in the order of
        a LEVELS entry (not per node: setattr is fine here)."""
        for name, v in zip(self.LEVEL_FIELDS, lv):
            setattr(self, name, v)

    def seed(self, n):
        """Restart the engine's random numbers (noise, blunders) from n."""
        self.rng = Rng(n)

    def history_keys(self, start, moves):
        """No repetition rule: nothing to pass to choose."""
        return []

    def _begin(self, now_ms, budget_ms, max_nodes):
        """choose's preamble: the clock, a fresh search state, the deadline
        budget_ms (at least 1) from now. Returns the time read (t0)."""
        self.now_ms = now_ms
        if budget_ms < 1:
            budget_ms = 1
        t0 = now_ms()
        self.deadline = ticks_add(t0, budget_ms)
        self.max_nodes = max_nodes
        self.stop = False
        self.nodes = 0
        self.depth = 0
        self.score = 0
        self.best = 0
        return t0

    def _past(self):
        """Read the clock (on the board: the scan loop's tick) and say
        whether the time is up; then the search stops."""
        if ticks_diff(self.now_ms(), self.deadline) >= 0:
            self.stop = True
        return self.stop

    def _node(self):
        """Count a node and say whether the search stops: the node budget
        (looked at every CHECK_EVERY + 1 nodes) or the time. The clock every
        node (every CLOCK_MASK + 1): on the board a node costs up to
        milliseconds of bytecode, and each clock read lends the scan loop
        its tick (board/thinker.py)."""
        n = self.nodes + 1
        self.nodes = n
        if (n & CHECK_EVERY) == 0 and self.max_nodes and n >= self.max_nodes:
            self.stop = True
        elif (n & self.CLOCK_MASK) == 0 and ticks_diff(self.now_ms(), self.deadline) >= 0:
            self.stop = True
        return self.stop

    def _deepen(self, depth, end):
        """Iterative deepening: self._root(d, end) for d from depth to
        max_depth, keeping the score and depth of each iteration that
        searched a turn (an unfinished one too: its best came first); stops
        at the budget or a forced result (deeper will not change it)."""
        while depth <= self.max_depth:
            sc = self._root(depth, end)
            if sc != -INF:
                self.score = sc
                self.depth = depth
            if self.stop or sc >= WIN_BOUND or sc <= -WIN_BOUND:
                break
            depth += 1

    def _root(self, depth, end):
        raise NotImplementedError

    def _wins(self, m):
        """Whether turn m of self.pos ends the game won by its mover (an
        engine whose levels take a win in one by _take_win says how)."""
        return False

    def _take_win(self, buf, start, end):
        """At WIN_LEVEL and above, the first turn of buf[start:end] that
        wins at once (self._wins), also self.best; else 0. Before the
        level's random turn and the search, so neither can pass a win by.
        Counts no nodes (a node budget measures the search, and a scan is
        cheaper than the depth-one pass that would find the win anyway),
        reads the clock every WIN_TICK + 1 turns (the board ticks from it)
        and stops at the deadline."""
        if self.level < WIN_LEVEL:
            return 0
        i = start
        while i < end:
            m = buf[i]
            if self._wins(m):
                self.best = m
                return m
            i += 1
            if (i & WIN_TICK) == 0 and self._past():
                return 0  # (the search after it stops at once: self.stop)
        return 0

    def _blunder_pick(self, buf, start, end):
        """With the level's chance (blunder / 256) a random turn of
        buf[start:end] (also self.best), else 0."""
        if self.blunder and self.rng.below(256) < self.blunder:
            self.best = buf[start + self.rng.below(end - start)]
            return self.best
        return 0

    def _fill_noise(self, noise, start, end):
        """noise[start:end]: the level's root noise, 0..noise points each."""
        amp = self.noise
        rng = self.rng
        for i in range(start, end):
            noise[i] = rng.below(amp + 1) if amp else 0


def sort2(buf, order, extra, start, end):
    """sort, carrying extra[] along with buf[] and order[]."""
    i = start + 1
    while i < end:
        m = buf[i]
        o = order[i]
        x = extra[i]
        j = i - 1
        while j >= start and order[j] < o:
            buf[j + 1] = buf[j]
            order[j + 1] = order[j]
            extra[j + 1] = extra[j]
            j -= 1
        buf[j + 1] = m
        order[j + 1] = o
        extra[j + 1] = x
        i += 1


def sort(buf, order, start, end):
    """Stable insertion sort of buf[start:end] by order, highest first
    (sort2 with order carried as its own extra: the same moves)."""
    sort2(buf, order, order, start, end)


def swap3(a, b, c, i, j):
    """Exchange place i and place j of three parallel arrays."""
    x = a[i]
    a[i] = a[j]
    a[j] = x
    x = b[i]
    b[i] = b[j]
    b[j] = x
    x = c[i]
    c[i] = c[j]
    c[j] = x


def to_front(buf, noise, i, start=0):
    """Move buf[i] (and noise[i] with it) to buf[start], the ones between
    one place on: the root's best first, the rest in their order."""
    m = buf[i]
    b = noise[i]
    while i > start:
        buf[i] = buf[i - 1]
        noise[i] = noise[i - 1]
        i -= 1
    buf[start] = m
    noise[start] = b


class MoveStack:
    """Preallocated move buffer shared by the plies of a perft or search:
    width move slots per ply."""

    def __init__(self, width, plies):
        self.buf = array("i", bytes(4 * width * plies))


def perft(pos, depth, buf, start=0):
    """Leaf count of pos's move tree at depth (a finished game has none),
    every turn written by pos.gen into buf from start (width x depth slots);
    the last ply asks pos.count(buf, start) when the core has it (bulk
    counting: the turns are counted, not written). Allocates nothing below
    this call."""
    if depth <= 0:
        return 1
    return _walk(pos, depth, buf, start, hasattr(pos, "count"))


def face_perft(width):
    """The face's perft(pos, depth) for a core whose gen writes at most
    width turns: perft above, its buffer kept for the next call and grown
    only when a deeper call needs more (perft.py's divide calls it once per
    root turn; a fresh buffer each time would fragment the board's heap).
    With bulk counting the last ply writes nothing, so depth - 1 plies of
    width."""
    held = [array("i")]  # empty until the first call

    def face_perft_(pos, depth):
        if depth <= 0:
            return 1
        plies = depth - 1 if hasattr(pos, "count") else depth
        need = width * plies + 1
        if len(held[0]) < need:
            held[0] = array("i")  # the old one is garbage before the new one is made
            held[0] = array("i", bytes(4 * need))
        return perft(pos, depth, held[0])

    return face_perft_


def _walk(pos, depth, buf, start, bulk):
    if depth == 1:
        if bulk:
            return pos.count(buf, start)
        return pos.gen(buf, start) - start
    end = pos.gen(buf, start)
    total = 0
    i = start
    while i < end:
        m = buf[i]
        pos.make(m)
        total += _walk(pos, depth - 1, buf, end, bulk)
        pos.unmake(m)
        i += 1
    return total
