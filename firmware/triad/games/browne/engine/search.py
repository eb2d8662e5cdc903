# The engine for Cameron Browne's three-player Triad: paranoid alpha-beta.
#
# Why paranoid. Three players move in an order the movers choose (the
# landing cell's owner moves next), so "a round" of max-n or best-reply
# search does not exist here, while paranoid search needs none: a node is
# MAX when the engine's side is to move and MIN otherwise, whoever that is,
# and plain alpha-beta applies. Max-n would give no pruning at all with
# three independent scores (a tree of slides x drops cannot afford that)
# and best-reply search assumes a fixed rotation. The coalition assumption
# is pessimistic, but this game is short and tactical (a random game ends
# after about twelve turns, nearly every turn captures, and the max-capture
# rule leaves three or four slides per turn): what loses here is walking
# into a capture or an elimination that leaves an opponent ahead, exactly
# what a worst-case search sees. Only the engine's own score is kept.
#
# Drops. A turn is a slide and a drop on any empty cell (about forty), so
# the tree is over slides with a few chosen drops, not all of them. After
# a slide the candidate moves next and must take the most pieces it can, so
# a drop matters at once in three ways: it blocks one of the candidate's
# landing cells, it adds a piece next to others (raising their captures and
# possibly forcing the candidate there), or neither (a "quiet" drop, all
# alike for the next reply). For each slide the engine lists the candidate's
# landing cells once (_landings) and scores each drop that blocks or raises
# one of the best landings (within one of the most captures) by the
# candidate's forced reply as the evaluation below sees it; the quiet drops
# are one move: the quiet cell next to most of the mover's own pieces
# (blocking a later landing next to them). The root keeps up to ROOT_DROPS
# drops per slide, the inner nodes DROPS (by level), best first for the
# side to move in paranoid terms.
#
# Evaluation (the engine's side r). A finished game: win WIN - ply, a tie
# with r in it TIE, a loss -WIN + ply. Otherwise the side to move will
# capture at once (almost every turn does), so the leaf plays that capture
# out on the counts: the side to move's best landings, the one best for r
# when r moves and worst for r otherwise, its captures (an elimination
# there is scored as the end of the game) and the bunny's +1. The counts are
# then scored by who is likely to be eliminated first (_material: each side
# weighted by 1 / count^2).
#
# Playing for mistakes among the safe turns. The paranoid scores are
# coarse: behind (as Blue three pieces down before its first turn, most
# often) every turn scores about -1000 against the coalition, and ahead
# many turns score alike. So at level 5 (hope) the turns within HOPE_MARGIN of the
# best (lost: every turn the next player cannot end at once, see choose;
# a forced win is played as found) are
# ranked by their chances against opponents who do not play together
# (_hope): HOPE_DEPTH slides deep, each opponent slide as likely, the
# engine's own the best (_expect). A turn more than HOPE_MARGIN worse
# against the coalition is never taken. The other levels rank so only when
# every turn ties or loses against the coalition (a root score <= TIE).
#
# The search is iterative deepening under a time and a node budget (looked
# at every CHECK_EVERY + 1 nodes), the root moves re-ordered by the last
# depth's scores. There is no
# transposition table (tt_entries is accepted for the face and ignored):
# positions of this game almost never recur within a search. Nothing is
# allocated per node (all buffers are made by the constructor), every int
# is below 2**30; it runs unchanged on the MicroPython unix port and the
# board. A node's hot loops (a slide's drops and their scores, the leaf's
# reply, make/unmake, the pick of the next child) run in viper kernels on
# MicroPython (self.fast; the kernels are at the end of this file), the
# plain methods being their readable twins and CPython's: both search the
# same tree (tests/fw/test_browne_engine.py). That made a node about eight
# times cheaper (issue 26: 87 nodes a move on the emulated Pico before).
#
#   eng = Engine(level=5)
#   m = eng.choose(pos, budget_ms, now_ms, keys=None, max_nodes=0)
#   eng.depth, eng.nodes, eng.score
from array import array

from triad.compat import MICROPYTHON, const, micropython, ptr8, ptr16, ptr32, ticks_add
from triad.games import engine_kit
from triad.games.engine_kit import CHECK_EVERY  # noqa: F401 (the node grain, for tests)
from triad.games.engine_kit import MASK30
from triad.games.engine_kit import sort as _sort_py
from triad.games.browne import core
from triad.games.browne.engine.evaluate import TIE, WIN, WIN_BOUND, _clip, _final, _material
from triad.games.browne.engine.tables import ADJ, DIST

CELLS = core.CELLS
# The viper forms the fast path calls directly (on CPython their source runs
# as Python: the tests play the fast path there too).
_landings_v = core.landings_v
_make_v = core.make_v
_unmake_v = core.unmake_v
_gen_v = core.gen_viper
DIRECTIONS = core.DIRECTIONS
CELL_COLOUR = core.CELL_COLOUR
SITE_OF_SQ = core.SITE_OF_SQ
NO_DROP = core.NO_DROP
MAX_SLIDES = core.MAX_SLIDES

INF = const(30000)
MAX_PLY = const(24)
STACK = const(4200)  # move slots shared by the plies (root: 252 x 14 at most)
ROOT_DROPS = const(14)  # drops per slide at the root
QUIET = const(3)  # quiet drops per slide at the root
# _hope: the root turns within HOPE_MARGIN of the best are ranked by their
# prospects against opponents who slide at random, looked at HOPE_DEPTH
# slides deep (_expect); the search stops at SEARCH_EIGHTHS / 8 of the
# time budget, the ranking has the rest; it is cut at the budget, keeping
# the best turn ranked so far (on the emulated Pico with the board's 2.5 s,
# 10 rankings of 56 were, most in a game's first turns: docs/performance.md,
# "Ninth session").
HOPE_MARGIN = const(100)
# a game lost against the coalition: the turns ranked are those lost at the
# engine's next turn or later (a loss at ply p scores -WIN + p; ply 2 is
# the next player's turn)
LOST_FLOOR = -WIN + 3
HOPE_DEPTH = const(3)
SEARCH_EIGHTHS = const(7)
_AROUND = tuple(DIRECTIONS) + (0,)  # _drops: a landing's neighbours, then itself
NONE = const(-30001)  # _reply: no landing left to look at
MC = const(16)  # the material table covers counts below MC
# The material table holds _material() - MT_BIAS, so that its zero bytes
# mean "not computed yet" (scores are within +-1400): a new table needs no
# fill (a 4 096-step loop took 80 ms of the engine's first load on the chip).
MT_BIAS = const(4000)


# level: (max depth, inner drops per slide, root noise, chance in 1/256 of a
# random turn instead, hope: 1 to always rank the safe turns by _hope).
# What parts the levels is mostly the random-turn chance and hope (ranking
# the safe turns by the chances against opponents who do not play together,
# worth more against weak opponents than another turn of search); at the
# chip's budget (about 820 nodes a move since issue 26's third session)
# level 5 searches three or four turns, and level 4 is held to two turns
# and one drop a slide below the root so that level 5 still beats it. Each
# level against two seats of the one below (bench/ladder_faces.py, 820
# nodes, alone against two, 150 games each of seeds 1 / 2 / 3, and the
# 450 together): 47.3/42.0/41.3 (43.6), 41.3/40.0/40.7 (40.7),
# 43.3/38.7/44.7 (42.2), 43.3/38.7/39.3 (40.4)% (docs/performance.md,
# "Ninth session").
LEVELS = (
    (1, 1, 0, 0, 0),
    (1, 1, 0, 256, 0),  # 1: every turn at random
    (1, 1, 0, 144, 0),  # 2: one turn deep, nine random turns in sixteen
    (1, 1, 0, 92, 1),  # 3: one turn deep, about three random turns in eight, hope
    (2, 1, 0, 44, 1),  # 4: two turns deep, one drop a slide below the root, about a random turn in six, hope
    (MAX_PLY - 2, 3, 0, 0, 1),  # 5: as deep as the time allows, playing for mistakes
)



class Engine(engine_kit.EngineBase):
    LEVELS = LEVELS
    LEVEL_FIELDS = ("max_depth", "drops", "noise", "blunder", "hope")
    hope = 0  # 1: always rank the safe turns by _hope (set by the level)
    drops = 1  # drops per slide below the root (set by the level)

    def __init__(self, level=5, tt_entries=0, seed=1, now_ms=None):
        # now_ms: read between the parts (on the board each read lets the
        # loop read its switches: the constructor in one piece was 8-10 ms
        # on the chip, a scan gap of 11; issue 48)
        now_ms = now_ms or engine_kit.no_clock
        self.pos = core.Position()
        now_ms()
        # The big buffers (41 KB) are made by ready(), at the first choose.
        self.buf = None
        self.order = None  # static and search scores (all within +-INF)
        self.root_scores = None  # the root's noise
        self.mt = None
        # The landings of one side (_landings): square, pieces of side+1 and
        # side+2 next to it; mark dedupes squares reached along two rays.
        self.lq = bytearray(64)
        self.l1 = bytearray(64)
        self.l2 = bytearray(64)
        self.mark = bytearray(core.WIDTH * core.WIDTH)
        self.dmark = bytearray(core.WIDTH * core.WIDTH)  # _drops: cells listed
        self.dropv = array("h", bytes(2 * 64))  # (16 bits: read by viper the same on 64-bit ports and the chip)
        self.dropq = bytearray(64)
        # _drops: captures and scores of the candidate's best landings
        self.lk = bytearray(64)
        self.lv0 = array("h", bytes(2 * 64))
        self.lvb = array("h", bytes(2 * 64))
        self.lord = bytearray(64)
        self.lskip = bytearray(64)
        now_ms()
        self.lidx = bytearray(b"\xff" * (core.WIDTH * core.WIDTH))
        self.hope_deadline = 0
        # the viper kernels (MicroPython) or the plain methods (CPython);
        # the tests play both on both interpreters
        self.fast = MICROPYTHON
        now_ms()
        self._init_kit(level, seed)
        self.root = 0
        self.gfrom = 0
        self.rfirst = 0  # _root: the root's first turn in buf
        self.m0 = self.m1 = self.m2 = 0  # _view's counts

    def ready(self, now_ms=engine_kit.no_clock):
        """Make the big buffers once, with a clock read between them (on
        the board each read lends the scan loop a tick: made in the
        constructor in one piece they were a 14 ms stretch without one)."""
        if self.mt is not None:
            return
        self.buf = array("i", bytes(4 * STACK))
        now_ms()
        self.order = array("h", bytes(2 * STACK))
        self.root_scores = array("h", bytes(2 * STACK))
        now_ms()
        # _material(0, a, b, c) - MT_BIAS for counts below MC, filled as
        # needed (array "h": 8 KB; 0: not computed yet)
        self.mt = array("h", bytes(2 * MC * MC * MC))
        now_ms()  # (with the position's copy after it: 10.6 ms between two scans; issue 48)

    def key(self, pos):
        """A 30-bit key of pos (the game has no repetition rule; for the
        face)."""
        h = pos.side + 1
        board = pos.board
        for sq in CELLS:
            h = ((h * 31) ^ board[sq]) & MASK30
        return h

    # -- analysis helpers ----------------------------------------------------

    def _landings(self, side):
        """List the cells side can land on (pos.board as it is) in lq with
        the pieces of side + 1 (l1) and side + 2 (l2) next to each
        (core.landings); return their number + 256 x the most one captures.
        Allocates nothing."""
        return _landings_fast(self.pos.board, self.mark, self.lq, self.l1, self.l2, side)

    def _view(self, c0, c1, c2):
        """The counts c0..c2 (by side) seen from the engine: m0 its own,
        m1 and m2 the next sides' (attributes: a tuple would allocate)."""
        r = self.root
        if r == 0:
            self.m0 = c0
            self.m1 = c1
            self.m2 = c2
        elif r == 1:
            self.m0 = c1
            self.m1 = c2
            self.m2 = c0
        else:
            self.m0 = c2
            self.m1 = c0
            self.m2 = c1

    def _lval(self, tr, m0, m1, m2, col, k1, k2, ply):
        """The engine's score once side t captures k1 pieces of t + 1 and
        k2 of t + 2 landing on a cell of colour col, t's capture being the
        turn of ply. Counts seen from the engine: m0 its own, m1 and m2 the
        next sides; tr is t seen from the engine (0 for the engine). A
        finished game is scored by _final, else the counts (with the
        bunny's piece) by the table _material fills."""
        if tr == 0:
            a0 = m0
            a1 = m1 - k1
            a2 = m2 - k2
        elif tr == 1:
            a0 = m0 - k2
            a1 = m1
            a2 = m2 - k1
        else:
            a0 = m0 - k1
            a1 = m1 - k2
            a2 = m2
        if a0 <= 0 or a1 <= 0 or a2 <= 0:
            if a0 < 0:
                a0 = 0
            if a1 < 0:
                a1 = 0
            if a2 < 0:
                a2 = 0
            return _final(0, a0, a1, a2, -1, ply)
        # the bunny, seen from the engine: 3 - t - col with both seen from r
        b = col - self.root
        if b < 0:
            b += 3
        b = 3 - tr - b
        if b >= 3:
            b -= 3
        if b == 0:
            a0 += 1
        elif b == 1:
            a1 += 1
        else:
            a2 += 1
        if a0 < MC and a1 < MC and a2 < MC:
            j = (a0 * MC + a1) * MC + a2
            v = self.mt[j]
            if v == 0:
                v = _material(0, a0, a1, a2)
                self.mt[j] = v - MT_BIAS
                return v
            return v + MT_BIAS
        return _material(0, a0, a1, a2)

    def _reply(self, t, n, ply, c0, c1, c2, drop_sq, drop_side):
        """Score for the engine of side t capturing at once from the
        landings lq[:n] (as _landings(t) left them) with counts c0..c2;
        drop_sq: a square just filled by a piece of drop_side (it is no
        landing and raises the captures next to it), 0 for none. t picks
        among its most-capturing landings the best for the engine when it
        is the engine, the worst otherwise (_lval scores one)."""
        r = self.root
        self._view(c0, c1, c2)
        m0 = self.m0
        m1 = self.m1
        m2 = self.m2
        tr = t - r
        if tr < 0:
            tr += 3
        lq = self.lq
        l1 = self.l1
        l2 = self.l2
        s1 = t + 1
        if s1 == 3:
            s1 = 0
        maxing = tr == 0
        most = -1
        val = 0
        i = 0
        while i < n:
            x = lq[i]
            k1 = l1[i]
            k2 = l2[i]
            i += 1
            if drop_sq:
                if x == drop_sq:
                    continue
                dd = x - drop_sq + 12
                if 0 <= dd < 25 and ADJ[dd]:
                    if drop_side == s1:
                        k1 += 1
                    else:
                        k2 += 1
            k = k1 + k2
            if k < most:
                continue
            v = self._lval(tr, m0, m1, m2, CELL_COLOUR[x], k1, k2, ply + 1)
            if k > most:
                most = k
                val = v
            elif maxing:
                if v > val:
                    val = v
            elif v < val:
                val = v
        if most < 0:
            return NONE  # the drop blocked every landing looked at
        return val

    def _dropped(self, nt, y, maxing):
        """_reply for the landings lq[:nt] after a drop on y (0: a quiet
        drop, next to none of them), from what _drops prepared: captures
        lk, scores lv0 (as they are) and lvb (with the dropped piece next to
        it), the landing of each square lidx (255: none) and the landings
        best first for the candidate, lord. Only the landings on and next
        to y change; the rest are represented by the first of lord that is
        none of those."""
        lk = self.lk
        lidx = self.lidx
        skip = self.lskip
        most = -1
        val = 0
        if y:
            j = lidx[y]
            if j != 255:
                skip[j] = 1  # blocked
            for e in DIRECTIONS:
                j = lidx[y + e]
                if j == 255:
                    continue
                skip[j] = 1
                k = lk[j] + 1
                v = self.lvb[j]
                if k > most:
                    most = k
                    val = v
                elif k == most:
                    if maxing:
                        if v > val:
                            val = v
                    elif v < val:
                        val = v
        lord = self.lord
        i = 0
        while i < nt:
            j = lord[i]
            i += 1
            if skip[j]:
                continue
            k = lk[j]
            if k >= most:
                v = self.lv0[j]
                if k > most:
                    most = k
                    val = v
                elif maxing:
                    if v > val:
                        val = v
                elif v < val:
                    val = v
            break
        if y:
            j = lidx[y]
            if j != 255:
                skip[j] = 0
            for e in DIRECTIONS:
                j = lidx[y + e]
                if j != 255:
                    skip[j] = 0
        if most < 0:
            return NONE
        return val

    def _leaf(self, ply):
        """The static score of the position (engine's view), with the side
        to move's capture played out on the counts."""
        p = self.pos
        c = p.counts
        t = p.side
        if not self.fast:
            n = self._landings(t) & 255
            if n == 0:
                return _final(self.root, c[0], c[1], c[2], t, ply)
            return self._reply(t, n, ply, c[0], c[1], c[2], 0, 0)
        n = _landings_v(p.board, self.mark, self.lq, self.l1, self.l2, t)
        if n & 255 == 0:
            return _final(self.root, c[0], c[1], c[2], t, ply)
        r = self.root
        tr = t - r
        if tr < 0:
            tr += 3
        # the counts seen from the engine (_view, without the call)
        if r == 0:
            return _reply_v(self.lq, self.l1, self.l2, self.mt, n & 255, tr, c[0], c[1], c[2], r, ply + 1, 0, 0)
        if r == 1:
            return _reply_v(self.lq, self.l1, self.l2, self.mt, n & 255, tr, c[1], c[2], c[0], r, ply + 1, 0, 0)
        return _reply_v(self.lq, self.l1, self.l2, self.mt, n & 255, tr, c[2], c[0], c[1], r, ply + 1, 0, 0)

    def _drops(self, m, out, k, maxing, ply):
        """Write slide m completed with up to k drops into buf from out,
        best first for the mover (maxing: the mover is the engine); order[]
        gets their static scores. Return the new end. pos is unchanged."""
        p = self.pos
        board = p.board
        buf = self.buf
        order = self.order
        mover = p.side
        p.make(m)  # the slide and its captures, no drop yet
        c = p.counts
        cand = p.side
        bunny = 3 - mover - cand
        c0 = c[0]
        c1 = c[1]
        c2 = c[2]
        if bunny == 0:
            c0 += 1
        elif bunny == 1:
            c1 += 1
        else:
            c2 += 1
        n = self._landings(cand)
        most = n >> 8
        n &= 255
        lq = self.lq
        l1 = self.l1
        l2 = self.l2
        # The landings within one of the most first (nt of them): only they
        # can be the best after a drop, which raises a landing by one at
        # most; the rest are looked at only when a drop blocks them all.
        nt = 0
        i = 0
        while i < n:
            if l1[i] + l2[i] + 1 >= most:
                if i != nt:
                    engine_kit.swap3(lq, l1, l2, i, nt)
                nt += 1
            i += 1
        # the scores of the nt landings, as they are and with the bunny's
        # piece next to them (_dropped reads them for every drop)
        r = self.root
        self._view(c0, c1, c2)
        m0 = self.m0
        m1 = self.m1
        m2 = self.m2
        tr = cand - r
        if tr < 0:
            tr += 3
        cmax = tr == 0
        raise1 = bunny == cand + 1 or bunny == cand - 2
        lk = self.lk
        lv0 = self.lv0
        lvb = self.lvb
        lidx = self.lidx
        lord = self.lord
        i = 0
        while i < nt:
            if i & 7 == 7:
                self.now_ms()  # (a tick: 16 scores of 8 landings are ~12 ms on the chip)
            k1 = l1[i]
            k2 = l2[i]
            col = CELL_COLOUR[lq[i]]
            lk[i] = k1 + k2  # (k is the drops wanted: not reused here)
            v = self._lval(tr, m0, m1, m2, col, k1, k2, ply + 2)
            lv0[i] = v
            if raise1:
                lvb[i] = self._lval(tr, m0, m1, m2, col, k1 + 1, k2, ply + 2)
            else:
                lvb[i] = self._lval(tr, m0, m1, m2, col, k1, k2 + 1, ply + 2)
            lidx[lq[i]] = i
            # lord: the landings by captures, then best first for the
            # candidate (insertion)
            kk = k1 + k2
            j = i
            while j > 0:
                q = lord[j - 1]
                kq = lk[q]
                if kq > kk or (kq == kk and ((lv0[q] >= v) if cmax else (lv0[q] <= v))):
                    break
                lord[j] = q
                j -= 1
            lord[j] = i
            i += 1
        dq = self.dropq
        dv = self.dropv
        dmark = self.dmark
        nd = 0
        # drops that block or raise a landing within one of the most
        i = 0
        while i < nt:
            if self._past() and (ply or nd):
                # Out of time (or cancelled): this node's turns no longer
                # count; the root keeps at least one, to answer with.
                break
            x = lq[i]
            i += 1
            # the cells next to the landing, then the landing itself (empty)
            for e in _AROUND:
                y = x + e
                if board[y] != 0 or dmark[y] or nd >= 60:
                    continue
                dmark[y] = 1
                v = self._dropped(nt, y, cmax)
                if v == NONE:
                    v = self._reply(cand, n, ply + 1, c0, c1, c2, y, bunny)
                    if v == NONE:
                        # the candidate's only landing: it cannot move
                        v = _final(self.root, c0, c1, c2, cand, ply + 2)
                dv[nd] = v
                dq[nd] = y
                nd += 1
        # the quiet drops (QUIET at the root, else one): next to most of the
        # mover's own pieces, then nearest the centre
        own = 1 << mover
        nq = QUIET if ply == 0 else 1
        while nq > 0 and nd < 60:
            nq -= 1
            qbest = _quiet_fast(board, dmark, own)
            if not qbest:
                break
            # a quiet drop does not change the next reply
            dv[nd] = self._dropped(nt, 0, cmax)
            dq[nd] = qbest
            dmark[qbest] = 1
            nd += 1
        j = 0
        while j < nd:
            dmark[dq[j]] = 0
            j += 1
        i = 0
        while i < nt:
            lidx[lq[i]] = 255
            i += 1
        p.unmake(m)
        # keep the k best for the mover
        if k > nd:
            k = nd
        j = 0
        while j < k:
            if not ply:
                self.now_ms()  # (a tick: 14 picks of up to 60 are long on the board)
            b = j
            i = j + 1
            while i < nd:
                if (dv[i] > dv[b]) if maxing else (dv[i] < dv[b]):
                    b = i
                i += 1
            if b != j:
                t = dv[b]
                dv[b] = dv[j]
                dv[j] = t
                t = dq[b]
                dq[b] = dq[j]
                dq[j] = t
            buf[out] = (m & ~(63 << 12)) | (SITE_OF_SQ[dq[j]] << 12)
            order[out] = dv[j] if maxing else -dv[j]
            out += 1
            j += 1
        return out

    def _drops_fast(self, m, out, k, maxing, ply):
        """_drops with its loops in viper (_lscores_v, _dropvals_v,
        _keep_v): the same turns and scores; the clock is not read inside
        a slide (it takes well under a tick's period on the chip)."""
        p = self.pos
        board = p.board
        c = p.counts
        mover = p.side
        cand = _make_v(board, c, m, mover)  # the slide and its captures, no drop yet
        c0 = c[0]
        c1 = c[1]
        c2 = c[2]
        if not (c0 and c1 and c2):
            # an elimination: the whole turn, the finished game valued (as
            # _gen's plain loop does after core.eliminates)
            v = _final(self.root, c0, c1, c2, -1, ply + 1)
            _unmake_v(board, c, m)
            self.buf[out] = m
            self.order[out] = v if maxing else -v
            return out + 1
        bunny = 3 - mover - cand
        if bunny == 0:
            c0 += 1
        elif bunny == 1:
            c1 += 1
        else:
            c2 += 1
        n = _landings_v(board, self.mark, self.lq, self.l1, self.l2, cand)
        r = self.root
        # the counts seen from the engine (_view)
        if r == 0:
            m0 = c0
            m1 = c1
            m2 = c2
        elif r == 1:
            m0 = c1
            m1 = c2
            m2 = c0
        else:
            m0 = c2
            m1 = c0
            m2 = c1
        tr = cand - r
        if tr < 0:
            tr += 3
        nt = _lscores_v(self.lq, self.l1, self.l2, self.lk, self.lv0, self.lvb, self.lidx, self.lord,
                        self.mt, n & 255, n >> 8, tr, m0, m1, m2, r, ply + 2,
                        bunny == cand + 1 or bunny == cand - 2)
        nd = _dropvals_v(board, self.dmark, self.lq, self.lidx, self.lk, self.lv0, self.lvb, self.lord,
                         self.lskip, self.dropq, self.dropv, nt, tr == 0, 1 << mover, QUIET if ply == 0 else 1)
        if nd >> 16:
            # a drop that blocks every landing looked at: the plain reply
            dv = self.dropv
            dq = self.dropq
            j = 0
            while j < (nd >> 8) & 255:
                if dv[j] == NONE:
                    # (_reply(cand, n, ply + 1, c0, c1, c2, dq[j], bunny))
                    v = _reply_v(self.lq, self.l1, self.l2, self.mt, n & 255, tr, m0, m1,
                                 m2, r, ply + 2, dq[j], bunny == cand + 1 or bunny == cand - 2)
                    if v == NONE:
                        # the candidate's only landing: it cannot move
                        v = _final(r, c0, c1, c2, cand, ply + 2)
                    dv[j] = v
                j += 1
        _unmake_v(board, c, m)  # (p.side was never changed)
        return _keep_v(self.buf, self.order, self.dropv, self.dropq, nd & 255, k, maxing, m, out)

    def _gen(self, start, k, ply):
        """The node's turns (slides with up to k drops each, eliminating
        slides whole) into buf from the end of its slides; return (via
        self.gfrom) the first and the end. The slides are written from
        start and are overwritten by nothing: the turns follow them."""
        p = self.pos
        buf = self.buf
        order = self.order
        fast = self.fast
        if fast:
            # (the counts are all > 0 here: what Position.gen_slides checks)
            e = _gen_v(p.board, p.counts, buf, start, p.side, 0, core.MODE_SLIDES)
        else:
            e = p.gen_slides(buf, start)
        self.gfrom = e
        if e == start:
            return e
        # as many drops per slide as the stack has room for
        room = (STACK - 1 - e) // (e - start)
        if room < k:
            k = room
        if k < 1:
            return e
        maxing = p.side == self.root
        out = e
        # Scoring the drops of every slide is most of a node's time (at the
        # root a second of bytecode on the board): the clock is read per
        # slide (and per landing in _drops), which lends the board's scan
        # loop its ticks and stops the work once the time is up.
        # (With the viper kernels a slide is about 1-2 ms on the board, but a
        # node's slides together were 28 ms between two clock reads once
        # the clock was read per node only: emulated Pico.)
        i = start
        while i < e:
            if self._past() and (ply or out > self.gfrom):
                break
            m = buf[i]
            i += 1
            if fast:
                # (_drops_fast values an eliminating slide itself)
                out = self._drops_fast(m, out, k, maxing, ply)
                continue
            if (m >> 12) & 63 == NO_DROP and core.eliminates(p, m):
                # the whole turn: value the finished game
                p.make(m)
                c = p.counts
                v = _final(self.root, c[0], c[1], c[2], -1, ply + 1)
                p.unmake(m)
                buf[out] = m
                order[out] = v if maxing else -v
                out += 1
                continue
            out = self._drops(m, out, k, maxing, ply)
        return out

    # -- the entry point -------------------------------------------------------

    def choose(self, pos, budget_ms, now_ms, keys=None, max_nodes=0):
        """The engine's whole turn (slide and drop) for pos, 0 when the game
        is over. budget_ms: thinking time; now_ms: a callable giving ms
        (wrapping like time.ticks_ms); keys: ignored (no repetition rule);
        max_nodes: stop after about this many nodes (0: no limit). pos is
        not changed."""
        self.ready(now_ms)
        p = self.pos
        board = p.board
        src = pos.board
        # (with the cells, _drops' marks: a search cancelled from a clock
        # read inside _drops, by the board's tick, left some set, and the
        # next search skipped those drops and chose another turn)
        dmark = self.dmark
        lidx = self.lidx
        for sq in CELLS:
            board[sq] = src[sq]
            dmark[sq] = 0
            lidx[sq] = 255
        p.side = pos.side
        p.counts[0] = pos.counts[0]
        p.counts[1] = pos.counts[1]
        p.counts[2] = pos.counts[2]
        self.root = p.side
        # the search stops at SEARCH_EIGHTHS / 8 of the budget, _hope at
        # the budget
        budget = budget_ms if budget_ms > 1 else 1
        t0 = self._begin(now_ms, (budget * SEARCH_EIGHTHS + 7) // 8, max_nodes)
        self.hope_deadline = ticks_add(t0, budget)
        c = p.counts
        if not (c[0] and c[1] and c[2]):
            return 0
        end = self._gen(0, ROOT_DROPS, 0)
        self._past()  # (the clock after the root's turns and their drops: issue 48)
        first = self.gfrom
        if end == first:
            return 0
        buf = self.buf
        order = self.order
        _sort(buf, order, first, end)
        self.best = buf[first]
        if end - first == 1:
            return self.best
        if self._take_win(buf, first, end):
            self.score = WIN - 1
            self.depth = 1
            return self.best
        if self._blunder_pick(buf, first, end):
            return self.best
        self._fill_noise(self.root_scores, first, end)
        self.rfirst = first
        self._deepen(1, end)
        if self.depth > 0 and self.score < WIN_BOUND and (self.hope or self.score <= TIE):
            # Among the turns about as good against two opponents playing
            # together, the one with the best chances against opponents
            # who do not (below level 5: only when every turn ties or loses
            # against them). When every turn loses against them, every turn
            # they cannot end at once is ranked (LOST_FLOOR): how soon two
            # opponents playing together would win says little of opponents
            # who each play for themselves, but a turn after which the next
            # player can end the game is not played while another is left.
            # (Only the turns lost latest were ranked before: against two
            # UCT seats see docs/performance.md, "Ninth session".)
            if self.score > -WIN_BOUND:
                floor = self.score - HOPE_MARGIN
            elif self.score >= LOST_FLOOR:
                floor = LOST_FLOOR
            else:
                floor = self.score
            self.best = self._hope(first, end, floor)
        return self.best

    def _wins(self, m):
        """engine_kit's win in one: a slide that eliminates a player (the
        whole turn: no drop) and leaves the mover ahead alone. (A turn that
        leaves the next player without a slide also ends the game; telling
        those apart is a move generation a turn, not looked for here.)"""
        if (m >> 12) & 63 != NO_DROP:
            return False
        p = self.pos
        side = p.side
        p.make(m)
        won = core.outcome(p) == side
        p.unmake(m)
        return won

    def _hope(self, first, end, floor):
        """Of the root turns buf[first:end] (by the search's order) that
        score at least floor, the one with the best _expect: the next
        players' slides each as likely, the engine's own the best, wins and
        losses counted as +-2000. The clock is read at every step; once the
        time is up the best turn looked at so far is kept (the search's best
        when none was)."""
        p = self.pos
        buf = self.buf
        order = self.order
        self.deadline = self.hope_deadline
        self.stop = False
        best = -INF
        bm = buf[first]
        i = first
        while i < end:
            m = buf[i]
            if order[i] < floor:
                # (the order is by score unless the last depth was cut
                # short, when only the best is moved first)
                i += 1
                continue
            p.make(m)
            v = self._expect(HOPE_DEPTH, 1, end)
            p.unmake(m)
            if self.stop:
                break
            if v > best:
                best = v
                bm = m
            i += 1
        return bm

    def _expect(self, depth, ply, start):
        """The engine's expected score (_material's scale) with `depth`
        slides still to look at: the mean over an opponent's slides (each as
        likely), the best of the engine's; the bunny's piece of each slide
        is counted but not placed (where an opponent drops it is its choice);
        after the last slide _leaf plays out the next capture."""
        p = self.pos
        c = p.counts
        if not (c[0] and c[1] and c[2]):
            return _clip(_final(self.root, c[0], c[1], c[2], -1, ply))
        if self._past():
            return 0
        if depth <= 0 or start + MAX_SLIDES >= STACK:
            return _clip(self._leaf(ply))
        buf = self.buf
        fast = self.fast
        if fast:
            e = _gen_v(p.board, c, buf, start, p.side, 0, core.MODE_SLIDES)
        else:
            e = p.gen_slides(buf, start)
        if e == start:
            return _clip(_final(self.root, c[0], c[1], c[2], p.side, ply))
        maxing = p.side == self.root
        tot = 0
        best = -INF
        j = start
        while j < e:
            m = buf[j]
            j += 1
            t = p.side
            if fast:
                p.side = _make_v(p.board, c, m, t)
            else:
                p.make(m)
            if c[0] and c[1] and c[2]:
                b = 3 - t - p.side
                c[b] += 1
                v = self._expect(depth - 1, ply + 1, e)
                c[b] -= 1
            else:
                v = _clip(_final(self.root, c[0], c[1], c[2], -1, ply + 1))
            if fast:
                p.side = _unmake_v(p.board, c, m)
            else:
                p.unmake(m)
            if self.stop:
                return 0  # (out of time: _hope keeps what it had, no more siblings)
            tot += v
            if v > best:
                best = v
        if maxing:
            return best
        return tot // (e - start)

    def _root(self, depth, end):
        """Search the root turns buf[rfirst:end] to depth (the best moved
        first); the best score, -INF when stopped before any turn."""
        first = self.rfirst
        p = self.pos
        buf = self.buf
        order = self.order
        noise = self.root_scores
        alpha = -INF
        best_i = -1
        i = first
        while i < end:
            m = buf[i]
            p.make(m)
            if i == first:
                sc = self._search(depth - 1, 1, -INF, INF, end)
            else:
                a = alpha - noise[i]
                sc = self._search(depth - 1, 1, a, a + 1, end)
                if sc > a and not self.stop:
                    sc = self._search(depth - 1, 1, a, INF, end)
            p.unmake(m)
            if self.stop:
                break
            if -WIN_BOUND < sc < WIN_BOUND:
                sc += noise[i]
            order[i] = sc
            if sc > alpha:
                alpha = sc
                best_i = i
                self.best = m
            i += 1
        if best_i < 0:
            return -INF
        # the best first, the rest by their (bound) scores for the next depth
        if not self.stop:
            _sort2(buf, order, noise, first, end)
        elif best_i > first:
            m = buf[best_i]
            b = noise[best_i]
            o = order[best_i]
            j = best_i
            while j > first:
                buf[j] = buf[j - 1]
                noise[j] = noise[j - 1]
                order[j] = order[j - 1]
                j -= 1
            buf[first] = m
            noise[first] = b
            order[first] = o
        return alpha

    def _search(self, depth, ply, alpha, beta, start):
        """Paranoid alpha-beta: the engine's score; MAX where the engine's
        side moves, MIN elsewhere."""
        if self._node():
            return 0
        p = self.pos
        c = p.counts
        if not (c[0] and c[1] and c[2]):
            return _final(self.root, c[0], c[1], c[2], -1, ply)
        if depth <= 0 or ply >= MAX_PLY - 1 or start + 2 * MAX_SLIDES >= STACK:
            return self._leaf(ply)
        end = self._gen(start, self.drops, ply)
        first = self.gfrom
        if first == start:
            return _final(self.root, c[0], c[1], c[2], p.side, ply)
        if end == first:
            return self._leaf(ply)  # no room left on the stack
        buf = self.buf
        order = self.order
        maxing = p.side == self.root
        best = -INF if maxing else INF
        fast = self.fast
        board = p.board
        i = first
        while i < end:
            if fast:
                # (make_v/unmake_v called here, not through p.make: a
                # Python call less per child on the board)
                _pick_v(buf, order, i, end)
                m = buf[i]
                p.side = _make_v(board, c, m, p.side)
                sc = self._search(depth - 1, ply + 1, alpha, beta, end)
                p.side = _unmake_v(board, c, m)
            else:
                _pick(buf, order, i, end)
                m = buf[i]
                p.make(m)
                sc = self._search(depth - 1, ply + 1, alpha, beta, end)
                p.unmake(m)
            if self.stop:
                return 0
            if maxing:
                if sc > best:
                    best = sc
                    if sc > alpha:
                        alpha = sc
                        if sc >= beta:
                            return sc
            else:
                if sc < best:
                    best = sc
                    if sc < beta:
                        beta = sc
                        if sc <= alpha:
                            return sc
            i += 1
        return best


def _pick(buf, order, i, end):
    """Bring the best-ordered move of buf[i:end] to i."""
    bi = i
    bo = order[i]
    j = i + 1
    while j < end:
        if order[j] > bo:
            bo = order[j]
            bi = j
        j += 1
    if bi != i:
        m = buf[bi]
        buf[bi] = buf[i]
        buf[i] = m
        order[bi] = order[i]
        order[i] = bo




_DIRS12 = core._DIRS12  # the six neighbour steps + 12 (viper reads bytes)


def _quiet_py(board, dmark, own):
    """The quiet drop: the empty, unlisted cell next to most pieces own
    (a bit), then nearest the centre; 0 when none is left."""
    qbest = 0
    qv = -1000
    for sq in CELLS:
        if board[sq] != 0 or dmark[sq]:
            continue
        v = 0
        for e in DIRECTIONS:
            if board[sq + e] == own:
                v += 1
        v = v * 16 - DIST[sq]
        if v > qv:
            qv = v
            qbest = sq
    return qbest


@micropython.viper
def _quiet_v(board: ptr8, dmark: ptr8, own: int) -> int:
    """_quiet_py in viper (3 x 61 cells x 6 neighbours a root slide: 15 ms
    of bytecode on the chip between two clock reads)."""
    cells = ptr8(CELLS)
    dist = ptr8(DIST)
    dirs = ptr8(_DIRS12)
    qbest = 0
    qv = -1000
    ci = 0
    while ci < 61:
        sq = int(cells[ci])
        ci += 1
        if int(board[sq]) != 0 or int(dmark[sq]) != 0:
            continue
        v = 0
        ei = 0
        while ei < 6:
            if int(board[sq + int(dirs[ei]) - 12]) == own:
                v += 1
            ei += 1
        v = v * 16 - int(dist[sq])
        if v > qv:
            qv = v
            qbest = sq
    return qbest


# order[] is array("h"): viper loads its entries as 0..65535, Python as
# -32768..32767; ((o + 0x8000) & 0xFFFF) - 0x8000 is the signed value in both.
@micropython.viper
def _sort_v(buf: ptr32, order: ptr16, start: int, end: int):
    """_sort_py in viper (the root's turns: tens of ms of bytecode on the chip)."""
    i = start + 1
    while i < end:
        m = buf[i]
        o = order[i]
        so = ((int(o) + 0x8000) & 0xFFFF) - 0x8000
        j = i - 1
        while j >= start:
            if ((int(order[j]) + 0x8000) & 0xFFFF) - 0x8000 >= so:
                break
            buf[j + 1] = buf[j]
            order[j + 1] = order[j]
            j -= 1
        buf[j + 1] = m
        order[j + 1] = o
        i += 1


@micropython.viper
def _sort2_v(buf: ptr32, order: ptr16, extra: ptr16, start: int, end: int):
    """engine_kit.sort2 in viper."""
    i = start + 1
    while i < end:
        m = buf[i]
        o = order[i]
        x = extra[i]
        so = ((int(o) + 0x8000) & 0xFFFF) - 0x8000
        j = i - 1
        while j >= start:
            if ((int(order[j]) + 0x8000) & 0xFFFF) - 0x8000 >= so:
                break
            buf[j + 1] = buf[j]
            order[j + 1] = order[j]
            extra[j + 1] = extra[j]
            j -= 1
        buf[j + 1] = m
        order[j + 1] = o
        extra[j + 1] = x
        i += 1


# -- a node's hot loops in viper ----------------------------------------------
#
# Profiled on the MicroPython unix port (issue 26), a node's time was the
# drops: every slide of an inner node scored up to 60 drops by _dropped (a
# bytecode walk of the landings each), its landings by _lval (two bytecode
# calls each), and every leaf's _reply walked its landings in bytecode. The
# kernels below do the same in viper, with the same results (the plain
# methods above stay the readable twins: tests/fw/test_browne_engine.py
# plays both, on both interpreters, and holds them to the same turns, scores
# and node counts). A material score not in the table yet is filled by
# calling _mt_fill (plain Python) from the kernel, as _lval does.
#
# order[], lv0[] and lvb[] are array("h"): viper loads their entries as
# 0..65535 and Python as -32768..32767; ((o + 0x8000) & 0xFFFF) - 0x8000 is
# the signed value in both.


def _mt_fill(mt, j, a0, a1, a2):
    """_material for the engine's counts a0..a2, stored in the table mt at
    j (j < 0: beyond the table, computed only)."""
    v = _material(0, a0, a1, a2)
    if j >= 0:
        mt[j] = v - MT_BIAS
    return v


@micropython.viper
def _lscores_v(lq: ptr8, l1: ptr8, l2: ptr8, lk: ptr8, lv0: ptr16, lvb: ptr16, lidx: ptr8, lord: ptr8,
               mtobj, n: int, most: int, tr: int, m0: int, m1: int, m2: int, root: int, ply: int, raise1: int) -> int:
    """_drops' first part: the landings lq[:n] within one of the most
    captures (most) moved first, in the order _drops' swaps leave them;
    for each of them lk (captures), lv0 and lvb (_lval as it is and with
    the bunny's piece next to it: raise1 says which side's count the piece
    raises), lidx and lord as _drops makes them. Returns their number nt."""
    colour = ptr8(CELL_COLOUR)
    mt = ptr16(mtobj)
    nt = 0
    i = 0
    while i < n:
        if int(l1[i]) + int(l2[i]) + 1 >= most:
            if i != nt:
                x = lq[i]
                lq[i] = lq[nt]
                lq[nt] = x
                x = l1[i]
                l1[i] = l1[nt]
                l1[nt] = x
                x = l2[i]
                l2[i] = l2[nt]
                l2[nt] = x
            nt += 1
        i += 1
    i = 0
    while i < nt:
        sq = int(lq[i])
        k1 = int(l1[i])
        k2 = int(l2[i])
        col = int(colour[sq])
        lk[i] = k1 + k2
        # two scores: as it is (pass 0), with the bunny's piece (pass 1)
        ps = 0
        v = 0
        while ps < 2:
            if ps == 1:
                if raise1:
                    k1 += 1
                else:
                    k2 += 1
            # _lval(tr, m0, m1, m2, col, k1, k2, ply)
            if tr == 0:
                a0 = m0
                a1 = m1 - k1
                a2 = m2 - k2
            elif tr == 1:
                a0 = m0 - k2
                a1 = m1
                a2 = m2 - k1
            else:
                a0 = m0 - k1
                a1 = m1 - k2
                a2 = m2
            if a0 <= 0 or a1 <= 0 or a2 <= 0:
                # _final(0, a0, a1, a2, -1, ply), counts below 0 as 0
                if a1 < 0:
                    a1 = 0
                if a2 < 0:
                    a2 = 0
                if a0 <= 0:
                    v = ply - 20000  # ply - WIN (evaluate.py's constants)
                elif a0 < a1 or a0 < a2:
                    v = ply - 20000  # ply - WIN (evaluate.py's constants)
                elif a0 == a1 or a0 == a2:
                    v = -900  # TIE
                else:
                    v = 20000 - ply
            else:
                b = col - root
                if b < 0:
                    b += 3
                b = 3 - tr - b
                if b >= 3:
                    b -= 3
                if b == 0:
                    a0 += 1
                elif b == 1:
                    a1 += 1
                else:
                    a2 += 1
                if a0 < MC and a1 < MC and a2 < MC:
                    j = (a0 * MC + a1) * MC + a2
                    v = int(mt[j])
                    if v == 0:
                        v = int(_mt_fill(mtobj, j, a0, a1, a2))
                    else:
                        v = ((v + 0x8000) & 0xFFFF) - 0x8000 + MT_BIAS
                else:
                    v = int(_mt_fill(mtobj, -1, a0, a1, a2))
            if ps == 0:
                lv0[i] = v
            else:
                lvb[i] = v
            ps += 1
        k1 = int(lk[i])
        lidx[sq] = i
        # lord: by captures, then best first for the candidate (insertion)
        v = ((int(lv0[i]) + 0x8000) & 0xFFFF) - 0x8000
        j = i
        while j > 0:
            q = int(lord[j - 1])
            kq = int(lk[q])
            if kq > k1:
                break
            if kq == k1:
                w = ((int(lv0[q]) + 0x8000) & 0xFFFF) - 0x8000
                if tr == 0:
                    if w >= v:
                        break
                elif w <= v:
                    break
            lord[j] = q
            j -= 1
        lord[j] = i
        i += 1
    return nt


@micropython.viper
def _dropvals_v(board: ptr8, dmark: ptr8, lq: ptr8, lidx: ptr8, lk: ptr8, lv0: ptr16, lvb: ptr16, lord: ptr8,
                skip: ptr8, dq: ptr8, dv: ptr16, nt: int, cmax: int, own: int, nq: int) -> int:
    """_drops' second part: each empty cell next to or on the landings
    lq[:nt] (in _drops' order, at most 60) scored by _dropped into dv/dq,
    NONE where the drop blocks every landing looked at (_drops asks _reply
    for those), then nq quiet drops (_quiet_py's cells, scored as _dropped
    scores a quiet drop); dmark and lidx are all clear again on return.
    Returns the drops + 256 x the drops before the quiet ones + 65536 when
    one of those is NONE."""
    cells = ptr8(CELLS)
    dist = ptr8(DIST)
    dirs = ptr8(_DIRS12)
    nd = 0
    none = 0
    i = 0
    while i < nt:
        x = int(lq[i])
        i += 1
        ei = 0
        while ei < 7:
            # the cells next to the landing, then the landing itself
            if ei < 6:
                y = x + int(dirs[ei]) - 12
            else:
                y = x
            ei += 1
            if int(board[y]) != 0 or int(dmark[y]) != 0 or nd >= 60:
                continue
            dmark[y] = 1
            # _dropped(nt, y, cmax)
            most = -1
            val = 0
            j = int(lidx[y])
            if j != 255:
                skip[j] = 1
            e = 0
            while e < 6:
                j = int(lidx[y + int(dirs[e]) - 12])
                e += 1
                if j == 255:
                    continue
                skip[j] = 1
                k = int(lk[j]) + 1
                v = ((int(lvb[j]) + 0x8000) & 0xFFFF) - 0x8000
                if k > most:
                    most = k
                    val = v
                elif k == most:
                    if cmax:
                        if v > val:
                            val = v
                    elif v < val:
                        val = v
            f = 0
            while f < nt:
                j = int(lord[f])
                f += 1
                if skip[j]:
                    continue
                k = int(lk[j])
                if k >= most:
                    v = ((int(lv0[j]) + 0x8000) & 0xFFFF) - 0x8000
                    if k > most:
                        most = k
                        val = v
                    elif cmax:
                        if v > val:
                            val = v
                    elif v < val:
                        val = v
                break
            j = int(lidx[y])
            if j != 255:
                skip[j] = 0
            e = 0
            while e < 6:
                j = int(lidx[y + int(dirs[e]) - 12])
                e += 1
                if j != 255:
                    skip[j] = 0
            if most < 0:
                val = NONE
                none = 1
            dv[nd] = val
            dq[nd] = y
            nd += 1
    ndm = nd
    # the quiet drops: a quiet drop does not change the next reply
    # (_dropped(nt, 0, cmax): the first of lord, NONE when there is none)
    if nt > 0:
        qval = ((int(lv0[int(lord[0])]) + 0x8000) & 0xFFFF) - 0x8000
    else:
        qval = NONE
    while nq > 0 and nd < 60:
        nq -= 1
        # _quiet_py: the empty, unlisted cell next to most pieces own,
        # then nearest the centre
        qbest = 0
        qv = -1000
        ci = 0
        while ci < 61:
            sq = int(cells[ci])
            ci += 1
            if int(board[sq]) != 0 or int(dmark[sq]) != 0:
                continue
            v = 0
            e = 0
            while e < 6:
                if int(board[sq + int(dirs[e]) - 12]) == own:
                    v += 1
                e += 1
            v = v * 16 - int(dist[sq])
            if v > qv:
                qv = v
                qbest = sq
        if qbest == 0:
            break
        dv[nd] = qval
        dq[nd] = qbest
        dmark[qbest] = 1
        nd += 1
    j = 0
    while j < nd:
        dmark[int(dq[j])] = 0
        j += 1
    i = 0
    while i < nt:
        lidx[int(lq[i])] = 255
        i += 1
    return nd + (ndm << 8) + (none << 16)


@micropython.viper
def _keep_v(buf: ptr32, order: ptr16, dv: ptr16, dq: ptr8, nd: int, k: int, maxing: int, m: int, out: int) -> int:
    """_drops' last part: slide m completed with the k best drops of
    dq[:nd] for the mover (scores dv), best first, into buf/order from out
    (order: the score for the mover). Returns the new end."""
    site = ptr8(SITE_OF_SQ)
    if k > nd:
        k = nd
    base = m & ~(63 << 12)
    j = 0
    while j < k:
        b = j
        i = j + 1
        bv = ((int(dv[j]) + 0x8000) & 0xFFFF) - 0x8000
        while i < nd:
            v = ((int(dv[i]) + 0x8000) & 0xFFFF) - 0x8000
            if maxing:
                if v > bv:
                    b = i
                    bv = v
            elif v < bv:
                b = i
                bv = v
            i += 1
        if b != j:
            t = dv[b]
            dv[b] = dv[j]
            dv[j] = t
            t = int(dq[b])
            dq[b] = dq[j]
            dq[j] = t
        buf[out] = base | (int(site[int(dq[j])]) << 12)
        if maxing:
            order[out] = bv
        else:
            order[out] = 0 - bv
        out += 1
        j += 1
    return out


@micropython.viper
def _reply_v(lq: ptr8, l1: ptr8, l2: ptr8, mtobj, n: int, tr: int, m0: int, m1: int, m2: int,
             root: int, ply: int, drop_sq: int, raise1: int) -> int:
    """_reply in viper: of the landings lq[:n], those capturing the most
    (a piece dropped on drop_sq, 0 for none, blocks its cell and raises the
    captures next to it: raise1 says which side's count it raises), the
    best score for the engine when tr is 0, else the worst (_lval scores
    one); NONE when the drop blocked every landing. ply: the reply's."""
    colour = ptr8(CELL_COLOUR)
    adj = ptr8(ADJ)
    mt = ptr16(mtobj)
    most = -1
    val = 0
    i = 0
    while i < n:
        x = int(lq[i])
        k1 = int(l1[i])
        k2 = int(l2[i])
        i += 1
        if drop_sq != 0:
            if x == drop_sq:
                continue
            dd = x - drop_sq + 12
            if dd >= 0 and dd < 25 and int(adj[dd]) != 0:
                if raise1:
                    k1 += 1
                else:
                    k2 += 1
        k = k1 + k2
        if k < most:
            continue
        if tr == 0:
            a0 = m0
            a1 = m1 - k1
            a2 = m2 - k2
        elif tr == 1:
            a0 = m0 - k2
            a1 = m1
            a2 = m2 - k1
        else:
            a0 = m0 - k1
            a1 = m1 - k2
            a2 = m2
        if a0 <= 0 or a1 <= 0 or a2 <= 0:
            if a1 < 0:
                a1 = 0
            if a2 < 0:
                a2 = 0
            if a0 <= 0:
                v = ply - 20000  # ply - WIN (evaluate.py's constants)
            elif a0 < a1 or a0 < a2:
                v = ply - 20000  # ply - WIN (evaluate.py's constants)
            elif a0 == a1 or a0 == a2:
                v = -900  # TIE
            else:
                v = 20000 - ply
        else:
            b = int(colour[x]) - root
            if b < 0:
                b += 3
            b = 3 - tr - b
            if b >= 3:
                b -= 3
            if b == 0:
                a0 += 1
            elif b == 1:
                a1 += 1
            else:
                a2 += 1
            if a0 < MC and a1 < MC and a2 < MC:
                j = (a0 * MC + a1) * MC + a2
                v = int(mt[j])
                if v == 0:
                    v = int(_mt_fill(mtobj, j, a0, a1, a2))
                else:
                    v = ((v + 0x8000) & 0xFFFF) - 0x8000 + MT_BIAS
            else:
                v = int(_mt_fill(mtobj, -1, a0, a1, a2))
        if k > most:
            most = k
            val = v
        elif tr == 0:
            if v > val:
                val = v
        elif v < val:
            val = v
    if most < 0:
        return NONE
    return val


@micropython.viper
def _pick_v(buf: ptr32, order: ptr16, i: int, end: int):
    """_pick in viper."""
    bi = i
    bo = ((int(order[i]) + 0x8000) & 0xFFFF) - 0x8000
    j = i + 1
    while j < end:
        o = ((int(order[j]) + 0x8000) & 0xFFFF) - 0x8000
        if o > bo:
            bo = o
            bi = j
        j += 1
    if bi != i:
        m = buf[bi]
        buf[bi] = buf[i]
        buf[i] = m
        order[bi] = order[i]
        order[i] = bo


# MicroPython runs the viper forms; CPython (the host's matches) the plain
# ones, which tests/fw/test_browne_engine.py holds the viper source to.
if MICROPYTHON:
    _landings_fast = core.landings_v
    _quiet_fast = _quiet_v
    _sort = _sort_v
    _sort2 = _sort2_v
else:
    _landings_fast = core.landings_py
    _quiet_fast = _quiet_py
    _sort = _sort_py
    _sort2 = engine_kit.sort2
