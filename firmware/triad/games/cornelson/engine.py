# Searching engine for Don Cornelson's TRIAD: iterative deepening negamax
# with alpha-beta over a selective move list, a cheap evaluation and time +
# node budgets. Pure: the clock is a callable passed in (time.ticks_ms on the
# board); nothing is allocated per node (every table lives in arrays made by
# the constructor); every int stays below 2**30.
#
#   eng = Engine(level=5)
#   m = eng.choose(pos, budget_ms, now_ms, keys, max_nodes)  # a turn, 0 if over
#   eng.depth, eng.nodes, eng.score                          # the last search
#
# A turn is a placement times a jewel step set (up to 37 x 27 of them), too
# many to search every one below the root. So:
# - the root searches every legal turn (core.Position.gen) one ply deep
#   (make, evaluate, unmake: exact for wins in one and for any reply the
#   evaluation sees, such as a breach in one left open), statically best
#   first; deeper iterations search only its best ROOT_BEAM turns;
# - below the root the candidates are built from their two halves: the
#   placements are scored one by one (captures, Barriers made on the
#   opponent's jewels' exits and on its own docks, blocking the opponent's
#   Barriers) and the step sets one by one (breach, progress to the
#   opponent's docks, standing on an opponent jewel's last exits), and the
#   best few of each are paired, best sums first. The pairing follows
#   core.Position.gen exactly (a placement whose captures open a Barrier in
#   the mover's way gets its own step sets; one that wins by Capture is the
#   placement alone), so every candidate is a legal turn.
# The evaluation (side to move's view): a breach open to the side to move
# (or, late in the game, enough captures for 10) is a win next turn; else
# tally difference, each jewel's progress toward the opponent's docks, its
# open exits (a jewel of the side that just moved with one exit left is in
# danger of a Trap), breach threats the side to move must answer, Barriers on
# each side's own dock borders, and jewels left in play (breach game).
#
# The mode is the position's rule bits: without RULE_BREACH progress counts
# nothing (docks are shut), without RULE_TRAP a trapped jewel is only lost,
# without RULE_JEWELS only gems and tallies count.
from array import array

from triad.compat import MICROPYTHON, const, micropython, ptr16, ptr32, ticks_add, ticks_diff
from triad.games.cornelson import core
from triad.games.cornelson import geometry as g

INF = const(30000)
WIN = const(20000)  # a win at ply p scores WIN - p
WIN_BOUND = const(19000)
MAX_PLY = const(12)  # far below core.RING (64): unmake stays exact
CHECK_EVERY = const(15)  # look at the clock when (nodes & CHECK_EVERY) == 0
MAX_CANDS = const(24)  # candidate turns per ply below the root
ROOT_BEAM = const(32)  # root turns searched beyond depth 1
MASK30 = const(0x3FFFFFFF)
BIG = const(10000)  # ordering score of a win

_NONE = const(255)
_NO_POST = const(63)
_STUCK = const(1 << 20)
_RULE_BREACH = const(1)
_RULE_TRAP = const(2)
_RULE_CAPTURE = const(4)
_RULE_JEWELS = const(8)

# level: (max depth, placements x step sets paired below the root, root
# noise in points, chance in 1/256 of a random turn instead)
LEVELS = (
    (1, 3, 3, 0, 0),
    (1, 3, 3, 400, 64),  # 1: one ply, much noise, now and then a random turn
    (1, 3, 3, 80, 0),  # 2: one ply, some noise
    (2, 3, 3, 30, 0),  # 3: two plies, a little noise
    (2, 4, 3, 0, 0),  # 4: two plies
    (MAX_PLY - 2, 5, 4, 0, 0),  # 5: as deep as the time allows
)

_EXIT_TO = g.EXIT_TO
_EXIT_BORDER = g.EXIT_BORDER
_BU = g.BORDER_U
_BV = g.BORDER_V
_DOCK_OWNER = g.DOCK_OWNER
_NB = g.NB


def _border_at():
    """BORDER_AT[p * 6 + d]: the border between post p and its neighbour in
    direction d (NONE when there is none)."""
    t = bytearray(b"\xff" * (g.N_POSTS * 6))
    for b in range(g.N_BORDERS):
        u = _BU[b]
        v = _BV[b]
        for d in range(6):
            if _NB[u * 6 + d] == v:
                t[u * 6 + d] = b
            if _NB[v * 6 + d] == u:
                t[v * 6 + d] = b
    return bytes(t)


# Written out (the engine loads in the board's scan loop: issue 15; computing
# these at import took most of its 75 ms there); tests/fw/test_cornelson_engine.py
# checks them against _border_at(). Two posts (6 directions each) a line.
BORDER_AT = (
    b"\x00\x01\x02\xff\xff\xff\x03\x04\x05\x00\xff\xff"
    b"\x06\x07\x08\x03\xff\xff\xff\x09\x0a\x06\xff\xff"
    b"\x0b\x0c\x0d\xff\xff\x02\x0e\x0f\x10\x0b\x01\x05"
    b"\x11\x12\x13\x0e\x04\x08\x14\x15\x16\x11\x07\x0a"
    b"\xff\x17\x18\x14\x09\xff\x19\x1a\x1b\xff\xff\x0d"
    b"\x1c\x1d\x1e\x19\x0c\x10\x1f\x20\x21\x1c\x0f\x13"
    b"\x22\x23\x24\x1f\x12\x16\x25\x26\x27\x22\x15\x18"
    b"\xff\x28\x29\x25\x17\xff\x2a\x2b\xff\xff\xff\x1b"
    b"\x2c\x2d\x2e\x2a\x1a\x1e\x2f\x30\x31\x2c\x1d\x21"
    b"\x32\x33\x34\x2f\x20\x24\x35\x36\x37\x32\x23\x27"
    b"\x38\x39\x3a\x35\x26\x29\xff\xff\x3b\x38\x28\xff"
    b"\x3c\x3d\xff\xff\x2b\x2e\x3e\x3f\x40\x3c\x2d\x31"
    b"\x41\x42\x43\x3e\x30\x34\x44\x45\x46\x41\x33\x37"
    b"\x47\x48\x49\x44\x36\x3a\xff\xff\x4a\x47\x39\x3b"
    b"\x4b\x4c\xff\xff\x3d\x40\x4d\x4e\x4f\x4b\x3f\x43"
    b"\x50\x51\x52\x4d\x42\x46\x53\x54\x55\x50\x45\x49"
    b"\xff\xff\x56\x53\x48\x4a\x57\xff\xff\xff\x4c\x4f"
    b"\x58\xff\xff\x57\x4e\x52\x59\xff\xff\x58\x51\x55"
    b"\xff\xff\xff\x59\x54\x56"
)

# Progress of a jewel by its distance in steps to the opponent's docks
# (ignoring gems and jewels; portals included).
_PROG_BY_DIST = bytes((0, 120, 70, 46, 32, 24, 18, 13, 9, 6, 4, 2, 1))


def _progress():
    out = []
    for side in (0, 1):
        dist = bytearray(b"\x63" * g.N_SPACES)
        first = g.FIRST_DOCK + 3 * (side ^ 1)
        frontier = [first, first + 1, first + 2]
        for s in frontier:
            dist[s] = 0
        while frontier:
            nxt = []
            for s in frontier:
                for e in range(3):
                    t = _EXIT_TO[s * 3 + e]
                    if t != _NONE and dist[t] > dist[s] + 1:
                        dist[t] = dist[s] + 1
                        nxt.append(t)
            frontier = nxt
        out.append(bytes(_PROG_BY_DIST[d] if d < len(_PROG_BY_DIST) else 0 for d in dist))
    return out[0], out[1]


# Written out as BORDER_AT (checked against _progress()), by space index.
PROG_S = (
    b"\x06\x04\x02\x01\x02\x04\x06\x0d\x09\x06\x04\x06"
    b"\x04\x06\x09\x0d\x18\x12\x0d\x09\x0d\x09\x0d\x09"
    b"\x0d\x12\x18\x12\x18\x12\x18\x12\x18\x12\x18\x12"
    b"\x18\x12\x20\x2e\x20\x2e\x20\x2e\x20\x2e\x20\x46"
    b"\x78\x46\x78\x46\x78\x46\x02\x00\x02\x00\x00\x00"
    b"\x09\x12\x20\x0d\x18\x2e\x2e\x18\x0d\x20\x12\x09"
)
PROG_N = (
    b"\x46\x78\x46\x78\x46\x78\x46\x20\x2e\x20\x2e\x20"
    b"\x2e\x20\x2e\x20\x12\x18\x12\x18\x12\x18\x12\x18"
    b"\x12\x18\x12\x18\x12\x0d\x09\x0d\x09\x0d\x09\x0d"
    b"\x12\x18\x0d\x09\x06\x04\x06\x04\x06\x09\x0d\x06"
    b"\x04\x02\x01\x02\x04\x06\x00\x00\x00\x02\x00\x02"
    b"\x2e\x18\x0d\x20\x12\x09\x09\x12\x20\x0d\x18\x2e"
)
_ZERO72 = bytes(g.N_SPACES)

# Open exits of a jewel -> value. For the side to move (it steps next) and
# for the side that just moved (its opponent can close an exit now).
MOB_STM = array("h", (-300, -25, -6, 0))
MOB_MOVED = array("h", (-1500, -90, -20, 0))
# Value for the mover of closing one open exit of an opponent jewel that has
# k open exits (a Barrier on its border, or a jewel on its target).
BLOCK_W = array("h", (0, 900, 70, 20))
BREACH_BLOCK = const(3000)  # Barrier on the border of a breach threat
DOCK_BAR = const(25)  # a Barrier on one's own dock border
THREAT1 = const(80)  # one breach threat against the side to move
THREAT2 = const(600)  # two or more
JEWEL_V = const(150)  # a jewel in play (breach game: trapped jewels leave)
TALLY_W = const(30)  # a captured gem (with RULE_CAPTURE; else TALLY_W0)
TALLY_W0 = const(6)
CAP_W = const(40)  # ordering: a captured gem
DOCK_POST = const(35)  # a gem on a post of one's own dock borders (A or G row)
TALLY_LATE = const(6)  # from this tally the evaluation looks for a capture win


class Rng:
    """xorshift on 30 bits, every intermediate value below 2**30."""

    def __init__(self, seed=1):
        self.x = (seed & MASK30) or 0x2545F49

    def next(self):
        x = self.x
        x ^= (x & 0x1FFFF) << 13
        x ^= x >> 17
        x ^= (x & 0x3FFFFFF) << 4
        x &= MASK30
        if not x:
            x = 0x2545F49
        self.x = x
        return x

    def below(self, n):
        return self.next() % n


def _no_clock():
    return 0


class Engine:
    # No repetition rule: the board's player need not rebuild the game's
    # start position for history_keys (its parse is tens of ms on the chip).
    uses_history = False

    def __init__(self, level=5, tt_entries=0, seed=1):
        """tt_entries is accepted for the face's signature; this engine keeps
        no transposition table (transpositions are rare: a gem never leaves
        its post)."""
        self.set_level(level)
        self.pos = core.Position()
        self.rng = Rng(seed)
        self.root = array("i", bytes(4 * core.MAX_MOVES))
        self.rsc = array("h", bytes(2 * core.MAX_MOVES))
        self.rnoise = array("h", bytes(2 * core.MAX_MOVES))
        self.mv = array("i", bytes(4 * MAX_CANDS * MAX_PLY))
        self.mo = array("h", bytes(2 * MAX_CANDS * MAX_PLY))
        self.sets = array("i", bytes(4 * core.MAX_SETS))
        self.sv = array("h", bytes(2 * core.MAX_SETS))
        self.sets2 = array("i", bytes(4 * core.MAX_SETS))
        self.sv2 = array("h", bytes(2 * core.MAX_SETS))
        self.si = bytearray(8)  # indices of the best step sets
        self.pv = array("h", bytes(2 * g.N_POSTS))
        self.pflag = bytearray(g.N_POSTS)  # 0 plain, 1 opens a Barrier, 2 alone
        self.pi = bytearray(8)  # the best placements
        self.q = bytearray(40)
        # Per-node tables for the mover: value of a Barrier on border b,
        # of one of its jewels standing on space t, of a gem on p stopping
        # an opponent Barrier on its own jewels' exits; the entries set.
        self.bw = array("h", bytes(2 * g.N_BORDERS))
        self.bm = array("h", bytes(2 * g.N_BORDERS))
        self.blk = array("h", bytes(2 * g.N_SPACES))
        self.tb = bytearray(64)
        self.ts = bytearray(16)
        self.ntb = 0
        self.nts = 0
        self.now_ms = _no_clock
        self.deadline = 0
        self.max_nodes = 0
        self.stop = False
        self.nodes = 0
        self.depth = 0
        self.score = 0
        self.best = 0

    def set_level(self, level):
        if level < 1:
            level = 1
        if level > 5:
            level = 5
        self.level = level
        lv = LEVELS[level]
        self.max_depth = lv[0]
        self.kp = lv[1]
        self.ks = lv[2]
        self.noise = lv[3]
        self.blunder = lv[4]

    def seed(self, n):
        self.rng = Rng(n)

    def key(self, pos):
        """A 30-bit key of pos (posts, jewels, side); unused by the search."""
        h = pos.side + 1
        for i in range(g.N_POSTS):
            h = ((h * 31) + pos.posts[i]) & 0xFFFFFF
        for i in range(6):
            h = ((h * 37) + pos.jewel[i] + (pos.flags[i] << 8)) & 0xFFFFFF
        return h

    def history_keys(self, start, moves):
        """The engine uses no history (no repetition rule): []."""
        return []

    # -- the entry point ---------------------------------------------------

    def _copy(self, src):
        p = self.pos
        for i in range(g.N_POSTS):
            p.posts[i] = src.posts[i]
        for i in range(6):
            p.jewel[i] = src.jewel[i]
            p.flags[i] = src.flags[i]
        for i in range(g.N_SPACES):
            p.occ[i] = src.occ[i]
        p.tally[0] = src.tally[0]
        p.tally[1] = src.tally[1]
        p.filled = src.filled
        p.side = src.side
        p.mode = src.mode
        p.result = src.result
        p.reason = src.reason
        p._ply = 0

    def choose(self, pos, budget_ms, now_ms, history=None, max_nodes=0):
        """The engine's turn for pos (0 only when the game is over). pos is
        not changed. budget_ms: thinking time; now_ms: a callable giving
        milliseconds (wrapping like time.ticks_ms). history: unused.
        max_nodes: stop after about this many nodes (0: no limit)."""
        self._copy(pos)
        p = self.pos
        self.now_ms = now_ms
        if budget_ms < 1:
            budget_ms = 1
        self.deadline = ticks_add(now_ms(), budget_ms)
        self.max_nodes = max_nodes
        self.stop = False
        self.nodes = 0
        self.depth = 0
        self.score = 0
        self.best = 0
        if p.result != -1:
            return 0
        root = self.root
        end = p.gen(root, 0)
        if end == 0:
            return 0
        self.best = root[0]
        if end == 1:
            return root[0]
        if self.blunder and self.rng.below(256) < self.blunder:
            self.best = root[self.rng.below(end)]
            return self.best
        self._order_root(end)
        self.best = root[0]
        if self.stop:
            return self.best
        noise = self.rnoise
        for i in range(end):
            noise[i] = self.rng.below(self.noise + 1) if self.noise else 0
        # Depth 1: every turn.
        sc = self._root(1, end)
        if sc != -INF:
            self.score = sc
            self.depth = 1
        n = end if end < ROOT_BEAM else ROOT_BEAM
        depth = 2
        while depth <= self.max_depth and not self.stop:
            if self.score >= WIN_BOUND or self.score <= -WIN_BOUND:
                break  # a forced result: deeper search will not change it
            sc = self._root(depth, n)
            if sc != -INF:
                self.score = sc
                self.depth = depth
            depth += 1
        return self.best

    def _order_root(self, end):
        """Static scores of the root turns; the best PRE of them moved to
        the front, best first (the rest keep their order)."""
        p = self.pos
        root = self.root
        rsc = self.rsc
        self.now_ms()  # (a tick between the root's generation and its tables)
        self._prepare()
        self._post_values()
        pv = self.pv
        for i in range(end):
            if self.stop or (not i & 7 and self._past()):
                break  # (the first moves stay in the order generated)
            m = root[i]
            v = self._set_value(m)
            pp = m & 63
            if pp != _NO_POST:
                if v < BIG:
                    v += pv[pp]
                if (m >> 6) & 3 == 0 and p.mode & _RULE_JEWELS and not m & _STUCK and self.pflag[pp] == 2:
                    v = BIG  # the placement alone: a capture win
            rsc[i] = v
        self._unprepare()
        if self.stop:
            return
        k = end if end < ROOT_BEAM else ROOT_BEAM
        _select(root, rsc, self.rnoise, 0, end, k)

    def _root(self, depth, end):
        """Search root turns root[0:end] to depth; the best moved to the
        front (and the depth-1 pass sorts the best ROOT_BEAM by score).
        Returns the best score, -INF when stopped before any turn."""
        p = self.pos
        root = self.root
        rsc = self.rsc
        noise = self.rnoise
        alpha = -INF
        best_i = -1
        for i in range(end):
            m = root[i]
            b = noise[i]
            p.make(m)
            if depth == 1:
                sc = -self._search(0, 1, -INF, INF)
            else:
                a = alpha - b
                sc = -self._search(depth - 1, 1, -a - 1, -a)
                if sc > a and not self.stop:
                    sc = -self._search(depth - 1, 1, -INF, -a)
            p.unmake(m)
            if self.stop:
                break
            if -WIN_BOUND < sc < WIN_BOUND:
                sc += b
            rsc[i] = sc
            if sc > alpha:
                alpha = sc
                best_i = i
                self.best = m
        if best_i < 0:
            return -INF
        if depth == 1:
            if not self.stop:
                k = end if end < ROOT_BEAM else ROOT_BEAM
                _select(root, rsc, noise, 0, end, k)
            else:
                _swap(root, rsc, noise, 0, best_i)
        else:
            m = root[best_i]
            b = noise[best_i]
            j = best_i
            while j > 0:
                root[j] = root[j - 1]
                noise[j] = noise[j - 1]
                j -= 1
            root[0] = m
            noise[0] = b
        return alpha

    def _past(self):
        """Read the clock (on the board: the scan loop's tick) and say
        whether the time is up; then the search stops, and a node's set-up
        (ordering its turns is most of a node on the chip) stops with it."""
        if ticks_diff(self.now_ms(), self.deadline) >= 0:
            self.stop = True
        return self.stop

    # -- the tree ----------------------------------------------------------

    def _search(self, depth, ply, alpha, beta):
        n = self.nodes + 1
        self.nodes = n
        # The clock every node: on the board a node costs tens of ms of
        # bytecode, and each clock read lends the scan loop its tick
        # (board/thinker.py); the node budget keeps its 16-node grain.
        if (n & CHECK_EVERY) == 0 and self.max_nodes and n >= self.max_nodes:
            self.stop = True
        elif ticks_diff(self.now_ms(), self.deadline) >= 0:
            self.stop = True
        if self.stop:
            return 0
        p = self.pos
        r = p.result
        if r != -1:
            if r == core.DRAW:
                return 0
            return WIN - ply if r == p.side else ply - WIN
        if depth <= 0 or ply >= MAX_PLY - 1:
            return self.evaluate(ply)
        start = ply * MAX_CANDS
        end = self._cands(start)
        if self.stop:
            return 0
        if end == start:
            return self.evaluate(ply)
        mv = self.mv
        best = -INF
        for i in range(start, end):
            m = mv[i]
            p.make(m)
            if i == start:
                sc = -self._search(depth - 1, ply + 1, -beta, -alpha)
            else:
                sc = -self._search(depth - 1, ply + 1, -alpha - 1, -alpha)
                if alpha < sc < beta and not self.stop:
                    sc = -self._search(depth - 1, ply + 1, -beta, -alpha)
            p.unmake(m)
            if self.stop:
                return 0
            if sc > best:
                best = sc
                if sc > alpha:
                    alpha = sc
                    if sc >= beta:
                        break
        return best

    # -- evaluation ---------------------------------------------------------

    def _open(self, slot):
        """Open exits of the jewel in slot, against the other side (as the
        Trap rule counts them: own jewels do not block), plus 4 when one of
        them is a breach (an open opponent dock)."""
        p = self.pos
        s = p.jewel[slot]
        js = slot // 3
        bg = 2 - js
        posts = p.posts
        occ = p.occ
        breach = p.mode & _RULE_BREACH
        c = 0
        br = 0
        for e in range(3):
            i = s * 3 + e
            t = _EXIT_TO[i]
            if t == _NONE:
                continue
            dk = _DOCK_OWNER[t]
            if dk:
                if dk == js + 1 or not breach:
                    continue
            b = _EXIT_BORDER[i]
            if b == _NONE:
                if p.flags[slot]:
                    continue
            elif posts[_BU[b]] == bg and posts[_BV[b]] == bg:
                continue
            o = p.occ[t]
            if o and (o - 1) // 3 != js:
                continue
            c += 1
            if dk:
                br = 4
        return c | br

    def _max_capture(self):
        """The most gems the side to move captures with one placement."""
        p = self.pos
        if p.filled >= g.N_POSTS:
            return 0
        posts = p.posts
        q = self.q
        best = 0
        for pp in range(g.N_POSTS):
            if posts[pp] or not p._captures(pp):
                continue
            cnt = p._place(pp, q, 0)
            p._unplace(q, 0, cnt)
            if cnt - 1 > best:
                best = cnt - 1
        return best

    def evaluate(self, ply=0):
        """Score of the position for the side to move."""
        p = self.pos
        side = p.side
        mode = p.mode
        tally = p.tally
        v = 0
        if mode & _RULE_JEWELS:
            jewel = p.jewel
            threats = 0
            nj = 0
            breach = mode & _RULE_BREACH
            for slot in range(6):
                s = jewel[slot]
                if s == _NONE:
                    continue
                js = slot // 3
                code = self._open(slot)
                c = code & 3
                x = 0
                if breach:
                    x = PROG_S[s] if js == 0 else PROG_N[s]
                if js == side:
                    if code & 4:
                        return WIN - ply - 1  # a breach next turn
                    v += x + MOB_STM[c]
                    nj += 1
                else:
                    if code & 4:
                        threats += 1
                    v -= x + MOB_MOVED[c]
                    nj -= 1
            if threats:
                v -= THREAT1 if threats == 1 else THREAT2
            if not mode & _RULE_TRAP:
                v += nj * JEWEL_V
            # Barriers on each side's own dock borders.
            posts = p.posts
            ob = g.OUTER_BORDER
            for k in range(4):
                x = posts[k]  # A1..A4: South's dock borders
                if x:
                    v += DOCK_POST if (x - 1) ^ side == 0 else -DOCK_POST
                x = posts[33 + k]  # G1..G4: North's
                if x:
                    v += DOCK_POST if (x - 1) ^ side == 0 else -DOCK_POST
            for k in range(6):
                b = ob[k]
                x = posts[_BU[b]]
                if x and posts[_BV[b]] == x:
                    if (x - 1) == side:
                        v += DOCK_BAR if k // 3 == side else 0
                    elif k // 3 != side:
                        v -= DOCK_BAR
        if mode & _RULE_CAPTURE:
            t = tally[side]
            v += (t - tally[side ^ 1]) * TALLY_W + t * t - tally[side ^ 1] * tally[side ^ 1]
            if t >= TALLY_LATE and t + self._max_capture() >= core.WIN_TALLY:
                return WIN - ply - 1
        else:
            v += (tally[side] - tally[side ^ 1]) * TALLY_W0
        return v

    # -- candidate turns below the root ----------------------------------------

    def _prepare(self):
        """Fill the mover's per-node tables bw, bm, blk (cleared by
        _unprepare)."""
        p = self.pos
        side = p.side
        opp = side ^ 1
        mode = p.mode
        if not mode & _RULE_JEWELS:
            return
        bw = self.bw
        bm = self.bm
        blk = self.blk
        tb = self.tb
        ts = self.ts
        ntb = 0
        nts = 0
        jewel = p.jewel
        posts = p.posts
        occ = p.occ
        breach = mode & _RULE_BREACH
        trap = mode & _RULE_TRAP
        own_gem = side + 1
        for slot in range(opp * 3, opp * 3 + 3):
            s = jewel[slot]
            if s == _NONE:
                continue
            k = self._open(slot) & 3
            w = BLOCK_W[k]
            if not trap:
                w >>= 1
            for e in range(3):
                i = s * 3 + e
                t = _EXIT_TO[i]
                if t == _NONE:
                    continue
                dk = _DOCK_OWNER[t]
                if dk:
                    if dk == opp + 1 or not breach:
                        continue
                b = _EXIT_BORDER[i]
                if b == _NONE:
                    if p.flags[slot]:
                        continue
                elif posts[_BU[b]] == own_gem and posts[_BV[b]] == own_gem:
                    continue
                o = occ[t]
                if o and (o - 1) // 3 != opp:
                    continue
                if dk:
                    if b != _NONE:  # (always: a dock is entered across its border)
                        bw[b] += BREACH_BLOCK
                        tb[ntb] = b
                        ntb += 1
                    continue
                if b != _NONE:
                    bw[b] += w
                    tb[ntb] = b
                    ntb += 1
                blk[t] += w
                ts[nts] = t
                nts += 1
        ob = g.OUTER_BORDER
        for k in range(side * 3, side * 3 + 3):
            b = ob[k]
            bw[b] += DOCK_BAR
            tb[ntb] = b
            ntb += 1
        # The mover's own jewels' exits: a gem there stops an opponent
        # Barrier (worth more the fewer exits the jewel has).
        opp_gem = 2 - side
        for slot in range(side * 3, side * 3 + 3):
            s = jewel[slot]
            if s == _NONE:
                continue
            k = self._open(slot) & 3
            w = 60 if k <= 1 else (25 if k == 2 else 10)
            for e in range(3):
                b = _EXIT_BORDER[s * 3 + e]
                if b == _NONE or _EXIT_TO[s * 3 + e] == _NONE:
                    continue
                if posts[_BU[b]] == opp_gem or posts[_BV[b]] == opp_gem:
                    bm[b] += w
                    tb[ntb] = b
                    ntb += 1
        self.ntb = ntb
        self.nts = nts

    def _unprepare(self):
        bw = self.bw
        bm = self.bm
        tb = self.tb
        for i in range(self.ntb):
            b = tb[i]
            bw[b] = 0
            bm[b] = 0
        blk = self.blk
        ts = self.ts
        for i in range(self.nts):
            blk[ts[i]] = 0
        self.ntb = 0
        self.nts = 0

    def _post_values(self):
        """pv[p], pflag[p] for each vacant post: captures, Barriers made for
        the mover (bw), opponent Barriers stopped (bm); pflag 1 when the
        captures open a Barrier in the mover's way, 2 when the placement is
        the whole turn (a Capture win, or no jewels)."""
        p = self.pos
        posts = p.posts
        pv = self.pv
        pflag = self.pflag
        bw = self.bw
        bm = self.bm
        q = self.q
        own = p.side + 1
        jewels = p.mode & _RULE_JEWELS
        barrier = p._barrier
        p._mark_barriers(1)
        for pp in range(g.N_POSTS):
            # (26 ms for all posts on the chip: the clock every 8, and the
            # caller looks at self.stop before it reads pv)
            if not pp & 7 and self._past():
                break
            if posts[pp]:
                continue
            v = 0
            i6 = pp * 6
            for d in range(6):
                b = BORDER_AT[i6 + d]
                if b == _NONE:
                    continue
                x = posts[_NB[i6 + d]]
                if x == own:
                    v += bw[b]
                elif x == 0:
                    v += bw[b] >> 3
                else:
                    v += bm[b]
            if jewels and (pp < 4 if own == 1 else pp >= 33):
                v += DOCK_POST
            f = 0
            if p._captures(pp):
                cnt = p._place(pp, q, 0)
                v += (cnt - 1) * CAP_W
                if p._capture_wins() or not jewels:
                    f = 2
                    if p._capture_wins():
                        v = BIG
                else:
                    for i in range(1, cnt):
                        if barrier[q[i]]:
                            f = 1
                            break
                p._unplace(q, 0, cnt)
            if v > BIG:
                v = BIG
            pv[pp] = v
            pflag[pp] = f
        p._mark_barriers(0)

    def _set_value(self, m):
        """Static value of the jewel part of turn m for the mover: BIG for a
        breach, -BIG for a stuck turn."""
        if m & _STUCK:
            return -BIG
        p = self.pos
        side = p.side
        base = side * 3
        jewel = p.jewel
        prog = PROG_S if side == 0 else PROG_N
        if not p.mode & _RULE_BREACH:
            prog = _ZERO72
        blk = self.blk
        v = 0
        for i in range((m >> 6) & 3):
            c = (m >> (8 + 4 * i)) & 15
            s = jewel[base + (c & 3)]
            t = _EXIT_TO[s * 3 + (c >> 2)]
            if _DOCK_OWNER[t] == 2 - side:
                return BIG
            v += prog[t] - prog[s] + blk[t]
        return v

    def _cands(self, start):
        """Candidate turns of the side to move into mv[start:], best first;
        returns the end."""
        p = self.pos
        mv = self.mv
        mo = self.mo
        jewels = p.mode & _RULE_JEWELS
        sets = self.sets
        sv = self.sv
        if jewels:
            ns = p._step_sets(sets)
        else:
            sets[0] = 0
            ns = 1
        self._prepare()
        # Scoring the step sets and the posts is most of a node on the chip:
        # the clock every few (the scan loop ticks there), and a node whose
        # time ran out meanwhile gives no turns (_search then stops).
        for j in range(ns):
            if not j & 7 and self._past():
                self._unprepare()
                return start
            sv[j] = self._set_value(sets[j])
        if self._past():
            self._unprepare()
            return start
        end = start
        if p.filled >= g.N_POSTS:
            k = ns if ns < MAX_CANDS else MAX_CANDS
            nk = _top(sv, ns, self.si, 8 if k > 8 else k)
            for j in range(nk):
                x = self.si[j]
                mv[end] = _NO_POST | sets[x]
                mo[end] = sv[x]
                end += 1
            self._unprepare()
            _sort(mv, mo, start, end)
            return end
        self._post_values()
        if self.stop:
            self._unprepare()
            return start
        pv = self.pv
        pflag = self.pflag
        np_ = _top_posts(p.posts, pv, self.pi, self.kp)
        nsel = _top(sv, ns, self.si, self.ks)
        q = self.q
        for a in range(np_):
            pp = self.pi[a]
            f = pflag[pp]
            if f == 2:
                mv[end] = pp
                mo[end] = pv[pp]
                end += 1
            elif f == 0:
                for j in range(nsel):
                    x = self.si[j]
                    v = pv[pp] + sv[x]
                    mv[end] = pp | sets[x]
                    mo[end] = v if v < BIG else BIG
                    end += 1
            else:
                if self._past():
                    break
                cnt = p._place(pp, q, 0)
                sets2 = self.sets2
                sv2 = self.sv2
                ns2 = p._step_sets(sets2)
                for j in range(ns2):
                    if j & 7 == 7:
                        self.now_ms()  # (a tick: 8 step sets are ~3 ms on the chip)
                    sv2[j] = self._set_value(sets2[j])
                n2 = _top(sv2, ns2, self.si, self.ks)
                p._unplace(q, 0, cnt)
                for j in range(n2):
                    x = self.si[j]
                    v = pv[pp] + sv2[x]
                    mv[end] = pp | sets2[x]
                    mo[end] = v if v < BIG else BIG
                    end += 1
                nsel = _top(sv, ns, self.si, self.ks)  # (si was reused)
        self._unprepare()
        _sort(mv, mo, start, end)
        return end


def _top(val, n, out, k):
    """Indices of the k highest of val[0:n] into out, best first; returns
    how many."""
    if k > n:
        k = n
    c = 0
    for i in range(n):
        v = val[i]
        j = c
        if c == k:
            if v <= val[out[c - 1]]:
                continue
            j = c - 1
        else:
            c += 1
        while j > 0 and val[out[j - 1]] < v:
            out[j] = out[j - 1]
            j -= 1
        out[j] = i
    return c


def _top_posts(posts, pv, out, k):
    """The k vacant posts of highest pv into out, best first."""
    c = 0
    for i in range(g.N_POSTS):
        if posts[i]:
            continue
        v = pv[i]
        j = c
        if c == k:
            if v <= pv[out[c - 1]]:
                continue
            j = c - 1
        else:
            c += 1
        while j > 0 and pv[out[j - 1]] < v:
            out[j] = out[j - 1]
            j -= 1
        out[j] = i
    return c


def _sort(buf, order, start, end):
    """Stable insertion sort of buf[start:end] by order, highest first."""
    i = start + 1
    while i < end:
        m = buf[i]
        o = order[i]
        j = i - 1
        while j >= start and order[j] < o:
            buf[j + 1] = buf[j]
            order[j + 1] = order[j]
            j -= 1
        buf[j + 1] = m
        order[j + 1] = o
        i += 1


def _swap(buf, sc, noise, i, j):
    m = buf[i]
    buf[i] = buf[j]
    buf[j] = m
    x = sc[i]
    sc[i] = sc[j]
    sc[j] = x
    x = noise[i]
    noise[i] = noise[j]
    noise[j] = x


def _select_py(buf, sc, noise, start, end, k):
    """Bring the k best of buf[start:end] by sc to the front, best first
    (selection: k passes; k is small)."""
    for i in range(start, start + k):
        bi = i
        bv = sc[i]
        for j in range(i + 1, end):
            if sc[j] > bv:
                bv = sc[j]
                bi = j
        if bi != i:
            _swap(buf, sc, noise, i, bi)


# sc[] and noise[] are array("h"): viper loads their entries as 0..65535,
# Python as -32768..32767; ((x + 0x8000) & 0xFFFF) - 0x8000 is the signed
# value in both.
@micropython.viper
def _select_v(buf: ptr32, sc: ptr16, noise: ptr16, start: int, end: int, k: int):
    """_select_py in viper: 32 passes over a few hundred root turns were up
    to 84 ms of bytecode on the chip between two clock reads."""
    i = start
    while i < start + k:
        bi = i
        bv = ((int(sc[i]) + 0x8000) & 0xFFFF) - 0x8000
        j = i + 1
        while j < end:
            v = ((int(sc[j]) + 0x8000) & 0xFFFF) - 0x8000
            if v > bv:
                bv = v
                bi = j
            j += 1
        if bi != i:
            m = buf[i]
            buf[i] = buf[bi]
            buf[bi] = m
            x = sc[i]
            sc[i] = sc[bi]
            sc[bi] = x
            x = noise[i]
            noise[i] = noise[bi]
            noise[bi] = x
        i += 1


# MicroPython runs the viper form; CPython (the host's matches) the plain
# one, which tests/fw/test_cornelson_engine.py holds the viper source to.
_select = _select_v if MICROPYTHON else _select_py
