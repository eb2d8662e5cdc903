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
# The evaluation and the static values: evaluate.py.
#
# The mode is the position's rule bits: without RULE_BREACH progress counts
# nothing (docks are shut), without RULE_TRAP a trapped jewel is only lost,
# without RULE_JEWELS only gems and tallies count.
from array import array

from triad.compat import MICROPYTHON, const, micropython, ptr8, ptr16, ptr32
from triad.games import engine_kit
from triad.games.engine_kit import CHECK_EVERY  # noqa: F401 (the node grain, for tests)
from triad.games.cornelson import core
from triad.games.cornelson import geometry as g
from triad.games.cornelson.engine.evaluate import BIG, LEAF_SLOW, WIN, Evaluator, _leaf_score

INF = const(30000)
WIN_BOUND = const(19000)
MAX_PLY = const(12)  # far below core.RING (64): unmake stays exact
MAX_CANDS = const(24)  # candidate turns per ply below the root
ROOT_BEAM = const(32)  # root turns searched beyond depth 1
_NO_POST = const(63)
_STUCK = const(1 << 20)
_RULE_JEWELS = const(8)
_N_POSTS = const(37)  # g.N_POSTS, for viper
_BIG = const(10000)  # evaluate.BIG, for viper
_make_turn = core._make_turn
_unmake_turn = core._unmake_turn


# level: (max depth, placements x step sets paired below the root, root
# noise in points, chance in 1/256 of a random turn instead). At the chip's
# budget (about 300 nodes a move) neither depth nor noise told the levels
# apart (L5 played as L4; L4 against L3 48%, docs/performance.md): levels
# 1 to 4 search two plies (4 x 3 candidates: at the chip's budget level 5
# reaches little more; with more nodes two plies race better against the
# quick player) and make more random turns the lower they are, so each
# level beats the one below (bench/ladder_faces.py).
LEVELS = (
    (1, 3, 3, 0, 0),
    (2, 4, 3, 0, 210),  # 1: most turns at random
    (2, 4, 3, 0, 150),  # 2: more than half the turns at random
    (2, 4, 3, 0, 100),  # 3: two random turns in five
    (2, 4, 3, 0, 48),  # 4: a random turn in five
    (MAX_PLY - 2, 5, 4, 0, 0),  # 5: as deep as the time allows
)


class Engine(Evaluator, engine_kit.EngineBase):
    LEVELS = LEVELS
    LEVEL_FIELDS = ("max_depth", "kp", "ks", "noise", "blunder")
    # The clock every fourth node: a node is about 0.4 ms on the RP2040
    # (leaves less), the board's clock read (the thinker's, with the scan
    # loop's check for a due tick) about as much again; a tick still comes
    # within about 2 ms of being due (docs/performance.md, issue 26).
    CLOCK_MASK = 3
    # A game review marks a turn this far below the best (about five
    # captured gems, or a breach threat more than the best leaves).
    REVIEW_KIND = "mistake"
    REVIEW_MARGIN = 600
    kp = 0  # placements paired below the root (set by the level)
    ks = 0  # step sets paired with each

    def __init__(self, level=5, tt_entries=0, seed=1, now_ms=None):
        """tt_entries is accepted for the face's signature; this engine keeps
        no transposition table (transpositions are rare: a gem never leaves
        its post). now_ms: read between the big buffers (on the board each
        read lets the loop read its switches; issue 48)."""
        now_ms = now_ms or engine_kit.no_clock
        self.pos = core.Position()
        self.root = array("i", bytes(4 * core.MAX_MOVES))
        now_ms()
        self.rsc = array("h", bytes(2 * core.MAX_MOVES))
        self.rnoise = array("h", bytes(2 * core.MAX_MOVES))
        now_ms()
        self.mv = array("i", bytes(4 * MAX_CANDS * MAX_PLY))
        now_ms()
        self.mo = array("h", bytes(2 * MAX_CANDS * MAX_PLY))
        self.sets = array("i", bytes(4 * core.MAX_SETS))
        self.sv = array("h", bytes(2 * core.MAX_SETS))
        self.sets2 = array("i", bytes(4 * core.MAX_SETS))
        self.sv2 = array("h", bytes(2 * core.MAX_SETS))
        self.si = bytearray(8)  # indices of the best step sets
        self.si2 = bytearray(8)  # (those after a placement's captures)
        self.pv = array("h", bytes(2 * g.N_POSTS))
        self.pflag = bytearray(g.N_POSTS)  # 0 plain, 1 opens a Barrier, 2 alone
        self.pi = bytearray(8)  # the best placements
        self.q = bytearray(40)
        self.opens = bytearray(6)  # _open_all: each jewel slot's open exits (+4: a breach)
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
        self._init_kit(level, seed)

    def key(self, pos):
        """A 30-bit key of pos (posts, jewels, side); unused by the search."""
        h = pos.side + 1
        for i in range(g.N_POSTS):
            h = ((h * 31) + pos.posts[i]) & 0xFFFFFF
        for i in range(6):
            h = ((h * 37) + pos.jewel[i] + (pos.flags[i] << 8)) & 0xFFFFFF
        return h

    # -- the entry point ---------------------------------------------------

    def _copy(self, src):
        """The engine's own copy of src (the search never writes the
        caller's position; its undo records start afresh)."""
        self.pos.set_from(src)

    def choose(self, pos, budget_ms, now_ms, history=None, max_nodes=0):
        """The engine's turn for pos (0 only when the game is over). pos is
        not changed. budget_ms: thinking time; now_ms: a callable giving
        milliseconds (wrapping like time.ticks_ms). history: unused.
        max_nodes: stop after about this many nodes (0: no limit)."""
        self._copy(pos)
        p = self.pos
        self._begin(now_ms, budget_ms, max_nodes)
        if p.result != -1:
            return 0
        root = self.root
        end = p.gen(root, 0)
        if end == 0:
            return 0
        self.best = root[0]
        if end == 1:
            return root[0]
        # (the clock after the root's turns: with the copy and the first
        # turns tried for a win they were a 10.5 ms slice on the chip, the
        # scan's longest gap at the search's start: issue 48)
        self._past()
        if self._take_win(root, 0, end):
            self.score = WIN - 1
            self.depth = 1
            return self.best
        if self._blunder_pick(root, 0, end):
            return self.best
        self._order_root(end)
        self.best = root[0]
        if self.stop:
            return self.best
        self._fill_noise(self.rnoise, 0, end)
        # Depth 1: every turn.
        sc = self._root(1, end)
        if sc != -INF:
            self.score = sc
            self.depth = 1
        n = end if end < ROOT_BEAM else ROOT_BEAM
        if not self.stop and -WIN_BOUND < self.score < WIN_BOUND:
            self._deepen(2, n)  # the best ROOT_BEAM turns
        return self.best

    def _take_win(self, buf, start, end):
        """engine_kit's win in one, written out for this game: each turn
        made and taken back by the core's kernels (Position.make and unmake
        cost thirty times as much from Python: 17 ms for 594 turns on the
        unix port against 0.6); a turn wins when the game ends by it and
        not because its mover is stuck (breach, trap, capture). The clock
        every WIN_TICK + 1 turns (the board ticks from it)."""
        if self.level < engine_kit.WIN_LEVEL:
            return 0
        p = self.pos
        side = p.side
        mode = p.mode
        ts = p.tally[side]
        posts = p.posts
        jewel = p.jewel
        flags = p.flags
        occ = p.occ
        ring = p._ring
        r = (p._ply % core.RING) * core.REC
        i = start
        while i < end:
            m = buf[i]
            why = _make_turn(m, side, mode, ts, posts, jewel, flags, occ, ring, r) >> 8
            _unmake_turn(ring, r, posts, jewel, flags, occ, 2 - side)
            if why and why != core.WHY_STUCK:
                self.best = m
                return m
            i += 1
            if (i & engine_kit.WIN_TICK) == 0 and self._past():
                return 0  # (the search after it stops at once: self.stop)
        return 0

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
        i = 0
        while i < end:
            if self.stop or self._past():
                break  # (the first moves stay in the order generated)
            e = i + 8 if i + 8 < end else end
            self._set_values(root, i, e, rsc)
            while i < e:
                m = root[i]
                v = rsc[i]
                pp = m & 63
                if pp != _NO_POST:
                    if v < BIG:
                        v += pv[pp]
                    if (m >> 6) & 3 == 0 and p.mode & _RULE_JEWELS and not m & _STUCK and self.pflag[pp] == 2:
                        v = BIG  # the placement alone: a capture win
                rsc[i] = v
                i += 1
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
        n = end
        if depth == 1:
            n = self._leaves(1, root, 0, end, -INF, INF, rsc)  # (every turn's score, up to a stop)
        for i in range(n):
            m = root[i]
            b = noise[i]
            if depth == 1:
                sc = rsc[i]
            else:
                p.make(m)
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
                engine_kit.swap3(root, rsc, noise, 0, best_i)
        else:
            engine_kit.to_front(root, noise, best_i)
        return alpha

    # -- the tree ----------------------------------------------------------

    def _search(self, depth, ply, alpha, beta):
        if self._node():
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
        if depth == 1:
            return self._leaves(ply + 1, mv, start, end, alpha, beta)
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

    def _leaves(self, ply, buf, start, end, alpha, beta, out=None):
        """_search's loop over the turns buf[start:end] when they lead to
        leaves at ply (most nodes are leaves): each one's node, then its
        score by one call that makes the turn, evaluates and takes it back
        (_leaf_score). The null window's re-search of a leaf gives the same
        score; it counts its node. Returns the best score (0 when stopped).
        With out (the root's first pass): every turn's score into out, no
        window; returns how many were scored before a stop."""
        p = self.pos
        side = p.side
        mode = p.mode
        ts = p.tally[side]
        to = p.tally[side ^ 1]
        filled = p.filled
        posts = p.posts
        jewel = p.jewel
        flags = p.flags
        occ = p.occ
        ring = p._ring
        r = (p._ply % core.RING) * core.REC
        opens = self.opens
        best = -INF
        for i in range(start, end):
            m = buf[i]
            if self._node():
                return i - start if out is not None else 0
            sc = _leaf_score(m, side, mode, ts, to, filled, ply, posts, jewel, flags, occ, ring, r, opens)
            if sc == LEAF_SLOW:
                p.make(m)
                sc = self.evaluate(ply)
                p.unmake(m)
            sc = -sc
            if out is not None:
                out[i] = sc
                continue
            if i != start and alpha < sc < beta and self._node():
                return 0
            if sc > best:
                best = sc
                if sc > alpha:
                    alpha = sc
                    if sc >= beta:
                        break
        return end - start if out is not None else best

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
        # The step sets scored in one viper pass, then the clock (the scan
        # loop ticks there); a node whose time ran out meanwhile gives no
        # turns (_search then stops).
        self._set_values(sets, 0, ns, sv)
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
        pi = self.pi
        si = self.si
        a = 0
        while True:
            # The posts in order, each with the best step sets (_pair), up
            # to one whose captures open a Barrier in the mover's way: that
            # one gets the step sets after its captures.
            x = _pair(mv, mo, end, pi, a, np_, pflag, pv, si, nsel, sets, sv)
            end = x & 0xFFFF
            a = x >> 16
            if a >= np_ or self._past():
                break
            pp = pi[a]
            q = self.q
            cnt = p._place(pp, q, 0)
            sets2 = self.sets2
            sv2 = self.sv2
            ns2 = p._step_sets(sets2)
            self._set_values(sets2, 0, ns2, sv2)
            si2 = self.si2
            n2 = _top(sv2, ns2, si2, self.ks)
            p._unplace(q, 0, cnt)
            for j in range(n2):
                x = si2[j]
                v = pv[pp] + sv2[x]
                mv[end] = pp | sets2[x]
                mo[end] = v if v < BIG else BIG
                end += 1
            a += 1
        self._unprepare()
        _sort(mv, mo, start, end)
        return end



def _top_py(val, n, out, k):
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


def _top_posts_py(posts, pv, out, k):
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




# val[] is array("h") (step-set values may be negative): viper loads its
# entries as 0..65535, Python as -32768..32767; ((x + 0x8000) & 0xFFFF) -
# 0x8000 is the signed value in both.
@micropython.viper
def _top_v(val: ptr16, n: int, out: ptr8, k: int) -> int:
    """_top_py in viper (the step sets of every node)."""
    if k > n:
        k = n
    c = 0
    i = 0
    while i < n:
        v = ((int(val[i]) + 0x8000) & 0xFFFF) - 0x8000
        j = c
        skip = 0
        if c == k:
            if v <= ((int(val[out[c - 1]]) + 0x8000) & 0xFFFF) - 0x8000:
                skip = 1
            j = c - 1
        else:
            c += 1
        if skip == 0:
            while j > 0 and ((int(val[out[j - 1]]) + 0x8000) & 0xFFFF) - 0x8000 < v:
                out[j] = out[j - 1]
                j -= 1
            out[j] = i
        i += 1
    return c


@micropython.viper
def _top_posts_v(posts: ptr8, pv: ptr16, out: ptr8, k: int) -> int:
    """_top_posts_py in viper (the vacant posts of every node; pv is 0..BIG)."""
    c = 0
    i = 0
    while i < _N_POSTS:
        if posts[i] == 0:
            v = int(pv[i])
            j = c
            skip = 0
            if c == k:
                if v <= int(pv[out[c - 1]]):
                    skip = 1
                j = c - 1
            else:
                c += 1
            if skip == 0:
                while j > 0 and int(pv[out[j - 1]]) < v:
                    out[j] = out[j - 1]
                    j -= 1
                out[j] = i
        i += 1
    return c


def _pair_py(mv, mo, end, pi, a, np_, pflag, pv, si, nsel, sets, sv):
    """The candidate turns of the best posts pi[a:np_] into mv[end:] with
    their ordering values in mo: a post whose placement is the whole turn
    (pflag 2) alone, one of pflag 0 with each of the best step sets
    sets[si[0:nsel]] (values pv + sv, at most BIG); stops at a post of
    pflag 1 (its captures change the step sets: _cands pairs it). Returns
    the end | the index of that post (np_ when none) << 16."""
    while a < np_:
        pp = pi[a]
        f = pflag[pp]
        if f == 2:
            mv[end] = pp
            mo[end] = pv[pp]
            end += 1
        elif f == 0:
            for j in range(nsel):
                x = si[j]
                v = pv[pp] + sv[x]
                mv[end] = pp | sets[x]
                mo[end] = v if v < BIG else BIG
                end += 1
        else:
            break
        a += 1
    return end | (a << 16)


# sv is array("h") (step-set values may be negative): viper loads its
# entries as 0..65535; ((x + 0x8000) & 0xFFFF) - 0x8000 is the signed value.
# pv holds 0..BIG. A negative mo stored through ptr16 is its low 16 bits,
# which Python reads back as the same signed value.
@micropython.viper
def _pair_v(mv: ptr32, mo: ptr16, end: int, pi: ptr8, a: int, np_: int, pflag: ptr8, pv: ptr16, si: ptr8, nsel: int,
            sets: ptr32, sv: ptr16) -> int:
    """_pair_py in viper (every node's candidates)."""
    while a < np_:
        pp = int(pi[a])
        f = int(pflag[pp])
        if f == 2:
            mv[end] = pp
            mo[end] = pv[pp]
            end += 1
        elif f == 0:
            j = 0
            while j < nsel:
                x = int(si[j])
                v = int(pv[pp]) + ((int(sv[x]) + 0x8000) & 0xFFFF) - 0x8000
                mv[end] = pp | int(sets[x])
                mo[end] = v if v < _BIG else _BIG
                end += 1
                j += 1
        else:
            break
        a += 1
    return end | (a << 16)


# mo is array("h"): signed through ((x + 0x8000) & 0xFFFF) - 0x8000.
@micropython.viper
def _sort_v(mv: ptr32, mo: ptr16, start: int, end: int):
    """engine_kit.sort in viper: stable insertion sort of mv[start:end] by
    mo, highest first (every node's candidates)."""
    i = start + 1
    while i < end:
        m = mv[i]
        o = mo[i]
        ov = ((int(o) + 0x8000) & 0xFFFF) - 0x8000
        j = i - 1
        while j >= start and ((int(mo[j]) + 0x8000) & 0xFFFF) - 0x8000 < ov:
            mv[j + 1] = mv[j]
            mo[j + 1] = mo[j]
            j -= 1
        mv[j + 1] = m
        mo[j + 1] = o
        i += 1

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
            engine_kit.swap3(buf, sc, noise, i, bi)


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
_pair = _pair_v if MICROPYTHON else _pair_py
_sort = _sort_v if MICROPYTHON else engine_kit.sort
_top = _top_v if MICROPYTHON else _top_py
_top_posts = _top_posts_v if MICROPYTHON else _top_posts_py
