# Rules core of Don Cornelson's TRIAD. Pure: no hardware, no time, no I/O.
# Geometry and space numbering: geometry.py. Rule readings: docs/cornelson.md.
#
# State: posts[37] (0 empty, 1 South gem, 2 North gem); jewel[6], the space
# of each jewel slot (side*3 + k, NONE when the slot is empty or the jewel
# was removed from play); flags[6], 1 when that jewel arrived on its portal
# by transfer; occ[72], slot+1 of the jewel on each space; tally[2]; side;
# mode; result/reason (set by make when a turn ends the game).
#
# A turn is one int (21 bits, a small int on the RP2040):
#   bits  0..5   post of the placed gem, NO_POST (63) when none is vacant
#   bits  6..7   number of jewel steps
#   bits  8..19  up to three steps in an executable order, 4 bits each:
#                slot of the mover's jewel (0..2) | exit index << 2
#   bit   20     STUCK: no step set and no breach; the mover loses by Trap
#   bits 21..26  KEEP: 0, or 1 + the captures kept when the rest of the chain
#                was forfeited (rule 3.1: a jewel lifted before every captured
#                gem was swapped); only gen_forfeit writes it
#   bit   27     NONZERO: set on the one turn that would be 0 (the gem on A1
#                and nothing else: capture mode, or a capture win), as 0
#                means "no move" to the board and to the engines (issue 23:
#                the board's side never moved when A1 was its best turn).
#                Every field above reads the same without it.
# Captures are implied by the placement (they are forced). make() keeps an
# undo record per turn in a ring of RING records (jewels before the turn,
# and the capture chain in the order it happened), so unmake() is exact for
# the last RING turns: plenty for search, perft and take-backs.
from array import array

from triad.compat import MICROPYTHON, const, micropython, ptr8, ptr32
from triad.games import engine_kit
from triad.games.cornelson import geometry as g

SOUTH = const(0)
NORTH = const(1)
NONE = const(255)
NO_POST = const(63)
STUCK = const(1 << 20)
KEEP_SHIFT = const(21)
NONZERO = const(1 << 27)
WIN_TALLY = const(10)
DRAW = const(255)

# Position.mode is a set of rule bits: which outcomes end the game, and
# whether jewels play. Every rule that differs between the games follows
# from them: without RULE_BREACH opponent docks cannot be entered; without
# RULE_TRAP trapped opponent jewels leave play and a player who cannot step
# every jewel steps as many as possible; without RULE_CAPTURE a tally of 10
# wins nothing. The four games of the rulebook, and the tourney's later
# games (12.2-12.4, tourney.py), are combinations of them.
RULE_BREACH = const(1)
RULE_TRAP = const(2)
RULE_CAPTURE = const(4)
RULE_JEWELS = const(8)
MODE_STANDARD = const(15)
MODE_BREACH = const(9)  # 13.1
MODE_TRAP = const(10)  # 13.2
MODE_CAPTURE = const(4)  # 13.3
MODE_NAMES = ("standard", "breach", "trap", "capture")
MODE_VALUES = bytes((MODE_STANDARD, MODE_BREACH, MODE_TRAP, MODE_CAPTURE))

# Why a game ended (Position.reason).
WHY_NONE = const(0)
WHY_BREACH = const(1)
WHY_TRAP = const(2)
WHY_CAPTURE = const(3)
WHY_STUCK = const(4)  # the loser could not move its jewels: a Trap for the winner
WHY_FULL = const(5)  # full board, no jewels in play: draw
WHY_NAMES = ("", "breach", "trap", "capture", "trap", "draw")

# One placement has at most 27 full step sets (three jewels, three exits)
# or breach steps instead of some of them, or (breach mode) 27 sets of two.
MAX_SETS = const(32)
MAX_MOVES = const(37 * 30)

RING = const(64)
REC = const(48)  # [0] 1 + captures, [1..6] jewels, [7] flags, [8..] chain

_EXIT_TO = g.EXIT_TO
_EXIT_BORDER = g.EXIT_BORDER
_BU = g.BORDER_U
_BV = g.BORDER_V
_DOCK_OWNER = g.DOCK_OWNER
_LINE1 = g.LINE1
_LINE2 = g.LINE2
_FIRST_SPACE = const(37)


def step_code(m, i):
    """The i-th step of turn m: slot | exit << 2."""
    return (m >> (8 + 4 * i)) & 15


def n_steps(m):
    return (m >> 6) & 3


def removed_jewels(jewel, ob, o0, o1, o2):
    """Which of the opponent's jewels, o0 to o2 at jewel[ob..ob+2] before a
    turn, the turn just made took out of play (a breach game's trapped
    jewels): bits 1, 2 and 4."""
    gone = 0
    if o0 != NONE and jewel[ob] == NONE:
        gone |= 1
    if o1 != NONE and jewel[ob + 1] == NONE:
        gone |= 2
    if o2 != NONE and jewel[ob + 2] == NONE:
        gone |= 4
    return gone


def post_of(m):
    return m & 63


class Position:
    def __init__(self):
        self.posts = bytearray(g.N_POSTS)
        self.jewel = bytearray(b"\xff\xff\xff\xff\xff\xff")
        self.flags = bytearray(6)
        self.occ = bytearray(g.N_SPACES)
        self.tally = [0, 0]
        self.filled = 0
        self.side = SOUTH
        self.mode = MODE_STANDARD
        # The board's tourney setting (the face's apply_setting): in a
        # tourney, mode follows the Game Tally code `series` (tourney.py).
        self.in_tourney = False
        self.series = 0
        self.result = -1
        self.reason = WHY_NONE
        self._ring = bytearray(RING * REC)
        self._ply = 0
        # Scratch for gen: step sets without and with a capture, the capture
        # queue, and the candidate steps of each jewel.
        self._sets = array("i", bytes(4 * MAX_SETS))
        self._sets2 = array("i", bytes(4 * MAX_SETS))
        self._q = bytearray(40)
        self._org = bytearray(3)
        self._cn = bytearray(3)
        self._ct = bytearray(9)
        self._cc = bytearray(9)
        self._pick = bytearray(3)
        self._barrier = bytearray(g.N_POSTS)
        self._cap = bytearray(g.N_POSTS)  # gen: vacant posts that capture
        self._capq = bytearray(g.N_POSTS)  # count: those posts, each once
        self._marked = False  # _barrier holds the marks of _mark_barriers(1)

    def copy(self):
        p = Position()
        p.set_from(self)
        return p

    def set_from(self, o):
        """Become a copy of o (without its undo records) without allocating."""
        # (element by element: a slice assignment allocates its slice on the
        # RP2040's MicroPython, as the 32-bit unix build's heap-lock test shows)
        posts = self.posts
        for i in range(len(posts)):
            posts[i] = o.posts[i]
        for i in range(6):
            self.jewel[i] = o.jewel[i]
            self.flags[i] = o.flags[i]
        occ = self.occ
        for i in range(len(occ)):
            occ[i] = o.occ[i]
        self.tally[0] = o.tally[0]
        self.tally[1] = o.tally[1]
        self.filled = o.filled
        self.side = o.side
        self.mode = o.mode
        self.in_tourney = o.in_tourney
        self.series = o.series
        self.result = o.result
        self.reason = o.reason
        self._ply = 0

    def __eq__(self, o):
        return (
            isinstance(o, Position)
            and self.posts == o.posts
            and self.jewel == o.jewel
            and self.flags == o.flags
            and self.tally == o.tally
            and self.side == o.side
            and self.mode == o.mode
        )

    def put_jewel(self, slot, space, transferred=0):
        old = self.jewel[slot]
        if old != NONE:
            self.occ[old] = 0
        self.jewel[slot] = space
        self.flags[slot] = transferred if space != NONE else 0
        if space != NONE:
            self.occ[space] = slot + 1

    def set_post(self, p, v):
        if self.posts[p] and not v:
            self.filled -= 1
        elif v and not self.posts[p]:
            self.filled += 1
        self.posts[p] = v

    def jewels_in_play(self):
        if not self.mode & RULE_JEWELS:
            return 0
        n = 0
        for i in range(6):
            if self.jewel[i] != NONE:
                n += 1
        return n

    # -- captures -------------------------------------------------------

    def _place(self, p, q, off, limit=99):
        """Place the mover's gem on p and resolve the capture chain, at most
        `limit` captures; q[off:] receives p then each captured post in chain
        order. Returns the count of q entries (1 + captures)."""
        n = _place_chain(self.posts, q, off, p, self.side + 1, 2 - self.side, limit)
        self.tally[self.side] += n - 1
        return n

    def _unplace(self, q, off, count):
        _unplace_chain(self.posts, q, off, count, 2 - self.side)
        self.tally[self.side] -= count - 1

    def _captures(self, p):
        """True when a gem of the mover on p would capture."""
        posts = self.posts
        own = self.side + 1
        opp = 2 - self.side
        i = p * 6
        for d in range(6):
            a = _LINE1[i + d]
            if a != NONE and posts[a] == opp and posts[_LINE2[i + d]] == own:
                return True
        return False

    def _capture_wins(self):
        return self.tally[self.side] >= WIN_TALLY and self.mode & RULE_CAPTURE

    # -- jewel steps ----------------------------------------------------

    def _step_sets(self, out):
        """The jewel part of every legal turn for the current posts, as ints
        to OR with a placement: breach singles, then each executable set
        once in one executable order (or the STUCK turn). Returns the count."""
        mode = self.mode
        # Each jewel's open exits, and the sets of all three (the usual
        # case) in one call: _jewel_sets.
        x = _jewel_sets(self.jewel, self.flags, self.posts, self.occ, self.side, mode & RULE_BREACH, self._org,
                        self._cn, self._ct, self._cc, out)
        end = x & 63
        nout = (x >> 6) & 63
        n = x >> 12
        full = (1 << n) - 1
        if n < 3:
            end = self._combine(out, nout, n, full)
        if end > nout:
            return end
        if not mode & RULE_TRAP:
            # No loss by Trap: move as many jewels as possible.
            size = n - 1
            while size >= 0:
                for mask in range(full):
                    if (mask & 1) + ((mask >> 1) & 1) + (mask >> 2) == size:
                        end = self._combine(out, end, n, mask)
                if end > nout:
                    return end
                size -= 1
            return end
        if nout == 0:
            out[0] = STUCK
            return 1
        return nout

    def _combine(self, out, nout, n, mask):
        """Append each executable set in which exactly the jewels of mask
        step (the others stay), in an order where every step's target is
        empty when it is made: a step onto a space held by an own jewel comes
        after that jewel's step; a cycle (a swap) has no such order."""
        org = self._org
        cn = self._cn
        ct = self._ct
        cc = self._cc
        pick = self._pick
        total = 1
        for i in range(n):
            if (mask >> i) & 1:
                total *= cn[i]
        for idx in range(total):
            r = idx
            for i in range(n):
                if (mask >> i) & 1:
                    c = cn[i]
                    pick[i] = i * 3 + r % c
                    r //= c
            ok = True
            for i in range(n):
                if not (mask >> i) & 1:
                    continue
                t = ct[pick[i]]
                for j in range(n):
                    if (mask >> j) & 1:
                        if j < i and ct[pick[j]] == t:
                            ok = False
                    elif org[j] == t:
                        ok = False
                if not ok:
                    break
            if not ok:
                continue
            remaining = mask
            code = 0
            cnt = 0
            while remaining:
                before = remaining
                for i in range(n):
                    if not (remaining >> i) & 1:
                        continue
                    t = ct[pick[i]]
                    free = True
                    for j in range(n):
                        if j != i and (remaining >> j) & 1 and org[j] == t:
                            free = False
                            break
                    if free:
                        code |= cc[pick[i]] << (8 + 4 * cnt)
                        cnt += 1
                        remaining &= ~(1 << i)
                if remaining == before:
                    break
            if remaining:
                continue
            out[nout] = (cnt << 6) | code
            nout += 1
        return nout

    def _trapped(self, slot):
        """True when the jewel in slot cannot step anywhere (_trapped_mask)."""
        return _trapped_mask(self.jewel, self.flags, self.posts, self.occ, slot, 1, self.mode & RULE_BREACH) != 0

    # -- generation -----------------------------------------------------

    def gen(self, buf, start=0, sel=-1):
        """Write the legal turns into buf from index start; return the end.
        With sel >= 0 only the turns that may begin at site sel
        (begins_at: the placed post, or when no post is vacant any jewel
        the turn steps).
        Allocates nothing."""
        if self.result != -1:
            return start
        posts = self.posts
        vacant = self.filled < g.N_POSTS
        if sel >= 0 and vacant and (sel >= g.N_POSTS or posts[sel]):
            # A post is vacant, so every turn begins with the gem on one:
            # no turn begins at sel. (The board asks this for each of the
            # mover's pieces when one is lifted that cannot begin a turn:
            # 6 ms a piece of bytecode on the chip.)
            return start
        jewels = self.mode & RULE_JEWELS
        sets = self._sets
        if jewels:
            ns = self._step_sets(sets)
        else:
            sets[0] = 0
            ns = 1
        n = start
        if vacant:
            self._mark_captures()
            cap = self._cap
            sets2 = self._sets2
            for p in range(g.N_POSTS):
                if posts[p]:
                    continue
                if sel >= 0 and p != sel:
                    cap[p] = 0  # (every marked post is cleared: see _mark_captures)
                    continue
                if not cap[p]:
                    for j in range(ns):
                        buf[n] = p | sets[j]
                        n += 1
                    continue
                cap[p] = 0
                k = self._capture_sets(p, jewels)
                if k < 0:
                    buf[n] = p
                    n += 1
                elif k == 0:
                    for j in range(ns):
                        buf[n] = p | sets[j]
                        n += 1
                else:
                    for j in range(k):
                        buf[n] = p | sets2[j]
                        n += 1
            if self._marked:
                self._mark_barriers(0)
            if not posts[0]:
                # A1's turns come first (posts in order): the one that is 0
                # gets NONZERO (see the header).
                i = start
                while i < n and buf[i] & 63 == 0:
                    if buf[i] == 0:
                        buf[i] = NONZERO
                    i += 1
        else:
            for j in range(ns):
                buf[n] = NO_POST | sets[j]
                n += 1
        if sel >= 0:
            k = start
            for i in range(start, n):
                m = buf[i]
                if self.begins_at(m, sel):
                    buf[k] = m
                    k += 1
            n = k
        return n

    def _mark_captures(self):
        """Mark in _cap the vacant posts where the mover's gem captures
        (_mark_caps), each also once into _capq; returns their count. The
        caller clears every mark it set."""
        self._marked = False
        return _mark_caps(self.posts, self._cap, self._capq, self.side + 1, 2 - self.side)

    def _capture_sets(self, p, jewels):
        """The jewel part of the turns placing on p, a post where the mover
        captures: -1 when the placement is the whole turn (a Capture win, or
        no jewels), 0 when the step sets are those without the placement
        (captures only turn opponent gems into the mover's, so they can only
        open Barriers in the mover's way: the sets change only when a
        captured gem is a post of such a Barrier), else the count of the
        sets written into _sets2."""
        if not self._marked:
            self._mark_barriers(1)
            self._marked = True
        q = self._q
        cnt = self._place(p, q, 0)
        k = 0
        if self._capture_wins() or not jewels:
            k = -1
        else:
            barrier = self._barrier
            for i in range(1, cnt):
                if barrier[q[i]]:
                    k = self._step_sets(self._sets2)
                    break
        self._unplace(q, 0, cnt)
        return k

    def count(self, buf, start=0):
        """The number of legal turns, what gen(buf, start) would return
        minus start, without writing them (perft's last ply): the turns of a
        post that captures nothing are its step sets, so only the capturing
        posts are looked at. Allocates nothing; buf is unused."""
        if self.result != -1:
            return 0
        jewels = self.mode & RULE_JEWELS
        ns = self._step_sets(self._sets) if jewels else 1
        vacant = g.N_POSTS - self.filled
        if not vacant:
            return ns
        nc = self._mark_captures()
        n = (vacant - nc) * ns
        cap = self._cap
        capq = self._capq
        for i in range(nc):
            p = capq[i]
            cap[p] = 0
            k = self._capture_sets(p, jewels)
            n += 1 if k < 0 else (ns if k == 0 else k)
        if self._marked:
            self._mark_barriers(0)
        return n

    def gen_forfeit(self, buf, start, p, kept):
        """The turns placing on p when only the first `kept` captures of its
        chain were made and the rest forfeited (rule 3.1); those gems stay
        the opponent's. Written into buf from start; returns the end. Their
        text is that of the full turn: the notation has no forfeit."""
        if self.result != -1 or p >= g.N_POSTS or self.posts[p]:
            return start
        q = self._q
        cnt = self._place(p, q, 0, kept)
        tag = p | ((kept + 1) << KEEP_SHIFT)
        n = start
        if self._capture_wins() or not self.mode & RULE_JEWELS:
            buf[n] = tag
            n += 1
        else:
            sets2 = self._sets2
            for j in range(self._step_sets(sets2)):
                buf[n] = tag | sets2[j]
                n += 1
        self._unplace(q, 0, cnt)
        return n

    def _mark_barriers(self, v):
        """Set _barrier[post] = v for the posts of the Barriers on the mover's
        jewels' exits (v = 0 clears what v = 1 marked): _mark_bars."""
        _mark_bars(self._barrier, self.posts, self.jewel, self.side, v)

    def first_site(self, m):
        p = m & 63
        if p != NO_POST:
            return p
        jw = self.jewel
        if (m >> 6) & 3:
            return _FIRST_SPACE + jw[self.side * 3 + ((m >> 8) & 3)]
        # The empty turn (a full board, no jewel to step): in a game without
        # the Trap rule it may leave an opponent jewel trapped, which leaves
        # play, and its footprint begins there (the person takes it off);
        # else it has no site.
        ob = (self.side ^ 1) * 3
        o0 = jw[ob]
        o1 = jw[ob + 1]
        o2 = jw[ob + 2]
        if o0 == NONE and o1 == NONE and o2 == NONE:
            return -1
        self.make(m)
        gone = removed_jewels(jw, ob, o0, o1, o2)
        self.unmake(m)
        if gone & 1:
            return _FIRST_SPACE + o0
        if gone & 2:
            return _FIRST_SPACE + o1
        if gone & 4:
            return _FIRST_SPACE + o2
        return -1

    def begins_at(self, m, sel):
        """May turn m begin at site sel (gen(sel) keeps those turns)? A turn
        with a gem begins at its post (rule 3.1: the gem first). A turn
        without one is its jewels' steps, which a person makes in any order
        (rule 2.2.3 names no order; the board's footprint lists them in one
        executable order, and the board's matcher takes its lifts in any
        order): it may begin at the space of any jewel it steps, so it is
        kept for each of them (issue 35: lifting first a jewel that was not
        first in the board's order matched nothing, and the board called a
        legal step a fault). The empty turn begins at first_site."""
        p = m & 63
        if p != NO_POST:
            return p == sel
        k = (m >> 6) & 3
        if k:
            jw = self.jewel
            base = self.side * 3
            for i in range(k):
                if _FIRST_SPACE + jw[base + ((m >> (8 + 4 * i)) & 3)] == sel:
                    return True
            return False
        return self.first_site(m) == sel

    def legal_moves(self, sel=-1):
        """The legal turns as a new list (convenient, allocates)."""
        buf = array("i", bytes(4 * MAX_MOVES))
        n = self.gen(buf, 0, sel)
        return [buf[i] for i in range(n)]

    # -- make / unmake ----------------------------------------------------

    def make(self, m):
        # The turn's whole change of the posts and jewels is one call
        # (_make_turn: the undo record, the capture chain, the steps, the
        # opponent's trapped jewels); here only what Python keeps.
        side = self.side
        tally = self.tally
        x = _make_turn(m, side, self.mode, tally[side], self.posts, self.jewel, self.flags, self.occ, self._ring,
                       (self._ply % RING) * REC)
        cnt = x & 255
        if cnt:
            self.filled += 1
            tally[side] += cnt - 1
        why = x >> 8
        if why:
            self.result = side ^ 1 if why == WHY_STUCK else side
            self.reason = why
        elif self.filled == g.N_POSTS and self.result == -1 and not self.jewels_in_play():
            self.result = DRAW
            self.reason = WHY_FULL
        self.side = side ^ 1
        self._ply += 1

    def unmake(self, m):
        self._ply -= 1
        side = self.side ^ 1
        self.side = side
        cnt = _unmake_turn(self._ring, (self._ply % RING) * REC, self.posts, self.jewel, self.flags, self.occ,
                           2 - side)
        if cnt:
            self.tally[side] -= cnt - 1
            self.filled -= 1
        self.result = -1
        self.reason = WHY_NONE

    def last_record(self):
        """Offset in _ring of the last make's undo record: [r] is the length
        of its chain (0 without a placement) and [r+8 ...] the chain, the
        placed post then each captured post in the order captured."""
        return ((self._ply - 1) % RING) * REC

    # -- outcome of a position given as text ----------------------------

    def derive_result(self):
        """Set result/reason from the position alone (after parsing or a mode
        change): a jewel on an opponent dock, a tally of 10, a trapped jewel
        of the side to move, a full board without jewels. A loss by being
        stuck is known only from the turn (make), not from the position."""
        self.result = -1
        self.reason = WHY_NONE
        mode = self.mode
        if mode & RULE_JEWELS and mode & RULE_BREACH:
            for slot in range(6):
                s = self.jewel[slot]
                if s != NONE and _DOCK_OWNER[s] == 2 - slot // 3:
                    self.result = slot // 3
                    self.reason = WHY_BREACH
                    return
        if mode & RULE_CAPTURE:
            for side in (SOUTH, NORTH):
                if self.tally[side] >= WIN_TALLY:
                    self.result = side
                    self.reason = WHY_CAPTURE
                    return
        if mode & RULE_JEWELS and mode & RULE_TRAP:
            b = self.side * 3
            for slot in range(b, b + 3):
                if self.jewel[slot] != NONE and self._trapped(slot):
                    self.result = self.side ^ 1
                    self.reason = WHY_TRAP
                    return
        if self.filled == g.N_POSTS and not self.jewels_in_play():
            self.result = DRAW
            self.reason = WHY_FULL


# -- the hot loops: one plain-Python and one viper path each ----------------
#
# The _py functions are the readable ones; the _v ones the same loops in
# viper form (machine-word ints, ptr8/ptr32 access). MicroPython runs the
# viper path, CPython the plain one; tests/fw/test_cornelson_core.py holds
# them equal (on CPython the decorator and the casts are no-ops, so the
# viper source runs there too).

_NP = const(37)  # g.N_POSTS, for viper
_NO = const(255)  # NONE, for viper


def _mark_caps_py(posts, cap, capq, own, opp):
    """The vacant posts where a gem `own` captures, found from own's gems
    (an own gem x, an opponent's at x+d, x+2d vacant: few gems early in a
    game, where asking each vacant post was most of gen): cap[b] = 1 and b
    once into capq; returns their count."""
    nc = 0
    for x in range(_NP):
        if posts[x] == own:
            i = x * 6
            for d in range(6):
                b = _LINE2[i + d]
                if b != NONE and not posts[b] and posts[_LINE1[i + d]] == opp and not cap[b]:
                    cap[b] = 1
                    capq[nc] = b
                    nc += 1
    return nc


@micropython.viper
def _mark_caps_v(posts: ptr8, cap: ptr8, capq: ptr8, own: int, opp: int) -> int:
    l1 = ptr8(_LINE1)
    l2 = ptr8(_LINE2)
    nc = 0
    x = 0
    while x < _NP:
        if posts[x] == own:
            i = x * 6
            e = i + 6
            while i < e:
                b = l2[i]
                if b != _NO and posts[b] == 0 and posts[l1[i]] == opp and cap[b] == 0:
                    cap[b] = 1
                    capq[nc] = b
                    nc += 1
                i += 1
        x += 1
    return nc


def _place_chain_py(posts, q, off, p, own, opp, limit):
    """A gem `own` on p and its capture chain (at most limit captures):
    q[off:] receives p then each captured post in chain order. Returns
    1 + captures."""
    posts[p] = own
    q[off] = p
    head = off
    tail = off + 1
    while head < tail:
        i = q[head] * 6
        head += 1
        for d in range(6):
            a = _LINE1[i + d]
            if a != NONE and posts[a] == opp and posts[_LINE2[i + d]] == own:
                if tail - off > limit:
                    break
                posts[a] = own
                q[tail] = a
                tail += 1
    return tail - off


@micropython.viper
def _place_chain_v(posts: ptr8, q: ptr8, off: int, p: int, own: int, opp: int, limit: int) -> int:
    l1 = ptr8(_LINE1)
    l2 = ptr8(_LINE2)
    posts[p] = own
    q[off] = p
    head = off
    tail = off + 1
    while head < tail:
        i = int(q[head]) * 6
        e = i + 6
        head += 1
        while i < e:
            a = l1[i]
            if a != _NO and posts[a] == opp and posts[l2[i]] == own:
                if tail - off > limit:
                    break
                posts[a] = own
                q[tail] = a
                tail += 1
            i += 1
    return tail - off


def _unplace_chain_py(posts, q, off, count, opp):
    for i in range(off + 1, off + count):
        posts[q[i]] = opp
    posts[q[off]] = 0


@micropython.viper
def _unplace_chain_v(posts: ptr8, q: ptr8, off: int, count: int, opp: int):
    i = off + 1
    e = off + count
    while i < e:
        posts[q[i]] = opp
        i += 1
    posts[q[off]] = 0


def _save_jewels_py(ring, r, jewel, flags):
    """The undo record's jewels: ring[r+1..r+6] the slots' spaces, ring[r+7]
    the transfer flags as bits."""
    fl = 0
    for i in range(6):
        ring[r + 1 + i] = jewel[i]
        fl |= flags[i] << i
    ring[r + 7] = fl


def _restore_jewels_py(ring, r, jewel, flags, occ):
    """Back to the jewels of the undo record at r (occ follows)."""
    for i in range(6):
        s = jewel[i]
        if s != NONE:
            occ[s] = 0
    fl = ring[r + 7]
    for i in range(6):
        s = ring[r + 1 + i]
        jewel[i] = s
        flags[i] = (fl >> i) & 1
        if s != NONE:
            occ[s] = i + 1


def _combine3_py(out, nout, org, cn, ct, cc):
    """_combine for the usual case, all three jewels stepping, as nested
    loops: d_i names the jewel standing on jewel i's target (3: none),
    which must step before it."""
    o0 = org[0]
    o1 = org[1]
    o2 = org[2]
    e1 = 3 + cn[1]
    e2 = 6 + cn[2]
    for a in range(cn[0]):
        t0 = ct[a]
        d0 = 1 if t0 == o1 else (2 if t0 == o2 else 3)
        for b in range(3, e1):
            t1 = ct[b]
            if t1 == t0:
                continue
            d1 = 0 if t1 == o0 else (2 if t1 == o2 else 3)
            for c in range(6, e2):
                t2 = ct[c]
                if t2 == t0 or t2 == t1:
                    continue
                d2 = 0 if t2 == o0 else (1 if t2 == o1 else 3)
                if d0 == 3 and d1 == 3 and d2 == 3:
                    out[nout] = 192 | (cc[a] << 8) | (cc[b] << 12) | (cc[c] << 16)
                    nout += 1
                    continue
                done = 0
                code = 192
                sh = 8
                for _ in range(3):
                    if not done & 1 and (d0 == 3 or (done >> d0) & 1):
                        code |= cc[a] << sh
                        done |= 1
                    elif not done & 2 and (d1 == 3 or (done >> d1) & 1):
                        code |= cc[b] << sh
                        done |= 2
                    elif not done & 4 and (d2 == 3 or (done >> d2) & 1):
                        code |= cc[c] << sh
                        done |= 4
                    else:
                        break
                    sh += 4
                if done == 7:
                    out[nout] = code
                    nout += 1
    return nout


def _jewel_sets_py(jewel, flags, posts, occ, side, breach, org, cn, ct, cc, out):
    """The first part of Position._step_sets: each in-play jewel of side
    (n of them) in org[], its count of open exits (neither a breach nor a
    transfer back) in cn[] and those exits' targets and step codes in
    ct[]/cc[] (three places a jewel); each breach step into out[] as a turn
    of its own (nout of them); then, when all three jewels are in play, the
    sets of three steps after those (_combine3_py). Returns end | nout << 6
    | n << 12, end the count written (nout when n < 3)."""
    opp_gem = 2 - side
    base = side * 3
    n = 0
    nout = 0
    for k in range(3):
        s = jewel[base + k]
        if s == NONE:
            continue
        org[n] = s
        c = 0
        for e in range(3):
            i = s * 3 + e
            t = _EXIT_TO[i]
            if t == NONE:
                continue
            b = _EXIT_BORDER[i]
            if b == NONE:
                if flags[base + k]:
                    continue
            elif posts[_BU[b]] == opp_gem and posts[_BV[b]] == opp_gem:
                continue
            o = occ[t]
            if o and (o - 1) // 3 != side:
                continue
            dk = _DOCK_OWNER[t]
            if dk:
                if dk == side + 1 or not breach:
                    continue
                out[nout] = 64 | ((k | (e << 2)) << 8)
                nout += 1
                continue
            ct[n * 3 + c] = t
            cc[n * 3 + c] = k | (e << 2)
            c += 1
        cn[n] = c
        n += 1
    end = nout
    if n == 3:
        end = _combine3_py(out, nout, org, cn, ct, cc)
    return end | (nout << 6) | (n << 12)


@micropython.viper
def _jewel_sets_v(jewel: ptr8, flags: ptr8, posts: ptr8, occ: ptr8, side: int, breach: int, org: ptr8, cn: ptr8,
                  ct: ptr8, cc: ptr8, out: ptr32) -> int:
    """_jewel_sets_py in one viper body (every node's step sets)."""
    exit_to = ptr8(_EXIT_TO)
    exit_border = ptr8(_EXIT_BORDER)
    dock_owner = ptr8(_DOCK_OWNER)
    bu = ptr8(_BU)
    bv = ptr8(_BV)
    opp_gem = 2 - side
    base = side * 3
    n = 0
    nout = 0
    k = 0
    while k < 3:
        s = int(jewel[base + k])
        if s != _NO:
            org[n] = s
            c = 0
            e = 0
            while e < 3:
                i = s * 3 + e
                code = k | (e << 2)
                e += 1
                t = int(exit_to[i])
                if t == _NO:
                    continue
                b = int(exit_border[i])
                if b == _NO:
                    if flags[base + k] != 0:
                        continue
                elif int(posts[bu[b]]) == opp_gem and int(posts[bv[b]]) == opp_gem:
                    continue
                o = int(occ[t])
                if o != 0 and (1 if o > 3 else 0) != side:
                    continue
                dk = int(dock_owner[t])
                if dk != 0:
                    if dk == side + 1 or breach == 0:
                        continue
                    out[nout] = 64 | (code << 8)
                    nout += 1
                    continue
                ct[n * 3 + c] = t
                cc[n * 3 + c] = code
                c += 1
            cn[n] = c
            n += 1
        k += 1
    end = nout
    if n == 3:
        # _combine3_py: d_i names the jewel standing on jewel i's target
        # (3: none), which must step before it.
        o0 = int(org[0])
        o1 = int(org[1])
        o2 = int(org[2])
        e0 = int(cn[0])
        e1 = 3 + int(cn[1])
        e2 = 6 + int(cn[2])
        a = 0
        while a < e0:
            t0 = int(ct[a])
            d0 = 1 if t0 == o1 else (2 if t0 == o2 else 3)
            b = 3
            while b < e1:
                t1 = int(ct[b])
                if t1 == t0:
                    b += 1
                    continue
                d1 = 0 if t1 == o0 else (2 if t1 == o2 else 3)
                c = 6
                while c < e2:
                    t2 = int(ct[c])
                    if t2 == t0 or t2 == t1:
                        c += 1
                        continue
                    d2 = 0 if t2 == o0 else (1 if t2 == o1 else 3)
                    if d0 == 3 and d1 == 3 and d2 == 3:
                        out[end] = 192 | (int(cc[a]) << 8) | (int(cc[b]) << 12) | (int(cc[c]) << 16)
                        end += 1
                        c += 1
                        continue
                    done = 0
                    code = 192
                    sh = 8
                    k = 0
                    while k < 3:
                        if not (done & 1) and (d0 == 3 or (done >> d0) & 1):
                            code |= int(cc[a]) << sh
                            done |= 1
                        elif not (done & 2) and (d1 == 3 or (done >> d1) & 1):
                            code |= int(cc[b]) << sh
                            done |= 2
                        elif not (done & 4) and (d2 == 3 or (done >> d2) & 1):
                            code |= int(cc[c]) << sh
                            done |= 4
                        else:
                            break
                        sh += 4
                        k += 1
                    if done == 7:
                        out[end] = code
                        end += 1
                    c += 1
                b += 1
            a += 1
    return end | (nout << 6) | (n << 12)


def _trapped_mask_py(jewel, flags, posts, occ, first, n, breach):
    """Bit k set when the jewel in slot first + k (k < n, all one side's)
    is in play and cannot step anywhere, counting as blocked: a Barrier, a
    jewel of the other side, its own dock, the transfer of a jewel that just
    transferred and (without breach) the other side's docks. Its own side's
    jewels do not block."""
    mask = 0
    for k in range(n):
        slot = first + k
        s = jewel[slot]
        if s == NONE:
            continue
        jside = slot // 3
        mover_gem = 2 - jside
        free = False
        for e in range(3):
            i = s * 3 + e
            t = _EXIT_TO[i]
            if t == NONE:
                continue
            dk = _DOCK_OWNER[t]
            if dk and (dk == jside + 1 or not breach):
                continue
            b = _EXIT_BORDER[i]
            if b == NONE:
                if flags[slot]:
                    continue
            elif posts[_BU[b]] == mover_gem and posts[_BV[b]] == mover_gem:
                continue
            o = occ[t]
            if o and (o - 1) // 3 != jside:
                continue
            free = True
            break
        if not free:
            mask |= 1 << k
    return mask


@micropython.viper
def _trapped_mask_v(jewel: ptr8, flags: ptr8, posts: ptr8, occ: ptr8, first: int, n: int, breach: int) -> int:
    exit_to = ptr8(_EXIT_TO)
    exit_border = ptr8(_EXIT_BORDER)
    dock_owner = ptr8(_DOCK_OWNER)
    bu = ptr8(_BU)
    bv = ptr8(_BV)
    mask = 0
    k = 0
    while k < n:
        slot = first + k
        s = int(jewel[slot])
        if s != _NO:
            jside = 1 if slot >= 3 else 0
            mover_gem = 2 - jside
            free = 0
            e = 0
            while e < 3:
                i = s * 3 + e
                e += 1
                t = int(exit_to[i])
                if t == _NO:
                    continue
                dk = int(dock_owner[t])
                if dk != 0 and (dk == jside + 1 or breach == 0):
                    continue
                b = int(exit_border[i])
                if b == _NO:
                    if flags[slot] != 0:
                        continue
                elif int(posts[bu[b]]) == mover_gem and int(posts[bv[b]]) == mover_gem:
                    continue
                o = int(occ[t])
                if o != 0 and (1 if o > 3 else 0) != jside:
                    continue
                free = 1
                break
            if free == 0:
                mask |= 1 << k
        k += 1
    return mask


def _mark_bars_py(barrier, posts, jewel, side, v):
    """barrier[post] = v for both posts of each Barrier (two opponent gems)
    across an exit of one of side's jewels."""
    opp_gem = 2 - side
    base = side * 3
    for k in range(base, base + 3):
        s = jewel[k]
        if s == NONE:
            continue
        for e in range(3):
            b = _EXIT_BORDER[s * 3 + e]
            if b != NONE and posts[_BU[b]] == opp_gem and posts[_BV[b]] == opp_gem:
                barrier[_BU[b]] = v
                barrier[_BV[b]] = v


@micropython.viper
def _mark_bars_v(barrier: ptr8, posts: ptr8, jewel: ptr8, side: int, v: int):
    exit_border = ptr8(_EXIT_BORDER)
    bu = ptr8(_BU)
    bv = ptr8(_BV)
    opp_gem = 2 - side
    k = side * 3
    end = k + 3
    while k < end:
        s = int(jewel[k])
        if s != _NO:
            i = s * 3
            e = i + 3
            while i < e:
                b = int(exit_border[i])
                if b != _NO and int(posts[bu[b]]) == opp_gem and int(posts[bv[b]]) == opp_gem:
                    barrier[bu[b]] = v
                    barrier[bv[b]] = v
                i += 1
        k += 1


def _make_turn_py(m, side, mode, t, posts, jewel, flags, occ, ring, r):
    """Turn m of side (tally t before it) on posts and jewels: the undo
    record at ring[r] (the jewels, then the capture chain: [r] its length,
    0 without a placement), the gem and its captures, the jewel steps, and
    the opponent's jewels left without an exit (a Trap, or removed from play
    without RULE_TRAP). Returns the chain's length | why << 8, why the game
    ended (a WHY_*, WHY_STUCK for the mover's loss) or 0."""
    _save_jewels_py(ring, r, jewel, flags)
    cnt = 0
    p = m & 63
    if p != NO_POST:
        keep = (m >> KEEP_SHIFT) & 63
        cnt = _place_chain_py(posts, ring, r + 8, p, side + 1, 2 - side, keep - 1 if keep else 99)
    ring[r] = cnt
    if cnt > 1 and t + cnt - 1 >= WIN_TALLY and mode & RULE_CAPTURE:
        return cnt | (WHY_CAPTURE << 8)
    if m & STUCK:
        return cnt | (WHY_STUCK << 8)
    why = 0
    base = side * 3
    for i in range((m >> 6) & 3):
        c = (m >> (8 + 4 * i)) & 15
        slot = base + (c & 3)
        s = jewel[slot]
        x = s * 3 + (c >> 2)
        to = _EXIT_TO[x]
        occ[s] = 0
        occ[to] = slot + 1
        jewel[slot] = to
        flags[slot] = 1 if _EXIT_BORDER[x] == NONE else 0
        if _DOCK_OWNER[to] == 2 - side:
            why = WHY_BREACH
    if why == 0 and mode & RULE_JEWELS:
        ob = (side ^ 1) * 3
        tm = _trapped_mask_py(jewel, flags, posts, occ, ob, 3, mode & RULE_BREACH)
        if tm:
            if mode & RULE_TRAP:
                why = WHY_TRAP
            else:
                # (a side's own jewels never block it: removing one traps or
                # frees no other)
                for slot in range(ob, ob + 3):
                    if (tm >> (slot - ob)) & 1:
                        occ[jewel[slot]] = 0
                        jewel[slot] = NONE
                        flags[slot] = 0
    return cnt | (why << 8)


@micropython.viper
def _make_turn_v(m: int, side: int, mode: int, t: int, posts: ptr8, jewel: ptr8, flags: ptr8, occ: ptr8, ring: ptr8,
                 r: int) -> int:
    """_make_turn_py in one viper body (every node's make: the record, the
    chain and the trap check were three calls and a page of bytecode)."""
    exit_to = ptr8(_EXIT_TO)
    exit_border = ptr8(_EXIT_BORDER)
    dock_owner = ptr8(_DOCK_OWNER)
    l1 = ptr8(_LINE1)
    l2 = ptr8(_LINE2)
    bu = ptr8(_BU)
    bv = ptr8(_BV)
    fl = 0
    i = 0
    while i < 6:
        ring[r + 1 + i] = jewel[i]
        fl |= int(flags[i]) << i
        i += 1
    ring[r + 7] = fl
    cnt = 0
    p = m & 63
    if p != NO_POST:
        keep = (m >> KEEP_SHIFT) & 63
        limit = keep - 1 if keep != 0 else 99
        own = side + 1
        opp = 2 - side
        q = r + 8
        posts[p] = own
        ring[q] = p
        head = q
        tail = q + 1
        while head < tail:
            i = int(ring[head]) * 6
            e = i + 6
            head += 1
            while i < e:
                a = l1[i]
                if a != _NO and posts[a] == opp and posts[l2[i]] == own:
                    if tail - q > limit:
                        break
                    posts[a] = own
                    ring[tail] = a
                    tail += 1
                i += 1
        cnt = tail - q
    ring[r] = cnt
    if cnt > 1 and t + cnt - 1 >= WIN_TALLY and (mode & RULE_CAPTURE) != 0:
        return cnt | (WHY_CAPTURE << 8)
    if m & STUCK:
        return cnt | (WHY_STUCK << 8)
    why = 0
    base = side * 3
    n = (m >> 6) & 3
    k = 0
    while k < n:
        c = (m >> (8 + 4 * k)) & 15
        slot = base + (c & 3)
        s = int(jewel[slot])
        x = s * 3 + (c >> 2)
        to = int(exit_to[x])
        occ[s] = 0
        occ[to] = slot + 1
        jewel[slot] = to
        flags[slot] = 1 if int(exit_border[x]) == _NO else 0
        if int(dock_owner[to]) == 2 - side:
            why = WHY_BREACH
        k += 1
    if why == 0 and (mode & RULE_JEWELS) != 0:
        # _trapped_mask_v for the opponent's three slots
        breach = mode & RULE_BREACH
        ob = (side ^ 1) * 3
        jside = side ^ 1
        mover_gem = 2 - jside
        tm = 0
        k = 0
        while k < 3:
            slot = ob + k
            s = int(jewel[slot])
            if s != _NO:
                free = 0
                e = 0
                while e < 3:
                    i = s * 3 + e
                    e += 1
                    to = int(exit_to[i])
                    if to == _NO:
                        continue
                    dk = int(dock_owner[to])
                    if dk != 0 and (dk == jside + 1 or breach == 0):
                        continue
                    b = int(exit_border[i])
                    if b == _NO:
                        if flags[slot] != 0:
                            continue
                    elif int(posts[bu[b]]) == mover_gem and int(posts[bv[b]]) == mover_gem:
                        continue
                    o = int(occ[to])
                    if o != 0 and (1 if o > 3 else 0) != jside:
                        continue
                    free = 1
                    break
                if free == 0:
                    tm |= 1 << k
            k += 1
        if tm != 0:
            if mode & RULE_TRAP:
                why = WHY_TRAP
            else:
                k = 0
                while k < 3:
                    if (tm >> k) & 1:
                        slot = ob + k
                        occ[jewel[slot]] = 0
                        jewel[slot] = _NO
                        flags[slot] = 0
                    k += 1
    return cnt | (why << 8)


def _unmake_turn_py(ring, r, posts, jewel, flags, occ, opp):
    """Back to the posts and jewels before the turn whose undo record is at
    ring[r] (opp: the opponent's gem, the colour captured gems get back).
    Returns the chain's length (0 without a placement)."""
    _restore_jewels_py(ring, r, jewel, flags, occ)
    cnt = ring[r]
    if cnt:
        _unplace_chain_py(posts, ring, r + 8, cnt, opp)
    return cnt


@micropython.viper
def _unmake_turn_v(ring: ptr8, r: int, posts: ptr8, jewel: ptr8, flags: ptr8, occ: ptr8, opp: int) -> int:
    i = 0
    while i < 6:
        s = jewel[i]
        if s != _NO:
            occ[s] = 0
        i += 1
    fl = int(ring[r + 7])
    i = 0
    while i < 6:
        s = ring[r + 1 + i]
        jewel[i] = s
        flags[i] = (fl >> i) & 1
        if s != _NO:
            occ[s] = i + 1
        i += 1
    cnt = int(ring[r])
    if cnt != 0:
        q = r + 8
        i = q + 1
        e = q + cnt
        while i < e:
            posts[ring[i]] = opp
            i += 1
        posts[ring[q]] = 0
    return cnt


if MICROPYTHON:
    _trapped_mask = _trapped_mask_v
    _mark_caps = _mark_caps_v
    _place_chain = _place_chain_v
    _unplace_chain = _unplace_chain_v
    _jewel_sets = _jewel_sets_v
    _mark_bars = _mark_bars_v
    _make_turn = _make_turn_v
    _unmake_turn = _unmake_turn_v
else:
    _trapped_mask = _trapped_mask_py
    _mark_caps = _mark_caps_py
    _place_chain = _place_chain_py
    _unplace_chain = _unplace_chain_py
    _jewel_sets = _jewel_sets_py
    _mark_bars = _mark_bars_py
    _make_turn = _make_turn_py
    _unmake_turn = _unmake_turn_py


class MoveStack(engine_kit.MoveStack):
    """Preallocated move buffer shared by the plies of a search."""

    def __init__(self, plies=8):
        engine_kit.MoveStack.__init__(self, MAX_MOVES, plies)
