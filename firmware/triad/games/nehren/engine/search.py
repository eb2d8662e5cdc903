# Searching engine for Nehren's Triad: iterative deepening, negamax with
# principal variation search, a transposition table in preallocated arrays,
# move ordering (table move, Triad-forming moves, killers, history) and a
# quiescence search over Triad-forming moves. Pure: the clock is a callable
# passed in (time.ticks_ms on the board), nothing is allocated per node (all
# state lives in arrays made by the constructor), all ints stay below 2**30.
#
#   eng = Engine(level=5, tt_entries=1024)
#   m = eng.choose(pos, budget_ms, now_ms)     # a legal move of pos, or 0
#   eng.depth, eng.nodes, eng.score            # about the last search
#   eng.set_level(level)                       # 1 (beginner) .. 5 (strongest)
#
# pos is not changed (the engine searches its own copy). The move is an int
# of the rules core (from/to/new/old/removed fields), removal included.
from array import array

from triad.compat import const, ticks_diff
from triad.games import engine_kit
from triad.games.engine_kit import MASK30, Rng  # noqa: F401 (Rng: the engine's, for tests)
from triad.games.engine_kit import sort as _sort
from triad.games.nehren import core
from triad.games.nehren.engine.evaluate import evaluate_parts, OUT, MAX_THREATS
from triad.games.nehren.engine.kernels import (  # noqa: F401 (gen_triads, hash_after: the engine's, for tests)
    CELL_INDEX, gen_triads, hash_after, hash_pair,
    _child_keys, _decay, _gen_triads_fast, _make, _order_moves, _pick, _repeated, _unmake,
)

INF = const(30000)
WIN = const(20000)  # a win at ply p scores WIN - p
WIN_BOUND = const(19000)  # scores beyond this are wins/losses
MAX_PLY = const(40)
CHECK_EVERY = const(63)  # check the node cap when (nodes & CHECK_EVERY) == 0
# Look at the clock when (nodes & CLOCK_EVERY) == 0: every 4 nodes (a few
# ms on the RP2040), so a budget or a cancel is noticed within a few ms,
# and the board's main loop ticks from inside the clock (board/thinker.py).
# (At every node, tried in issue 48 for the start position's first nodes of
# about 3 ms each, the search made 25% fewer nodes in its 2.5 s.)
# The node cap keeps its old check points: a node-capped search stops at
# the same node as before and chooses the same move.
CLOCK_EVERY = const(3)
PICK_FIRST = const(8)  # moves picked best-first; the rest in generated order

EXACT = const(0)
LOWER = const(1)  # score >= stored
UPPER = const(2)  # score <= stored


# level: (max depth, share of the time budget in 1/8 (and of a node cap),
# root noise in points, chance in 1/256 of playing a random move instead).
# Measured at the chip's budget (about 2 000 nodes a move: bench/ladder.py,
# docs/performance.md "The level ladder on the chip") each level wins at
# least 60% of its games against the one below. Level 4 was "two plies, no
# noise" and won only 56.5% against level 3 there (the noise of level 3
# hardly matters at two plies); now it is level 5's search in half the
# time (about 2.5 plies on the chip against level 5's 2.85), which holds
# the 60% both ways from 1 500 to 2 700 nodes a move.
LEVELS = (
    (1, 8, 0, 0),  # (0: not a level; set_level clamps to 1..5)
    (1, 8, 700, 64),  # 1: one ply, much noise, a random move one time in four
    (1, 8, 150, 8),  # 2: one ply (and the Triad replies), some noise
    (2, 8, 120, 0),  # 3: two plies, some noise
    (MAX_PLY - 8, 4, 0, 0),  # 4: as deep as half the time allows
    (MAX_PLY - 8, 8, 0, 0),  # 5: as deep as the time allows
)


class Engine(engine_kit.EngineBase):
    uses_history = True  # a move back into an earlier position scores a draw
    LEVELS = LEVELS
    LEVEL_FIELDS = ("max_depth", "time_share", "noise", "blunder")
    time_share = 8  # eighths of the budget the search may use (set by the level)
    # A game review marks a turn this far below the best (about two thirds
    # of an early Triad's worth: a clear loss, not the search's noise).
    REVIEW_KIND = "mistake"
    REVIEW_MARGIN = 600

    def __init__(self, level=5, tt_entries=1024, seed=1, stack=1600, history_max=64, now_ms=None):
        """tt_entries: transposition table size (rounded down to a power of
        two; 12 bytes each). stack: move slots shared by the plies (4 bytes
        each plus 2 for ordering scores; at least core.MAX_MOVES + 200).
        now_ms: read between the big buffers (on the board each read lets
        the loop read its switches: made in one piece they were up to 12 ms
        on the chip; issue 48)."""
        now_ms = now_ms or engine_kit.no_clock
        n = 1
        while n * 2 <= tt_entries:
            n *= 2
        self.tt_mask = n - 1
        self.tt_lock = array("i", bytes(4 * n))
        self.tt_move = array("i", bytes(4 * n))
        now_ms()
        self.tt_info = array("i", bytes(4 * n))
        if stack < core.MAX_MOVES + 200:
            stack = core.MAX_MOVES + 200
        now_ms()
        self.buf = array("i", bytes(4 * stack))
        now_ms()
        self.order = array("h", bytes(2 * stack))
        now_ms()
        self.rnoise = array("h", bytes(2 * core.MAX_MOVES))
        self.stack = stack
        self.killers = array("i", bytes(4 * 2 * MAX_PLY))
        self.hist = array("H", bytes(2 * 36 * 36))
        now_ms()  # (the buffers after the last read and the position: 9 ms on the chip)
        self.history_max = history_max
        self.rep = array("i", bytes(4 * (history_max + MAX_PLY + 2)))
        self.rep_base = 0
        # The two keys of the position at each ply: keys[2 * ply], + 1.
        self.keys = array("i", bytes(4 * 2 * (MAX_PLY + 2)))
        self.pos = core.Position()
        now_ms()
        self._init_kit(level, seed)

    def key(self, pos):
        """The 30-bit key of pos the engine uses for repetitions (pass a
        list of the keys of earlier positions to choose as history)."""
        return hash_pair(pos, 1)

    def history_keys(self, start, moves):
        """Keys of the positions of a game since its last Triad, for choose:
        start is the game's first position (not changed), moves the move
        ints played since (the current position is left out). Allocates: call
        it once per engine move, not in a loop."""
        # Each key from the one before (_child_keys, as the search does):
        # rebuilding every position and hashing it from scratch cost about
        # 1 ms of the RP2040's time a move, one piece before the search's
        # first clock read (issue 15). Only the side to move and its
        # Triads are followed: every move passes the turn, a removal is a
        # Triad made.
        k = array("i", bytes(16))
        k[0] = hash_pair(start, 1)
        k[1] = hash_pair(start, 2)
        side = start.side
        made = [start.score[0], start.score[1]]
        keys = [k[0]]
        for m in moves:
            _child_keys(k, 0, m, (side << 2) | made[side])
            k[0] = k[2]
            k[1] = k[3]
            if (m >> 18) & 127:
                made[side] += 1
                keys = []
            side ^= 1
            keys.append(k[0])
        keys.pop()
        if len(keys) > self.history_max:
            keys = keys[len(keys) - self.history_max :]
        return keys

    def clear(self):
        """Forget the table, killers and history (e.g. for a new game)."""
        for i in range(self.tt_mask + 1):
            self.tt_lock[i] = 0
            self.tt_move[i] = 0
            self.tt_info[i] = 0
        for i in range(36 * 36):
            self.hist[i] = 0

    # -- the entry point ---------------------------------------------------

    def choose(self, pos, budget_ms, now_ms, history=None, max_nodes=0):
        """The engine's move for pos (0 only when the game is over).
        budget_ms: thinking time; now_ms: a callable giving milliseconds
        (wrapping like time.ticks_ms is fine). history: keys (Engine.key) of
        the earlier positions of the game, oldest first, without pos itself;
        a move back into one of them is scored as a draw. max_nodes: stop
        after about this many nodes (0: no limit)."""
        p = self.pos
        # Copy pos cell by cell (Position.set_from slices, which allocates
        # on older MicroPython).
        board = p.board
        src = pos.board
        for sq in core.CELLS:
            board[sq] = src[sq]
        p.side = pos.side
        p.score[0] = pos.score[0]
        p.score[1] = pos.score[1]
        p.note2_triads = pos.note2_triads
        share = self.time_share
        if share < 8 and max_nodes:
            # A level's share of the budget applies to a node cap as well
            # (host matches at the chip's node budget).
            max_nodes = (max_nodes * share) >> 3
            if max_nodes < 1:
                max_nodes = 1
        self._begin(now_ms, (budget_ms * share) >> 3, max_nodes)
        if p.game_over():
            return 0
        nb = 0
        if history:
            nb = len(history)
            if nb > self.history_max:
                nb = self.history_max
            k = len(history) - nb
            for i in range(nb):
                self.rep[i] = history[k + i]
        self.rep_base = nb
        for i in range(2 * MAX_PLY):
            self.killers[i] = 0
        _decay(self.hist, 36 * 36)
        buf = self.buf
        end = p.gen(buf, 0)
        if end == 0:
            return 0
        # (The clock read between the steps before the root's first node:
        # each is a few ms on the chip, and the board reads its switches from
        # the clock: issue 48.)
        now_ms()
        self.best = buf[0]
        if end == 1:
            return buf[0]
        # Triad-forming moves first for a search cut short at depth 1.
        h1 = hash_pair(p, 1)
        self.keys[0] = h1
        self.keys[1] = hash_pair(p, 2)
        self.rep[nb] = h1
        order = self.order
        for i in range(end):
            order[i] = 1000 if (buf[i] >> 18) & 127 else 0
        now_ms()
        _sort(buf, order, 0, end)
        now_ms()
        self.best = buf[0]
        if self._blunder_pick(buf, 0, end):
            return self.best
        self._fill_noise(self.rnoise, 0, end)
        now_ms()
        self._deepen(1, end)
        return self.best

    def _root(self, depth, end):
        """Search the root moves buf[0:end] (best first) to depth. Moves the
        best to the front, sets self.best; returns its score, or -INF when
        stopped before the first move was searched. Lower levels add a
        random bonus rnoise[i] to each root move's score."""
        p = self.pos
        buf = self.buf
        noise = self.rnoise
        side = p.side
        st = (side << 2) | p.score[side]
        keys = self.keys
        alpha = -INF
        best_i = -1
        i = 0
        while i < end:
            m = buf[i]
            b = noise[i]
            _child_keys(keys, 0, m, st)
            p.make(m)
            if i == 0:
                sc = -self._search(depth - 1, 1, -INF, INF, end)
            else:
                a = alpha - b
                sc = -self._search(depth - 1, 1, -a - 1, -a, end)
                if sc > a and not self.stop:
                    sc = -self._search(depth - 1, 1, -INF, -a, end)
            p.unmake(m)
            if self.stop:
                break
            if -WIN_BOUND < sc < WIN_BOUND:
                sc += b
            if sc > alpha:
                alpha = sc
                best_i = i
                self.best = m
            i += 1
        if best_i > 0:
            engine_kit.to_front(buf, noise, best_i)
        if best_i < 0:
            return -INF
        return alpha

    # -- the tree ----------------------------------------------------------

    def _search(self, depth, ply, alpha, beta, start):
        # (the node count and clock read, game_over and the key look-ups
        # written out: a call is dear in bytecode and this runs at every node.)
        n = self.nodes + 1
        self.nodes = n
        if (n & CLOCK_EVERY) == 0:
            if (n & CHECK_EVERY) == 0 and self.max_nodes and n >= self.max_nodes:
                self.stop = True
            elif ticks_diff(self.now_ms(), self.deadline) >= 0:
                self.stop = True
        if self.stop:
            return 0
        p = self.pos
        score = p.score
        if score[0] >= core.WIN_TRIADS or score[1] >= core.WIN_TRIADS:
            return ply - WIN
        keys = self.keys
        kj = ply + ply
        h1 = keys[kj]
        if _repeated(self.rep, self.rep_base + ply, h1):
            return 0
        if depth <= 0 or ply >= MAX_PLY - 1:
            return self._quiesce(ply, alpha, beta, start)
        buf = self.buf
        if start + core.MAX_MOVES > self.stack:
            return evaluate_parts(p.board, score, p.side)
        # Transposition table.
        h2 = keys[kj + 1]
        idx = h1 & self.tt_mask
        ttm = 0
        if self.tt_lock[idx] == h2:
            ttm = self.tt_move[idx]
            info = self.tt_info[idx]
            if (info >> 16) & 63 >= depth:
                sc = (info & 0xFFFF) - 32768
                if sc >= WIN_BOUND:
                    sc -= ply
                elif sc <= -WIN_BOUND:
                    sc += ply
                flag = info >> 22
                if flag == EXACT:
                    return sc
                if flag == LOWER:
                    if sc >= beta:
                        return sc
                elif sc <= alpha:
                    return sc
        end = p.gen(buf, start)
        if end == start:
            return evaluate_parts(p.board, score, p.side)
        order = self.order
        hist = self.hist
        k1 = self.killers[kj]
        k2 = self.killers[kj + 1]
        _order_moves(buf, order, start, end, ttm, k1, k2, hist)
        side = p.side
        other = side ^ 1
        board = p.board
        st = (side << 2) | score[side]
        alpha0 = alpha
        best = -INF
        bestm = 0
        n = 0
        i = start
        while i < end:
            if n < PICK_FIRST:
                _pick(buf, order, i, end)
            m = buf[i]
            _child_keys(keys, kj, m, st)
            _make(board, score, m, side)
            p.side = other
            if n == 0:
                sc = -self._search(depth - 1, ply + 1, -beta, -alpha, end)
            else:
                sc = -self._search(depth - 1, ply + 1, -alpha - 1, -alpha, end)
                if alpha < sc < beta and not self.stop:
                    sc = -self._search(depth - 1, ply + 1, -beta, -alpha, end)
            p.side = side
            _unmake(board, score, m, side)
            if self.stop:
                return 0
            n += 1
            if sc > best:
                best = sc
                bestm = m
                if sc > alpha:
                    alpha = sc
                    if sc >= beta:
                        if not (m >> 18) & 127:
                            if m != k1:
                                self.killers[kj + 1] = k1
                                self.killers[kj] = m
                            ci = CELL_INDEX
                            hi = ci[m & 127] * 36 + ci[(m >> 7) & 127]
                            v = hist[hi] + depth * depth
                            if v > 60000:
                                for j in range(36 * 36):
                                    hist[j] >>= 1
                                v >>= 1
                            hist[hi] = v
                        break
            i += 1
        # Store.
        if best >= beta:
            flag = LOWER
        elif best > alpha0:
            flag = EXACT
        else:
            flag = UPPER
        sc = best
        if sc >= WIN_BOUND:
            sc += ply
        elif sc <= -WIN_BOUND:
            sc -= ply
        tl = self.tt_lock
        if tl[idx] != h2 or (self.tt_info[idx] >> 16) & 63 <= depth:
            tl[idx] = h2
            self.tt_move[idx] = bestm
            self.tt_info[idx] = (sc + 32768) | (depth << 16) | (flag << 22)
        return best

    def _quiesce(self, ply, alpha, beta, start):
        """Stand pat or take a Triad."""
        p = self.pos
        board = p.board
        score = p.score
        side = p.side
        stand = evaluate_parts(board, score, side)
        if stand >= beta:
            return stand
        out = OUT
        nthreats = out[3]
        # No Triad-forming move is possible unless the evaluation saw a
        # threat; Note 2 positions (no regular move) use the full generator.
        if nthreats == 0 and out[1] > 0:
            return stand
        if start + core.MAX_MOVES > self.stack or ply >= MAX_PLY - 1:
            return stand
        if stand > alpha:
            alpha = stand
        buf = self.buf
        if out[1] == 0 or nthreats >= MAX_THREATS:
            end = p.gen(buf, start)
        else:
            end = _gen_triads_fast(p.board, p.side, buf, start)
        i = start
        while i < end:
            m = buf[i]
            i += 1
            if not (m >> 18) & 127:
                continue
            # The node count and the clock read written out, as in _search:
            # the board's tick runs from this clock read (the thinker's
            # clock), at the search's deepest point, and a method call here
            # put about 330 bytes more of the 8 KiB C stack under it
            # (docs/performance.md, "C stack margin").
            n = self.nodes + 1
            self.nodes = n
            if (n & CLOCK_EVERY) == 0:
                if (n & CHECK_EVERY) == 0 and self.max_nodes and n >= self.max_nodes:
                    self.stop = True
                elif ticks_diff(self.now_ms(), self.deadline) >= 0:
                    self.stop = True
            if self.stop:
                return 0
            _make(board, score, m, side)
            p.side = side ^ 1
            if score[side] >= core.WIN_TRIADS:
                sc = WIN - ply - 1
            else:
                sc = -self._quiesce(ply + 1, -beta, -alpha, end)
            p.side = side
            _unmake(board, score, m, side)
            if self.stop:
                return 0
            if sc > alpha:
                alpha = sc
                if sc >= beta:
                    return sc
        return alpha
