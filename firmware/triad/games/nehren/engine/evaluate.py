# Static evaluation for the Triad engine. Pure; allocates nothing per call.
#
# evaluate(pos) scores pos from the side to move's point of view (positive:
# good for the side to move) in "points" where a Triad is worth 1000 at the
# start and the last Triad is worth far more (the race to three).
#
# One pass over the dice computes, for each side, the regular moves of every
# die (mobility, dice that cannot move) and REACH: for every empty cell the
# set of values that side can bring there in one move. Then one pass over the
# dice finds the lines of three cells with two dice and one empty cell (each
# from its first die along the axis) and so the Triad threats: such a line
# needs exactly one value in its empty cell (the same value when the two
# agree, the missing one when they differ) and a colour (the other colour
# when both dice are of one colour, either colour when mixed). A side
# threatens a Triad when it can bring the needed value to the empty cell.
# This is a superset of the real Triad moves (a die of the line itself may
# be the one that would move), never a subset: when a side has no threat
# here it has no Triad-forming move, which lets the quiescence search skip
# move generation.
from array import array

from triad.compat import MICROPYTHON, const, micropython, ptr8, ptr16
from triad.games.nehren import core

# Value of having made n Triads (n = 0..3); the engine reports a win as
# WIN - ply, beyond any evaluation.
TRIAD_VALUE = (0, 1000, 2400, 5000)
# What the next Triad is worth to a side that has made n.
GAIN = (1000, 1400, 2600, 0)

W_MOBILITY = const(3)  # per regular move more than the opponent
W_BLOCKED = const(30)  # per die that cannot make a regular move
W_LATENT = const(6)  # per line of two the side could complete with the right value

# Threats as a fraction (in 1/64) of the next Triad's gain.
T_OPP_ONE = const(14)  # the opponent (to move after us) has one threat cell
T_OPP_MANY = const(44)  # two or more threat cells: hard to parry all
T_OWN_ONE = const(4)  # our own threat (if we make a quiet move now)
T_OWN_MANY = const(16)

# Centre control: a die near the centre has more lines and more moves:
# CENTRE[sq] = (3 - max(df, dr)) * 4 (12 centre, 8, 4, 0 edge), where df and
# dr count the files and ranks to the centre's four cells. Written out, one
# line per row of the padded 10 x 10 board (the loop that computed it cost
# 5.4 ms of the RP2040's time at the engine's first import, a piece the
# board's loop could not tick through; tests/fw/test_engine_eval.py checks
# it against the formula).
CENTRE = bytes((
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 4, 4, 4, 4, 4, 4, 0, 0,
    0, 0, 4, 8, 8, 8, 8, 4, 0, 0,
    0, 0, 4, 8, 12, 12, 8, 4, 0, 0,
    0, 0, 4, 8, 12, 12, 8, 4, 0, 0,
    0, 0, 4, 8, 8, 8, 8, 4, 0, 0,
    0, 0, 4, 4, 4, 4, 4, 4, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
))

# Scratch: REACH[sq] (black) and REACH[100 + sq] (white), value bits 1<<k.
REACH = bytearray(200)
DICE = bytearray(12)  # squares of the dice on the board
# Filled by evaluate(): [0] threat cells of the side to move (capped at 2),
# [1] regular moves of the side to move (capped at 255), [2] threat cells of
# the opponent (capped at 2), [3] number of (cell, value bit) pairs in
# THREATS: the side to move's threats without repeats (at most MAX_THREATS).
OUT = bytearray(4)
MAX_THREATS = const(40)
THREATS = bytearray(2 * MAX_THREATS)


def evaluate_py(pos):
    """The plain reference: evaluate_viper must give the same score and leave
    the same OUT and THREATS (tests/fw/test_engine_eval.py)."""
    return _evaluate_py(pos.board, pos.score, pos.side)


def _evaluate_py(board, score, stm):
    reach = REACH
    # (A loop, not reach[:] = ...: a slice allocates on older MicroPython.)
    for sq in core.CELLS:
        reach[sq] = 0
        reach[100 + sq] = 0
    centre = CENTRE
    mob0 = 0
    mob1 = 0
    blk0 = 0
    blk1 = 0
    cen0 = 0
    cen1 = 0
    dice = DICE
    nd = 0
    for sq in core.CELLS:
        p = board[sq]
        if not p:
            continue
        if nd < 12:
            dice[nd] = sq
            nd += 1
        v = p & 3
        base = (p >> 2) * 100
        cnt = 0
        for d in (1, -1, 10, -10, 9, -9, 11, -11):
            s = sq + d
            if board[s]:
                continue
            if v != 1:
                reach[base + s] |= 2
                cnt += 1
            s += d
            if board[s]:
                continue
            if v != 2:
                reach[base + s] |= 4
                cnt += 1
            s += d
            if board[s]:
                continue
            if v != 3:
                reach[base + s] |= 8
                cnt += 1
        if base:
            mob1 += cnt
            cen1 += centre[sq]
            if not cnt:
                blk1 += 1
        else:
            mob0 += cnt
            cen0 += centre[sq]
            if not cnt:
                blk0 += 1

    # Threats and latent lines: every line of three cells with two dice and
    # one empty cell, found once from its first die along the axis.
    t0 = 0  # distinct threat cells of black, capped at 2
    t0c = 0
    t1 = 0
    t1c = 0
    lat0 = 0
    lat1 = 0
    th = THREATS
    nth = 0
    k = 0
    while k < nd:
        sq = dice[k]
        k += 1
        x = board[sq]
        for ax in (1, 10, 9, 11):
            y = board[sq + ax]
            if y == 0:
                y = board[sq + ax + ax]
                if y == 0 or y == 8:
                    continue
                e = sq + ax
                e2 = 0
            elif y == 8:
                continue
            else:
                e = sq - ax
                if board[e]:
                    e = 0
                e2 = sq + ax + ax
                if board[e2]:
                    e2 = 0
                if not e:
                    if not e2:
                        continue
                    e = e2
                    e2 = 0
            vx = x & 3
            vy = y & 3
            if vx == vy:
                bit = 1 << vx
            else:
                bit = 1 << (6 - vx - vy)
            cx = x & 4
            cy = y & 4
            while e:
                if cx | cy:  # a white die in the line: black may complete it
                    if reach[e] & bit:
                        if not stm and nth < 2 * MAX_THREATS:
                            j = 0
                            while j < nth:
                                if th[j] == e and th[j + 1] == bit:
                                    break
                                j += 2
                            if j == nth:
                                th[nth] = e
                                th[nth + 1] = bit
                                nth += 2
                        if t0 == 0:
                            t0 = 1
                            t0c = e
                        elif t0 == 1 and e != t0c:
                            t0 = 2
                    else:
                        lat0 += 1
                if not (cx & cy):  # a black die in the line: white may complete it
                    if reach[100 + e] & bit:
                        if stm and nth < 2 * MAX_THREATS:
                            j = 0
                            while j < nth:
                                if th[j] == e and th[j + 1] == bit:
                                    break
                                j += 2
                            if j == nth:
                                th[nth] = e
                                th[nth + 1] = bit
                                nth += 2
                        if t1 == 0:
                            t1 = 1
                            t1c = e
                        elif t1 == 1 and e != t1c:
                            t1 = 2
                    else:
                        lat1 += 1
                e = e2
                e2 = 0

    s0 = score[0]
    s1 = score[1]
    val = TRIAD_VALUE[s0] - TRIAD_VALUE[s1]
    val += (mob0 - mob1) * W_MOBILITY
    val -= (blk0 - blk1) * W_BLOCKED
    val += cen0 - cen1
    val += (lat0 - lat1) * W_LATENT
    out = OUT
    out[3] = nth >> 1
    if stm:
        # White to move: black's threats are the opponent's.
        if t0:
            val += (GAIN[s0] * (T_OPP_MANY if t0 > 1 else T_OPP_ONE)) >> 6
        if t1:
            val -= (GAIN[s1] * (T_OWN_MANY if t1 > 1 else T_OWN_ONE)) >> 6
        out[0] = t1
        out[1] = mob1 if mob1 < 255 else 255
        out[2] = t0
        return -val
    if t1:
        val -= (GAIN[s1] * (T_OPP_MANY if t1 > 1 else T_OPP_ONE)) >> 6
    if t0:
        val += (GAIN[s0] * (T_OWN_MANY if t0 > 1 else T_OWN_ONE)) >> 6
    out[0] = t0
    out[1] = mob0 if mob0 < 255 else 255
    out[2] = t1
    return val


# -- the same evaluation in viper (what MicroPython uses) ------------------
#
# evaluate_py's loops, statement for statement, over integer tables instead
# of tuples, so it gives the same score and fills OUT and THREATS with the
# same values in the same order (the quiescence search generates its moves
# from THREATS in that order, so the order is part of the search's result).
# On CPython the shim makes it plain Python, which is what lets the tests
# compare the two there as well.
_TRIAD_VALUE = array("H", TRIAD_VALUE)
_GAIN = array("H", GAIN)
_DIRS11 = bytes(d + 11 for d in core.DIRECTIONS)  # biased to fit in bytes
_AXES = bytes(core.AXES)
_CELLS = core.CELLS


@micropython.viper
def evaluate_viper(board: ptr8, score: ptr8, stm: int) -> int:
    reach = ptr8(REACH)
    dice = ptr8(DICE)
    th = ptr8(THREATS)
    out = ptr8(OUT)
    cells = ptr8(_CELLS)
    centre = ptr8(CENTRE)
    dirs = ptr8(_DIRS11)
    axes = ptr8(_AXES)
    ci = 0
    while ci < 36:
        sq = int(cells[ci])
        reach[sq] = 0
        reach[100 + sq] = 0
        ci += 1
    mob0 = 0
    mob1 = 0
    blk0 = 0
    blk1 = 0
    cen0 = 0
    cen1 = 0
    nd = 0
    ci = 0
    while ci < 36:
        sq = int(cells[ci])
        ci += 1
        p = int(board[sq])
        if p == 0:
            continue
        if nd < 12:
            dice[nd] = sq
            nd += 1
        v = p & 3
        base = (p >> 2) * 100
        cnt = 0
        di = 0
        while di < 8:
            d = int(dirs[di]) - 11
            di += 1
            s = sq + d
            if int(board[s]) != 0:
                continue
            if v != 1:
                reach[base + s] = int(reach[base + s]) | 2
                cnt += 1
            s += d
            if int(board[s]) != 0:
                continue
            if v != 2:
                reach[base + s] = int(reach[base + s]) | 4
                cnt += 1
            s += d
            if int(board[s]) != 0:
                continue
            if v != 3:
                reach[base + s] = int(reach[base + s]) | 8
                cnt += 1
        if base != 0:
            mob1 += cnt
            cen1 += int(centre[sq])
            if cnt == 0:
                blk1 += 1
        else:
            mob0 += cnt
            cen0 += int(centre[sq])
            if cnt == 0:
                blk0 += 1

    t0 = 0
    t0c = 0
    t1 = 0
    t1c = 0
    lat0 = 0
    lat1 = 0
    nth = 0
    k = 0
    while k < nd:
        sq = int(dice[k])
        k += 1
        x = int(board[sq])
        ai = 0
        while ai < 4:
            ax = int(axes[ai])
            ai += 1
            y = int(board[sq + ax])
            e = 0
            e2 = 0
            if y == 0:
                y = int(board[sq + ax + ax])
                if y == 0 or y == 8:
                    continue
                e = sq + ax
            elif y == 8:
                continue
            else:
                e = sq - ax
                if int(board[e]) != 0:
                    e = 0
                e2 = sq + ax + ax
                if int(board[e2]) != 0:
                    e2 = 0
                if e == 0:
                    if e2 == 0:
                        continue
                    e = e2
                    e2 = 0
            vx = x & 3
            vy = y & 3
            if vx == vy:
                bit = 1 << vx
            else:
                bit = 1 << (6 - vx - vy)
            cx = x & 4
            cy = y & 4
            while e != 0:
                if (cx | cy) != 0:
                    if (int(reach[e]) & bit) != 0:
                        if stm == 0 and nth < 2 * MAX_THREATS:
                            j = 0
                            while j < nth:
                                if int(th[j]) == e and int(th[j + 1]) == bit:
                                    break
                                j += 2
                            if j == nth:
                                th[nth] = e
                                th[nth + 1] = bit
                                nth += 2
                        if t0 == 0:
                            t0 = 1
                            t0c = e
                        elif t0 == 1 and e != t0c:
                            t0 = 2
                    else:
                        lat0 += 1
                if (cx & cy) == 0:
                    if (int(reach[100 + e]) & bit) != 0:
                        if stm != 0 and nth < 2 * MAX_THREATS:
                            j = 0
                            while j < nth:
                                if int(th[j]) == e and int(th[j + 1]) == bit:
                                    break
                                j += 2
                            if j == nth:
                                th[nth] = e
                                th[nth + 1] = bit
                                nth += 2
                        if t1 == 0:
                            t1 = 1
                            t1c = e
                        elif t1 == 1 and e != t1c:
                            t1 = 2
                    else:
                        lat1 += 1
                e = e2
                e2 = 0

    tv = ptr16(_TRIAD_VALUE)
    gain = ptr16(_GAIN)
    s0 = int(score[0])
    s1 = int(score[1])
    val = int(tv[s0]) - int(tv[s1])
    val += (mob0 - mob1) * W_MOBILITY
    val -= (blk0 - blk1) * W_BLOCKED
    val += cen0 - cen1
    val += (lat0 - lat1) * W_LATENT
    out[3] = nth >> 1
    if stm != 0:
        if t0 > 1:
            val += (int(gain[s0]) * T_OPP_MANY) >> 6
        elif t0 != 0:
            val += (int(gain[s0]) * T_OPP_ONE) >> 6
        if t1 > 1:
            val -= (int(gain[s1]) * T_OWN_MANY) >> 6
        elif t1 != 0:
            val -= (int(gain[s1]) * T_OWN_ONE) >> 6
        out[0] = t1
        if mob1 < 255:
            out[1] = mob1
        else:
            out[1] = 255
        out[2] = t0
        return 0 - val
    if t1 > 1:
        val -= (int(gain[s1]) * T_OPP_MANY) >> 6
    elif t1 != 0:
        val -= (int(gain[s1]) * T_OPP_ONE) >> 6
    if t0 > 1:
        val += (int(gain[s0]) * T_OWN_MANY) >> 6
    elif t0 != 0:
        val += (int(gain[s0]) * T_OWN_ONE) >> 6
    out[0] = t0
    if mob0 < 255:
        out[1] = mob0
    else:
        out[1] = 255
    out[2] = t1
    return val


# evaluate_parts(board, score, side): what the search calls (no Position
# attribute look-ups per node); the viper one on MicroPython, the plain one
# (faster there) on CPython.
evaluate_parts = evaluate_viper if MICROPYTHON else _evaluate_py


def evaluate(pos):
    """Score pos for the side to move (see the top of this file)."""
    return evaluate_parts(pos.board, pos.score, pos.side)
