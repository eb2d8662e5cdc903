# Cornelson's evaluation (side to move's view) and the static values the
# search orders its candidates by: a breach open to the side to move (or,
# late in the game, enough captures for 10) is a win next turn; else tally
# difference, each jewel's progress toward the opponent's docks, its open
# exits (a jewel of the side that just moved with one exit left is in danger
# of a Trap), breach threats the side to move must answer, Barriers on each
# side's own dock borders, and jewels left in play (breach game). The
# placements are valued by captures, Barriers made on the opponent's jewels'
# exits and on its own docks and opponent Barriers stopped; the step sets by
# breach, progress and standing on an opponent jewel's last exits.
#
# Evaluator is a part of the Engine (search.py): it works on self.pos and
# the per-node tables the Engine's constructor makes. Nothing allocated.
from triad.compat import MICROPYTHON, const, micropython, ptr8, ptr16, ptr32
from triad.games.cornelson import core
from triad.games.cornelson.core import _make_turn, _unmake_turn
from triad.games.cornelson import geometry as g
from triad.games.cornelson.engine.tables import BLOCK_W, BORDER_AT, MOB_MOVED, MOB_STM, PROG_N, PROG_S, _ZERO72
from triad.games.cornelson.engine.tables import _BU, _BV, _DOCK_OWNER, _EXIT_BORDER, _EXIT_TO, _NB  # (the geometry's, once)

WIN = const(20000)  # a win at ply p scores WIN - p
BIG = const(10000)  # ordering score of a win
_NONE = const(255)
_N_POSTS = const(37)  # g.N_POSTS, for viper
BREACH_NEXT = const(30000)  # _eval_board: the side to move breaches next turn
_NO_POST = const(63)
_STUCK = const(1 << 20)
_RULE_BREACH = const(1)
_RULE_TRAP = const(2)
_RULE_CAPTURE = const(4)
_RULE_JEWELS = const(8)
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
LEAF_SLOW = const(0x10000)  # _leaf: the caller evaluates (beyond every score)
WHY_STUCK = const(4)  # core.WHY_STUCK, for viper



class Evaluator:
    # -- evaluation ---------------------------------------------------------

    def _max_capture(self):
        """The most gems the side to move captures with one placement."""
        p = self.pos
        if p.filled >= g.N_POSTS:
            return 0
        nc = p._mark_captures()
        cap = p._cap
        capq = p._capq
        q = self.q
        best = 0
        for k in range(nc):
            pp = capq[k]
            cap[pp] = 0
            cnt = p._place(pp, q, 0)
            p._unplace(q, 0, cnt)
            if cnt - 1 > best:
                best = cnt - 1
        return best

    def evaluate(self, ply=0):
        """Score of the position for the side to move."""
        p = self.pos
        side = p.side
        tally = p.tally
        t = tally[side]
        v = _eval_all(p.jewel, p.flags, p.posts, p.occ, self.opens, side, p.mode, t, tally[side ^ 1])
        if v == BREACH_NEXT:
            return WIN - ply - 1  # a breach next turn
        if t >= TALLY_LATE and p.mode & _RULE_CAPTURE and t + self._max_capture() >= core.WIN_TALLY:
            return WIN - ply - 1
        return v

    # -- candidate turns below the root ----------------------------------------

    def _prepare(self):
        """Fill the mover's per-node tables bw, bm, blk (cleared by
        _unprepare): _prepare_tables."""
        p = self.pos
        mode = p.mode
        if not mode & _RULE_JEWELS:
            return
        opens = self.opens
        _open_all(p.jewel, p.flags, p.posts, p.occ, mode & _RULE_BREACH, opens)
        r = _prepare_tables(p.jewel, p.posts, opens, p.side, mode, self.bw, self.bm, self.blk, self.tb, self.ts,
                            g.OUTER_BORDER, BLOCK_W)
        self.ntb = r & 255
        self.nts = r >> 8

    def _unprepare(self):
        _clear_tables(self.bw, self.bm, self.blk, self.tb, self.ntb, self.ts, self.nts)
        self.ntb = 0
        self.nts = 0

    def _post_values(self):
        """pv[p], pflag[p] for each vacant post: captures, Barriers made for
        the mover (bw), opponent Barriers stopped (bm); pflag 1 when the
        captures open a Barrier in the mover's way, 2 when the placement is
        the whole turn (a Capture win, or no jewels). The caller looks at
        self.stop before it reads pv."""
        p = self.pos
        posts = p.posts
        pv = self.pv
        pflag = self.pflag
        own = p.side + 1
        jewels = p.mode & _RULE_JEWELS
        # Every vacant post's Barrier values in one pass (_post_base), then
        # only the posts that capture are played out.
        _post_base(posts, pv, pflag, self.bw, self.bm, own, 1 if jewels else 0)
        if self._past():
            return
        nc = p._mark_captures()
        cap = p._cap
        capq = p._capq
        q = self.q
        barrier = p._barrier
        p._mark_barriers(1)
        for k in range(nc):
            pp = capq[k]
            cap[pp] = 0
            v = pv[pp]
            f = 0
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

    def _set_values(self, buf, start, end, out):
        """out[i] for the turns buf[start:end]: the static value of each
        one's jewel part for the mover (_set_vals): BIG for a breach, -BIG
        for a stuck turn, else progress toward the opponent's docks (breach
        rules) and standing on an opponent jewel's last exits (blk)."""
        p = self.pos
        side = p.side
        prog = _ZERO72
        if p.mode & _RULE_BREACH:
            prog = PROG_S if side == 0 else PROG_N
        _set_vals(buf, start, end, out, p.jewel, side, prog, self.blk)


# -- the per-node loops: one plain-Python and one viper path each -----------
#
# MicroPython runs the viper path, CPython the plain one;
# tests/fw/test_cornelson_engine.py holds them equal (on CPython the
# decorator and the casts are no-ops, so the viper source runs there too).


def _open_all_py(jewel, flags, posts, occ, breach, out):
    """out[slot] for the six jewel slots: the count of open exits of the
    jewel in slot against the other side (as the Trap rule counts them: own
    jewels do not block), plus 4 when one of them is a breach (an open
    opponent dock), plus bit 3 + e for each open exit e; 0 for an empty
    slot."""
    for slot in range(6):
        s = jewel[slot]
        c = 0
        br = 0
        mask = 0
        if s != _NONE:
            js = slot // 3
            bg = 2 - js
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
                    if flags[slot]:
                        continue
                elif posts[_BU[b]] == bg and posts[_BV[b]] == bg:
                    continue
                o = occ[t]
                if o and (o - 1) // 3 != js:
                    continue
                c += 1
                mask |= 8 << e
                if dk:
                    br = 4
        out[slot] = c | br | mask


@micropython.viper
def _open_all_v(jewel: ptr8, flags: ptr8, posts: ptr8, occ: ptr8, breach: int, out: ptr8):
    exit_to = ptr8(_EXIT_TO)
    exit_border = ptr8(_EXIT_BORDER)
    dock_owner = ptr8(_DOCK_OWNER)
    bu = ptr8(_BU)
    bv = ptr8(_BV)
    slot = 0
    while slot < 6:
        s = int(jewel[slot])
        c = 0
        br = 0
        mask = 0
        if s != _NONE:
            js = 1 if slot >= 3 else 0
            bg = 2 - js
            e = 0
            while e < 3:
                i = s * 3 + e
                bit = 8 << e
                e += 1
                t = int(exit_to[i])
                if t == _NONE:
                    continue
                dk = int(dock_owner[t])
                if dk != 0:
                    if dk == js + 1 or breach == 0:
                        continue
                b = int(exit_border[i])
                if b == _NONE:
                    if flags[slot] != 0:
                        continue
                elif int(posts[bu[b]]) == bg and int(posts[bv[b]]) == bg:
                    continue
                o = int(occ[t])
                if o != 0 and (1 if o > 3 else 0) != js:
                    continue
                c += 1
                mask |= bit
                if dk != 0:
                    br = 4
        out[slot] = c | br | mask
        slot += 1


def _eval_board_py(jewel, posts, opens, side, mode, mob_stm, mob_moved, prog_s, prog_n, ob):
    """The jewels' and dock borders' part of evaluate for the side to move
    (opens: _open_all's): each jewel's progress toward the opponent's docks
    and its open exits (MOB_STM for the side to move, MOB_MOVED for the one
    that just moved), breach threats against the side to move, jewels in
    play without the Trap rule, gems on and Barriers across each side's own
    dock borders. BREACH_NEXT when the side to move has a breach open."""
    v = 0
    threats = 0
    nj = 0
    breach = mode & _RULE_BREACH
    for slot in range(6):
        s = jewel[slot]
        if s == _NONE:
            continue
        js = slot // 3
        code = opens[slot]
        c = code & 3
        x = 0
        if breach:
            x = prog_s[s] if js == 0 else prog_n[s]
        if js == side:
            if code & 4:
                return BREACH_NEXT
            v += x + mob_stm[c]
            nj += 1
        else:
            if code & 4:
                threats += 1
            v -= x + mob_moved[c]
            nj -= 1
    if threats:
        v -= THREAT1 if threats == 1 else THREAT2
    if not mode & _RULE_TRAP:
        v += nj * JEWEL_V
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
    return v


# The tables of _eval_all_v and _leaf_v in one bytes object and one array
# (each global a viper function names is a dictionary lookup per call): the
# geometry's exits, docks, borders and capture lines, the progress tables,
# the dock borders; MOB_STM then MOB_MOVED. tests/fw/test_cornelson_engine.py checks the
# offsets.
_O_EXIT_BORDER = const(216)
_O_DOCK_OWNER = const(432)
_O_BU = const(504)
_O_BV = const(594)
_O_LINE1 = const(684)
_O_LINE2 = const(906)
_O_PROG_S = const(1128)
_O_PROG_N = const(1200)
_O_OUTER = const(1272)
LEAF_GEO = (bytes(_EXIT_TO) + bytes(_EXIT_BORDER) + bytes(_DOCK_OWNER) + bytes(_BU) + bytes(_BV) + bytes(g.LINE1)
            + bytes(g.LINE2) + bytes(PROG_S) + bytes(PROG_N) + bytes(g.OUTER_BORDER))
LEAF_MOB = MOB_STM + MOB_MOVED

def _eval_all_py(jewel, flags, posts, occ, opens, side, mode, t, to):
    """evaluate's score without the late capture look (t, to: the tallies of
    the side to move and of the other): the jewels' and dock borders' part
    (_open_all into opens, then _eval_board) and the tallies';
    BREACH_NEXT when the side to move has a breach open."""
    v = 0
    if mode & _RULE_JEWELS:
        _open_all_py(jewel, flags, posts, occ, mode & _RULE_BREACH, opens)
        v = _eval_board_py(jewel, posts, opens, side, mode, MOB_STM, MOB_MOVED, PROG_S, PROG_N, g.OUTER_BORDER)
        if v == BREACH_NEXT:
            return v
    if mode & _RULE_CAPTURE:
        return v + (t - to) * TALLY_W + t * t - to * to
    return v + (t - to) * TALLY_W0


@micropython.viper
def _eval_all_v(jewel: ptr8, flags: ptr8, posts: ptr8, occ: ptr8, opens: ptr8, side: int, mode: int, t: int,
                to: int) -> int:
    """_eval_all_py in one viper body (_open_all_v and _eval_board_py
    inline: every leaf). MOB_STM and MOB_MOVED are array("h"): viper loads
    their entries as 0..65535, Python as -32768..32767; ((x + 0x8000) &
    0xFFFF) - 0x8000 is the signed value in both."""
    v = 0
    if mode & _RULE_JEWELS:
        geo = ptr8(LEAF_GEO)  # (the tables: one global lookup)
        mob = ptr16(LEAF_MOB)
        breach = mode & _RULE_BREACH
        threats = 0
        nj = 0
        slot = 0
        while slot < 6:
            s = int(jewel[slot])
            if s != _NONE:
                # _open_all_v: the jewel's open exits against the other side
                js = 1 if slot >= 3 else 0
                bg = 2 - js
                c = 0
                br = 0
                mask = 0
                e = 0
                while e < 3:
                    i = s * 3 + e
                    bit = 8 << e
                    e += 1
                    to_s = int(geo[i])
                    if to_s == _NONE:
                        continue
                    dk = int(geo[_O_DOCK_OWNER + to_s])
                    if dk != 0:
                        if dk == js + 1 or breach == 0:
                            continue
                    b = int(geo[_O_EXIT_BORDER + i])
                    if b == _NONE:
                        if flags[slot] != 0:
                            continue
                    elif int(posts[geo[_O_BU + b]]) == bg and int(posts[geo[_O_BV + b]]) == bg:
                        continue
                    o = int(occ[to_s])
                    if o != 0 and (1 if o > 3 else 0) != js:
                        continue
                    c += 1
                    mask |= bit
                    if dk != 0:
                        br = 4
                opens[slot] = c | br | mask
                # _eval_board_py's part of the jewel
                x = 0
                if breach != 0:
                    x = int(geo[_O_PROG_S + s]) if js == 0 else int(geo[_O_PROG_N + s])
                if js == side:
                    if br != 0:
                        return BREACH_NEXT
                    v += x + ((int(mob[c]) + 0x8000) & 0xFFFF) - 0x8000
                    nj += 1
                else:
                    if br != 0:
                        threats += 1
                    v -= x + ((int(mob[4 + c]) + 0x8000) & 0xFFFF) - 0x8000
                    nj -= 1
            else:
                opens[slot] = 0
            slot += 1
        if threats == 1:
            v -= THREAT1
        elif threats > 1:
            v -= THREAT2
        if not (mode & _RULE_TRAP):
            v += nj * JEWEL_V
        k = 0
        while k < 4:
            x = int(posts[k])
            if x != 0:
                v += DOCK_POST if (x - 1) == side else 0 - DOCK_POST
            x = int(posts[33 + k])
            if x != 0:
                v += DOCK_POST if (x - 1) == side else 0 - DOCK_POST
            k += 1
        k = 0
        while k < 6:
            b = int(geo[_O_OUTER + k])
            x = int(posts[geo[_O_BU + b]])
            if x != 0 and int(posts[geo[_O_BV + b]]) == x:
                ks = 1 if k >= 3 else 0
                if (x - 1) == side:
                    if ks == side:
                        v += DOCK_BAR
                elif ks != side:
                    v -= DOCK_BAR
            k += 1
    if mode & _RULE_CAPTURE:
        return v + (t - to) * TALLY_W + t * t - to * to
    return v + (t - to) * TALLY_W0


def _leaf_py(m, side, mode, ts, to, filled, ply, posts, jewel, flags, occ, ring, r, opens):
    """The score of a leaf, turn m of side from a position at ply - 1 (ts,
    to: the tallies of side and of the other; filled: its gems; ring, r:
    the undo record the Position's make would use), for the side to move
    after it, as the search's leaf gives it (a finished game, else
    evaluate); the position is left as it was. LEAF_SLOW when evaluate
    would look for a capture win (a tally of TALLY_LATE: the caller makes
    the turn and evaluates)."""
    x = _make_turn(m, side, mode, ts, posts, jewel, flags, occ, ring, r)
    cnt = x & 255
    why = x >> 8
    if why:
        # the game ended: a win of side, or (stuck) of the side to move
        v = WIN - ply if why == core.WHY_STUCK else ply - WIN
    elif filled + (1 if cnt else 0) == _N_POSTS and not _in_play(jewel, mode):
        v = 0  # a draw
    elif to >= TALLY_LATE and mode & _RULE_CAPTURE:
        v = LEAF_SLOW
    else:
        v = _eval_all(jewel, flags, posts, occ, opens, side ^ 1, mode, to, ts + cnt - 1 if cnt else ts)
        if v == BREACH_NEXT:
            v = WIN - ply - 1
    _unmake_turn(ring, r, posts, jewel, flags, occ, 2 - side)
    return v


def _in_play(jewel, mode):
    """Whether a jewel is in play (Position.jewels_in_play)."""
    if not mode & _RULE_JEWELS:
        return False
    for i in range(6):
        if jewel[i] != _NONE:
            return True
    return False


_NO_POST_V = const(63)
_KEEP_SHIFT = const(21)  # core.KEEP_SHIFT
_WIN_TALLY = const(10)  # core.WIN_TALLY
_WHY_BREACH = const(1)  # core.WHY_*
_WHY_TRAP = const(2)
_WHY_CAPTURE = const(3)


@micropython.viper
def _leaf_v(m: int, side: int, mode: int, ts: int, to: int, filled: int, ply: int, posts_o, jw_o, fl_o, occ_o,
            ring: ptr8, r: int, opens) -> int:
    """_leaf_py in viper: core._make_turn_v and core._unmake_turn_v inline
    (calls converting their buffers, and their tables' global lookups, were
    a third of a leaf), _eval_all_v called (a viper function is at most
    about 2 KB of code on the RP2040's Thumb: "native method too big")."""
    geo = ptr8(LEAF_GEO)
    posts = ptr8(posts_o)
    jewel = ptr8(jw_o)
    flags = ptr8(fl_o)
    occ = ptr8(occ_o)
    # -- the turn (core._make_turn_v)
    fl = 0
    i = 0
    while i < 6:
        ring[r + 1 + i] = jewel[i]
        fl |= int(flags[i]) << i
        i += 1
    ring[r + 7] = fl
    cnt = 0
    p = m & 63
    if p != _NO_POST_V:
        keep = (m >> _KEEP_SHIFT) & 63
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
                a = int(geo[_O_LINE1 + i])
                if a != _NONE and int(posts[a]) == opp and int(posts[geo[_O_LINE2 + i]]) == own:
                    if tail - q > limit:
                        break
                    posts[a] = own
                    ring[tail] = a
                    tail += 1
                i += 1
        cnt = tail - q
    ring[r] = cnt
    why = 0
    if cnt > 1 and ts + cnt - 1 >= _WIN_TALLY and (mode & _RULE_CAPTURE) != 0:
        why = _WHY_CAPTURE
    elif m & _STUCK:
        why = WHY_STUCK
    else:
        base = side * 3
        n = (m >> 6) & 3
        k = 0
        while k < n:
            c = (m >> (8 + 4 * k)) & 15
            slot = base + (c & 3)
            s = int(jewel[slot])
            x = s * 3 + (c >> 2)
            t = int(geo[x])
            occ[s] = 0
            occ[t] = slot + 1
            jewel[slot] = t
            flags[slot] = 1 if int(geo[_O_EXIT_BORDER + x]) == _NONE else 0
            if int(geo[_O_DOCK_OWNER + t]) == 2 - side:
                why = _WHY_BREACH
            k += 1
        if why == 0 and (mode & _RULE_JEWELS) != 0:
            # the opponent's jewels without an exit (core._trapped_mask_v)
            breach = mode & _RULE_BREACH
            ob = (side ^ 1) * 3
            jside = side ^ 1
            mover_gem = 2 - jside
            tm = 0
            k = 0
            while k < 3:
                slot = ob + k
                s = int(jewel[slot])
                if s != _NONE:
                    free = 0
                    e = 0
                    while e < 3:
                        i = s * 3 + e
                        e += 1
                        t = int(geo[i])
                        if t == _NONE:
                            continue
                        dk = int(geo[_O_DOCK_OWNER + t])
                        if dk != 0 and (dk == jside + 1 or breach == 0):
                            continue
                        b = int(geo[_O_EXIT_BORDER + i])
                        if b == _NONE:
                            if flags[slot] != 0:
                                continue
                        elif int(posts[geo[_O_BU + b]]) == mover_gem and int(posts[geo[_O_BV + b]]) == mover_gem:
                            continue
                        o = int(occ[t])
                        if o != 0 and (1 if o > 3 else 0) != jside:
                            continue
                        free = 1
                        break
                    if free == 0:
                        tm |= 1 << k
                k += 1
            if tm != 0:
                if mode & _RULE_TRAP:
                    why = _WHY_TRAP
                else:
                    k = 0
                    while k < 3:
                        if (tm >> k) & 1:
                            slot = ob + k
                            occ[jewel[slot]] = 0
                            jewel[slot] = _NONE
                            flags[slot] = 0
                        k += 1
    # -- the score for the side to move after it
    v = 0
    if why != 0:
        v = WIN - ply if why == WHY_STUCK else ply - WIN
    else:
        draw = 0
        if filled + (1 if cnt != 0 else 0) == _N_POSTS:
            draw = 1
            if mode & _RULE_JEWELS:
                i = 0
                while i < 6:
                    if jewel[i] != _NONE:
                        draw = 0
                    i += 1
        if draw != 0:
            v = 0
        elif to >= TALLY_LATE and (mode & _RULE_CAPTURE) != 0:
            v = LEAF_SLOW
        else:
            v = int(_eval_all(jw_o, fl_o, posts_o, occ_o, opens, side ^ 1, mode, to, ts + cnt - 1 if cnt != 0 else ts))
            if v == BREACH_NEXT:
                v = WIN - ply - 1
    # -- the turn taken back (core._unmake_turn_v)
    i = 0
    while i < 6:
        s = int(jewel[i])
        if s != _NONE:
            occ[s] = 0
        i += 1
    fl = int(ring[r + 7])
    i = 0
    while i < 6:
        s = int(ring[r + 1 + i])
        jewel[i] = s
        flags[i] = (fl >> i) & 1
        if s != _NONE:
            occ[s] = i + 1
        i += 1
    if cnt != 0:
        opp = 2 - side
        q = r + 8
        i = q + 1
        e = q + cnt
        while i < e:
            posts[ring[i]] = opp
            i += 1
        posts[ring[q]] = 0
    return v


def _post_base_py(posts, pv, pflag, bw, bm, own, dock):
    """pv[p] (at most BIG) for each vacant post p before captures: the
    Barrier values bw of the borders it closes with an own gem (an eighth
    with a vacant post), bm of the opponent Barriers it stops, DOCK_POST on
    one's own dock borders (dock: jewels play); pflag[p] = 0."""
    for pp in range(_N_POSTS):
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
        if dock and (pp < 4 if own == 1 else pp >= 33):
            v += DOCK_POST
        pv[pp] = v if v < BIG else BIG
        pflag[pp] = 0


# bw and bm hold values 0..32767 only (sums of positive weights), so viper's
# unsigned 16-bit loads read them as Python does.
@micropython.viper
def _post_base_v(posts: ptr8, pv: ptr16, pflag: ptr8, bw: ptr16, bm: ptr16, own: int, dock: int):
    border_at = ptr8(BORDER_AT)
    nb = ptr8(_NB)
    pp = 0
    while pp < _N_POSTS:
        if posts[pp] == 0:
            v = 0
            i = pp * 6
            e = i + 6
            while i < e:
                b = int(border_at[i])
                if b != _NONE:
                    x = int(posts[nb[i]])
                    if x == own:
                        v += int(bw[b])
                    elif x == 0:
                        v += int(bw[b]) >> 3
                    else:
                        v += int(bm[b])
                i += 1
            if dock != 0:
                if (own == 1 and pp < 4) or (own == 2 and pp >= 33):
                    v += DOCK_POST
            pv[pp] = v if v < BIG else BIG
            pflag[pp] = 0
        pp += 1


def _set_vals_py(buf, start, end, out, jewel, side, prog, blk):
    """out[i] = the value of turn buf[i]'s jewel steps for side (see
    Evaluator._set_values), for start <= i < end."""
    base = side * 3
    for i in range(start, end):
        m = buf[i]
        if m & _STUCK:
            out[i] = -BIG
            continue
        v = 0
        for k in range((m >> 6) & 3):
            c = (m >> (8 + 4 * k)) & 15
            s = jewel[base + (c & 3)]
            t = _EXIT_TO[s * 3 + (c >> 2)]
            if _DOCK_OWNER[t] == 2 - side:
                v = BIG
                break
            v += prog[t] - prog[s] + blk[t]
        out[i] = v


# blk holds 0..32767 (sums of positive weights); out is array("h"): a
# negative value stored through ptr16 is its low 16 bits, which Python
# reads back as the same signed value.
@micropython.viper
def _set_vals_v(buf: ptr32, start: int, end: int, out: ptr16, jewel: ptr8, side: int, prog: ptr8, blk: ptr16):
    exit_to = ptr8(_EXIT_TO)
    dock_owner = ptr8(_DOCK_OWNER)
    base = side * 3
    i = start
    while i < end:
        m = buf[i]
        if m & _STUCK:
            out[i] = 0 - BIG
        else:
            v = 0
            n = (m >> 6) & 3
            k = 0
            while k < n:
                c = (m >> (8 + 4 * k)) & 15
                s = int(jewel[base + (c & 3)])
                t = int(exit_to[s * 3 + (c >> 2)])
                if int(dock_owner[t]) == 2 - side:
                    v = BIG
                    break
                v += int(prog[t]) - int(prog[s]) + int(blk[t])
                k += 1
            out[i] = v
        i += 1


def _prepare_tables_py(jewel, posts, opens, side, mode, bw, bm, blk, tb, ts, ob, block_w):
    """The mover's per-node tables: bw[b], the value for the mover of a
    Barrier on border b (closing an opponent jewel's open exit: block_w by
    how many it has, halved without the Trap rule; a breach threat's
    border BREACH_BLOCK; its own dock borders DOCK_BAR); blk[t], of one of
    its jewels standing on an opponent jewel's open target t; bm[b], of a
    gem stopping an opponent Barrier on its own jewels' exits (worth more
    the fewer exits the jewel has). opens: _open_all's (its exit bits). The
    borders set go into tb, the spaces into ts; returns their counts,
    ntb | nts << 8."""
    opp = side ^ 1
    ntb = 0
    nts = 0
    for slot in range(opp * 3, opp * 3 + 3):
        s = jewel[slot]
        if s == _NONE:
            continue
        code = opens[slot]
        w = block_w[code & 3]
        if not mode & _RULE_TRAP:
            w >>= 1
        for e in range(3):
            if not (code >> (3 + e)) & 1:
                continue
            i = s * 3 + e
            t = _EXIT_TO[i]
            b = _EXIT_BORDER[i]
            if _DOCK_OWNER[t]:
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
    for k in range(side * 3, side * 3 + 3):
        b = ob[k]
        bw[b] += DOCK_BAR
        tb[ntb] = b
        ntb += 1
    opp_gem = 2 - side
    for slot in range(side * 3, side * 3 + 3):
        s = jewel[slot]
        if s == _NONE:
            continue
        k = opens[slot] & 3
        w = 60 if k <= 1 else (25 if k == 2 else 10)
        for e in range(3):
            b = _EXIT_BORDER[s * 3 + e]
            if b == _NONE or _EXIT_TO[s * 3 + e] == _NONE:
                continue
            if posts[_BU[b]] == opp_gem or posts[_BV[b]] == opp_gem:
                bm[b] += w
                tb[ntb] = b
                ntb += 1
    return ntb | (nts << 8)


# bw, bm, blk and block_w hold 0..32767 only: viper's unsigned 16-bit
# loads read them as Python does.
@micropython.viper
def _prepare_tables_v(jewel: ptr8, posts: ptr8, opens: ptr8, side: int, mode: int, bw: ptr16, bm: ptr16, blk: ptr16,
                      tb: ptr8, ts: ptr8, ob: ptr8, block_w: ptr16) -> int:
    exit_to = ptr8(_EXIT_TO)
    exit_border = ptr8(_EXIT_BORDER)
    dock_owner = ptr8(_DOCK_OWNER)
    bu = ptr8(_BU)
    bv = ptr8(_BV)
    opp = side ^ 1
    ntb = 0
    nts = 0
    slot = opp * 3
    while slot < opp * 3 + 3:
        s = int(jewel[slot])
        if s != _NONE:
            code = int(opens[slot])
            w = int(block_w[code & 3])
            if not (mode & _RULE_TRAP):
                w >>= 1
            e = 0
            while e < 3:
                i = s * 3 + e
                bit = 8 << e
                e += 1
                if not (code & bit):
                    continue
                t = int(exit_to[i])
                b = int(exit_border[i])
                if int(dock_owner[t]) != 0:
                    if b != _NONE:
                        bw[b] = int(bw[b]) + BREACH_BLOCK
                        tb[ntb] = b
                        ntb += 1
                    continue
                if b != _NONE:
                    bw[b] = int(bw[b]) + w
                    tb[ntb] = b
                    ntb += 1
                blk[t] = int(blk[t]) + w
                ts[nts] = t
                nts += 1
        slot += 1
    k = side * 3
    while k < side * 3 + 3:
        b = int(ob[k])
        bw[b] = int(bw[b]) + DOCK_BAR
        tb[ntb] = b
        ntb += 1
        k += 1
    opp_gem = 2 - side
    slot = side * 3
    while slot < side * 3 + 3:
        s = int(jewel[slot])
        if s != _NONE:
            k = int(opens[slot]) & 3
            w = 60 if k <= 1 else (25 if k == 2 else 10)
            e = 0
            while e < 3:
                i = s * 3 + e
                e += 1
                b = int(exit_border[i])
                if b == _NONE or int(exit_to[i]) == _NONE:
                    continue
                if int(posts[bu[b]]) == opp_gem or int(posts[bv[b]]) == opp_gem:
                    bm[b] = int(bm[b]) + w
                    tb[ntb] = b
                    ntb += 1
        slot += 1
    return ntb | (nts << 8)

def _clear_tables_py(bw, bm, blk, tb, ntb, ts, nts):
    """Undo _prepare_tables: bw and bm of the ntb borders in tb, blk of the
    nts spaces in ts, back to 0."""
    for i in range(ntb):
        b = tb[i]
        bw[b] = 0
        bm[b] = 0
    for i in range(nts):
        blk[ts[i]] = 0


@micropython.viper
def _clear_tables_v(bw: ptr16, bm: ptr16, blk: ptr16, tb: ptr8, ntb: int, ts: ptr8, nts: int):
    i = 0
    while i < ntb:
        b = tb[i]
        bw[b] = 0
        bm[b] = 0
        i += 1
    i = 0
    while i < nts:
        blk[ts[i]] = 0
        i += 1


if MICROPYTHON:
    _prepare_tables = _prepare_tables_v
    _clear_tables = _clear_tables_v
    _set_vals = _set_vals_v
    _open_all = _open_all_v
    _eval_all = _eval_all_v
    _leaf_score = _leaf_v
    _post_base = _post_base_v
else:
    _prepare_tables = _prepare_tables_py
    _clear_tables = _clear_tables_py
    _set_vals = _set_vals_py
    _open_all = _open_all_py
    _eval_all = _eval_all_py
    _leaf_score = _leaf_py
    _post_base = _post_base_py
