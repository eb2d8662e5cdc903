# The matcher's kernels (board/matcher.py): the loops that run on the tick
# that sees a change, for every move of a changed site, as viper on the
# board. Each has a plain meaning (its source run as Python: the shim in
# triad.compat makes the decorator and the pointer casts identities) that
# tests/fw/test_tick_fast_paths.py proves equal to the machine code.
#
# Viper cannot read imported names: the footprint acts and the scratch
# layout are this module's own consts, checked against triad.games here.
from triad.compat import const, micropython, ptr8, ptr32
from triad.games import LIFT, PLACE, TOUCH, WILD, ROLE_SOURCE
from triad.board.fastbytes import _WORDS

# The matcher's scratch bytes (Matcher.work): per footprint step "done" and
# "last on its site", then one move's figures, then the pieces in the hand.
_W_STEP = const(0)
_W_LAST = const(32)  # MAX_STEPS
_W_HAND = const(64)  # sites of the pieces in the hand (up to MAX_STEPS)
WORK_SIZE = const(96)
# What match says of a move (0: it does not explain the board).
_M_CANDIDATE = const(1)  # its done steps explain every difference
_M_STARTED = const(2)  # ... and something of it has happened
_M_FULL = const(4)  # the board shows it complete
_M_PROGRESS = const(8)  # its first placement is done (or it began in place)
_M_TOUCHED = const(16)  # it begins in place, and that piece alone was touched
_M_PLACED = const(32)  # a placement of it is done
# (the matcher folds the same values into its own consts: it checks them
# against this tuple)
LAYOUT = (_M_CANDIDATE, _M_STARTED, _M_FULL, _M_PROGRESS, _M_TOUCHED, _M_PLACED, _W_HAND)
# Footprint acts: the values of triad.games' LIFT, PLACE, TOUCH and WILD.
_LIFT = const(0)
_PLACE = const(1)
_TOUCH = const(2)
_WILD = const(255)
_ROLE_SOURCE = const(1)
# How long after a landing (ms: the stamps carry the scan's time) a site may
# still empty and be read as the landed piece's own going: a slide whose
# source switch opens after the destination closed, or chatters as the
# piece goes (40 ms in tests/scripts/browne/07, plus a scan). A person who
# puts a piece down and then lifts another takes longer (the fuzzer's
# fastest: 100 ms): that second piece is a capture, never the mover, and a
# site that empties within this time is no capture (a slide from it). The
# same chatter lets a drop count when a captured piece's going is confirmed
# up to this long after it (the bunny piece put down at once by the other
# hand: tests/scripts/browne/13).
_SLIDE_MS = const(60)
if (_LIFT, _PLACE, _TOUCH, _WILD, _ROLE_SOURCE) != (LIFT, PLACE, TOUCH, WILD, ROLE_SOURCE):
    raise ImportError("match_kernels: the footprint constants disagree with triad.games")


@micropython.viper
def begins(fp, nf: int, site: int) -> int:
    """1 when the move whose footprint is fp may begin at site, else 0: at
    its first step's site; and when it begins with the lift of a piece that
    moves (ROLE_SOURCE), at any such lift's site, as those pieces are moved
    in any order (match takes lifts in any order: Cornelson's jewels in a
    turn without a gem, issue 35). The game's gen(sel) keeps exactly the
    moves that may begin at sel (docs/architecture.md)."""
    f = ptr32(fp)
    if nf <= 0:
        return 0
    e = f[0]
    if e & 255 == site:
        return 1
    if (e >> 8) & 3 != _LIFT or (e >> 10) != _ROLE_SOURCE:
        return 0
    j = 1
    while j < nf:
        e = f[j]
        if e & 255 == site and (e >> 8) & 3 == _LIFT and (e >> 10) == _ROLE_SOURCE:
            return 1
        j += 1
    return 0


@micropython.viper
def begun_before(fp, nf: int, occ, exp, vis, cur: int) -> int:
    """1 when the move whose footprint is fp may begin (begins) at a site
    before cur that differs from the game or was visited this turn, else 0.
    The matcher goes through those sites in order and matches each one's
    moves (gen's sel): such a move was matched there already, and is
    matched once (counted twice, a turn would fit the board "twice" and
    the board wait as for two readings)."""
    f = ptr32(fp)
    o = ptr8(occ)
    x = ptr8(exp)
    v = ptr8(vis)
    if nf <= 0:
        return 0
    e = f[0]
    if (e >> 8) & 3 != _LIFT or (e >> 10) != _ROLE_SOURCE:
        return 0  # (it begins at its first step's site only: cur)
    j = 0
    while j < nf:
        e = f[j]
        s = e & 255
        if s < cur and (e >> 8) & 3 == _LIFT and (e >> 10) == _ROLE_SOURCE:
            if o[s] != x[s] or v[s] != 0:
                return 1
        j += 1
    return 0


@micropython.viper
def free_extra(occ, exp, vis, fp, nf: int, n: int, arr, dep) -> int:
    """Where a free drop went: a site that holds a piece although the first
    nf steps leave it empty (an empty cell, or one the move lifted, seen
    lifted), put down after every one of those steps or in the scan that
    saw the last of them, or up to _SLIDE_MS before a piece's going was
    confirmed (a switch that chatters as the piece goes; the bunny piece comes
    last: a piece put back where it was lifted, before the captures were
    taken off, is not the drop), or -1. Only a piece that came down this
    turn (its filling stamped) is a drop: a piece lifted and put back
    before the board was at rest again is the one that stood there (the
    stamps were cleared then), and a drop bound to it read a slide whose
    landing never came as under way with every piece in place (issue 48:
    Browne's board then never played its move)."""
    o = ptr8(occ)
    x = ptr8(exp)
    v = ptr8(vis)
    f = ptr32(fp)
    ar = ptr32(arr)
    dp = ptr32(dep)
    # The latest of those steps, each at its first event this turn (a
    # landed piece knocked and put back after the drop is still before it;
    # inline: no deeper frame on the tick): late of their placements, gone
    # of their emptyings (a piece's going may be sensed up to _SLIDE_MS
    # late, its switch chattering as it goes: the drop put down at once
    # after it still came after it).
    late = 0
    gone = 0
    t = 0
    while t < nf:
        g = f[t]
        u = g & 255
        if u != _WILD:
            if (g >> 8) & 3 == _PLACE:
                if ar[n + u] > late:
                    late = ar[n + u]
            elif dp[n + u] > gone:
                gone = dp[n + u]
        t += 1
    i = 0
    while i < n:
        if o[i] and ar[i] > 0 and ar[i] >= late and ar[i] + _SLIDE_MS >= gone:
            after = x[i]
            j = 0
            while j < nf:
                e = f[j]
                if e & 255 == i:
                    a = (e >> 8) & 3
                    if a == _LIFT:
                        after = 0 if v[i] else 1
                    elif a == _PLACE:
                        after = 1
                j += 1
            if not after:
                return i
        i += 1
    return -1


@micropython.viper
def stamp(occ, prev, arr, dep, seq: int, n: int) -> int:
    """Stamp the sites that changed since prev (arr: filled, dep: emptied;
    [i] the last time, [n + i] the first time this turn) with the turn's
    next count, and make prev equal occ; the count."""
    o = ptr8(occ)
    p = ptr8(prev)
    ar = ptr32(arr)
    dp = ptr32(dep)
    changed = 0
    i = 0
    while i < n:
        if o[i] != p[i]:
            if changed == 0:
                changed = 1
                if seq < 0x3FFFFFFF:
                    seq += 1
            if o[i]:
                ar[i] = seq
                if ar[n + i] == 0:
                    ar[n + i] = seq
            else:
                dp[i] = seq
                if dp[n + i] == 0:
                    dp[n + i] = seq
            p[i] = o[i]
        i += 1
    return seq


@micropython.viper
def zero_i(buf, n: int):
    b = ptr32(buf)
    i = 0
    while i < n:
        b[i] = 0
        i += 1


@micropython.viper
def _steps(fp, nf: int, occ, exp, vis, work, n: int, arr, dep) -> int:
    """match's first part: which of the footprint's steps are done
    (work[_W_STEP + j]) and which is each site's last (work[_W_LAST + j]),
    by the rules in match's docstring. Returns the first step not done (nf
    when all are), or -1 when a piece the move takes off went as its
    landing came (a slide: another move). A function of its own because
    one viper body of both parts is more than the RP2040's Thumb emitter
    takes ("native method too big": about 2 KB of code)."""
    f = ptr32(fp)
    ar = ptr32(arr)
    dp = ptr32(dep)
    o = ptr8(occ)
    x = ptr8(exp)
    v = ptr8(vis)
    w = ptr8(work)
    j = 0
    while j < nf:
        s = f[j] & 255
        last = 1
        t = j + 1
        while t < nf:
            if f[t] & 255 == s:
                last = 0
                break
            t += 1
        w[_W_LAST + j] = last
        j += 1
    first = nf
    lifted_before = 1
    placed_all = 1  # every placement before this step is done
    late = 0
    gone = 0
    landed = 0  # the first landing of a piece lifted before it (stamp), 0 none
    slid = 0  # a piece this move takes off went as that landing came: a slide
    j = 0
    while j < nf:
        e = f[j]
        s = e & 255
        act = (e >> 8) & 3
        done = 0
        if s == _WILD:
            done = 0
        elif act == _PLACE:
            if o[s] == 1 and lifted_before:
                if j == 0:
                    done = 1
                else:
                    g = f[j - 1]
                    u = g & 255
                    if (g >> 8) & 3 == _LIFT and (g >> 10) == _ROLE_SOURCE:
                        # (its leaving may be sensed after the landing: a
                        # switch that chatters as the piece goes; the landing
                        # at its first arrival: a landed piece knocked and put
                        # back after a drop on the cell it left is still it)
                        # (and only within a slide's time: a source left
                        # later was still standing when this piece landed)
                        land = ar[n + s]
                        if 0 < land and not (dp[u] < ar[u] and ar[u] < land):
                            if dp[n + u] <= land or dp[n + u] - land <= _SLIDE_MS:
                                done = 1
                                if dp[n + u] <= land:
                                    landed = land
                    elif placed_all and ar[s] >= late and ar[s] + _SLIDE_MS >= gone:
                        # (late, gone: see the end of this loop; and never
                        # before a placement not made: a piece landed on E6
                        # is no drop of a slide to C5 still to come, issue
                        # 35.13: "landed E5C5" for a landing on E6)
                        done = 1
        else:
            if act == _LIFT:
                if o[s] == 0 or (v[s] != 0 and w[_W_LAST + j] == 0):
                    done = 1
                if x[s] == 0 and ar[n + s] == 0:
                    # A piece lifted from a site the game has empty must
                    # have come down there this turn (the stamps): a site
                    # visited before everything was put back is not a
                    # removal done (a2b1xb1 stayed under way after the die
                    # went back to a2, and a2=2 could not be made).
                    done = 0
                if done and landed and (e >> 10) != _ROLE_SOURCE:
                    # Another piece taken off (a capture) as the mover,
                    # lifted before, landed: it emptied within a slide's
                    # time of that landing, so the landing was its slide.
                    q = dp[n + s] - landed
                    if 0 <= q and q <= _SLIDE_MS:
                        slid = 1
            elif v[s] != 0:
                done = 1
            lifted_before = done
        w[_W_STEP + j] = done
        if act == _PLACE and done == 0:
            placed_all = 0
        if done == 0 and first == nf:
            first = j
        # The latest first event this turn of the steps so far (late: a
        # PLACE's first filling; gone: another step's first emptying, which
        # a switch that chatters as the piece goes confirms up to _SLIDE_MS
        # late), for a later placement that is no lifted piece's: kept as
        # the loop goes (no inner loop, no deeper frame on the tick under a
        # search).
        if s != _WILD:
            if act == _PLACE:
                if ar[n + s] > late:
                    late = ar[n + s]
            elif dp[n + s] > gone:
                gone = dp[n + s]
        j += 1
    if slid:
        return -1
    return first


@micropython.viper
def match(fp, nf: int, occ, exp, vis, work, ctx: int, nxt, n: int, first: int) -> int:
    """One move's footprint against the sensed board.

    Which steps are done, in a person's order: a placement counts only
    once the lift before it is done (a stray object is not "the piece
    placed early"); lifts and touches in any order. The move is a
    candidate when its done steps explain every difference (ctx: the
    outcome picked, site | role << 8, 255 none; the differences << 16;
    the one site visited + 1 << 23); it is under way when something of it
    happened; then the steps it still needs are lit in nxt (a role per
    site): the first one not done, and with a lift the other lifts before
    the next placement (any order); of TOUCHes in a row only the first (a
    chain swapped in order); a drop's every empty site; and for pieces
    moved in any order (Cornelson's jewels), once no TOUCH is owed, every
    piece still to lift, and a piece in the hand (its LIFT done, the PLACE
    after it not) shows its destination and is listed at work[_W_HAND...]
    for the game's marks.

    The order of events counts too (arr, dep: when each site last filled
    and emptied this turn): a placement right after a LIFT of a piece that
    moves (ROLE_SOURCE) is done only when that piece was in the hand as it
    came down (its site not filled again between its emptying and the
    landing: a piece put back is not the one that landed; its emptying may
    be sensed after the landing, when its switch chatters as it goes, but
    only within _SLIDE_MS: the stamps are ms); and no other piece the move
    takes off went in that landing's scan or within _SLIDE_MS after it
    (then the landing was that piece's slide: another move); any other placement (a
    drop) only once every placement before it is made, and when it came
    down after every step before it, each taken at
    its first event this turn (or in the
    scan that saw the last of them; a piece's going may be confirmed up to
    _SLIDE_MS after the drop, its switch chattering as it goes). So a turn is
    never read from pieces that went elsewhere than it says.

    Returns 0 (no candidate) or _M_* flags | pieces in the hand << 8; work
    keeps which steps are done (_W_STEP) for forfeit. Viper: the board
    runs this for every move of a changed site on the tick that sees it.
    first: what _steps returned for this footprint (the caller runs _steps
    first, then match, one after the other: called from match it was one
    more frame on the tick's C stack under a search)."""
    f = ptr32(fp)
    o = ptr8(occ)
    x = ptr8(exp)
    v = ptr8(vis)
    w = ptr8(work)
    out = ptr8(nxt)
    fsite = ctx & 255
    frole = (ctx >> 8) & 255
    n_diff = (ctx >> 16) & 127
    if first < 0:
        # The landing was another piece's slide: another move. No count of
        # explained differences is 255, so this returns 0 at that check
        # below: a return here would be a forward jump over the whole
        # body, longer than ARMv6-M's 2 KB branch ("native method too big").
        n_diff = 255
    only = ((ctx >> 23) & 127) - 1
    hit = 0  # differing sites this move explains (at a done step)
    net = 0  # sites this move changes
    at_final = 0  # ... that already show their final state
    hidden = 0  # steps that leave no trace, done
    ok = 1  # every traceless step was done
    placed = 0
    j = 0
    while j < nf:
        e = f[j]
        s = e & 255
        act = (e >> 8) & 3
        if s == _WILD:
            net += 1  # a drop still to come
        elif w[_W_LAST + j]:
            # The states this site passes through (bit 0 empty, bit 1
            # occupied) at done steps; after the move: its last step's.
            reach = 0
            t = 0
            while t <= j:
                g = f[t]
                if g & 255 == s:
                    a = (g >> 8) & 3
                    if w[_W_STEP + t] or a != _PLACE:
                        if a == _TOUCH:
                            reach |= 3
                        else:
                            reach |= 1 << a
                t += 1
            final = act
            if act == _TOUCH:
                final = x[s]
            oo = o[s]
            if oo != x[s] and (reach >> oo) & 1:
                hit += 1
            if final != x[s]:
                net += 1
                if oo == final:
                    at_final += 1
            elif v[s] and oo == x[s] and (act != _LIFT or w[_W_STEP + j]):
                # (a lift that leaves its site as the game has it is
                # hidden only when done: see the stamps above)
                hidden += 1
            else:
                ok = 0
            if act == _TOUCH and fsite == s and (e >> 10) != frole:
                return 0  # another outcome than the one picked
        if act == _PLACE and w[_W_STEP + j]:
            placed = 1
        j += 1
    if hit != n_diff:
        return 0
    r = _M_CANDIDATE
    touched = 0
    e = f[0]
    if (e >> 8) & 3 == _TOUCH:
        # A turn that begins in place (a die turned where it stands) has
        # begun only when that piece alone was lifted and put back.
        if not (w[_W_STEP] and only == (e & 255)):
            return r  # its piece went elsewhere too: not this turn
        if o[e & 255] == x[e & 255]:
            # Back where it stood: its outcome is picked now. (With the
            # piece in the hand the pick flipped with play every tick, and
            # a confirm then fixed a value never shown.)
            touched = 1
    elif hit == 0 and hidden == 0:
        return r  # consistent only because nothing has happened
    r |= _M_STARTED
    if placed:
        r |= _M_PLACED
    if touched:
        r |= _M_TOUCHED
    if placed or touched:
        r |= _M_PROGRESS
    if ok and at_final == net and net == n_diff:
        r |= _M_FULL
    # The steps it still needs, lit.
    j = first
    while j < nf:
        e = f[j]
        act = (e >> 8) & 3
        if act == _PLACE and j > first:
            break
        if e & 255 == _WILD:
            role = e >> 10
            i = 0
            while i < n:
                if not x[i] and not o[i]:
                    out[i] = role
                i += 1
        elif not w[_W_STEP + j]:
            out[e & 255] = e >> 10
            if act == _TOUCH:
                break
        if act == _PLACE:
            break
        j += 1
    hand = 0
    owed = 0
    j = first
    while j < nf:
        e = f[j]
        a = (e >> 8) & 3
        if w[_W_STEP + j] or e & 255 == _WILD:
            pass
        elif a == _TOUCH:
            owed = 1
        elif a == _LIFT:
            if (e >> 10) == _ROLE_SOURCE and not owed:
                out[e & 255] = _ROLE_SOURCE
        elif j > 0 and w[_W_STEP + j - 1]:
            g = f[j - 1]
            if (g >> 8) & 3 == _LIFT and (g >> 10) == _ROLE_SOURCE and not o[g & 255]:
                out[e & 255] = e >> 10
                if hand < 32:
                    w[_W_HAND + hand] = g & 255
                    hand += 1
        j += 1
    return r | (hand << 8)


def forfeit(fp, nf, step, occ, dep, n):
    """When a piece is off the board (a LIFT done) while a TOUCH before it
    in the footprint was not done before it left: how many TOUCHes in a row
    from the first were; else -1. Before means seen begun in an earlier scan
    (dep: when each site first emptied this turn): a swap the board saw only
    in the scan that saw the jewel go, or after it, did not come first
    (issue 23: a late swap counted as in time); a swapped gem knocked later
    does not undo its swap. Only while the move's first placement stands:
    a piece that came down there and went again (a stray object taken off,
    then the gem put on another post) leaves that move's reading open, and
    a forfeit decided on it recorded a turn nobody made (issue 23, found by
    the fuzzer: `G1!0` for a G1 that captures nothing)."""
    if nf and (fp[0] >> 8) & 3 == PLACE and not occ[fp[0] & 255]:
        return -1
    k = 0
    owed = False
    j = 0
    while j < nf:
        e = fp[j]
        if (e >> 8) & 3 == LIFT and step[j] and not occ[e & 255]:
            # the piece off the board: were the TOUCHes before it done first?
            t = 0
            while t < j:
                g = fp[t]
                if (g >> 8) & 3 == TOUCH:
                    if step[t] and 0 < dep[n + (g & 255)] < dep[n + (e & 255)] and not owed:
                        k += 1
                    else:
                        owed = True
                t += 1
            return k if owed else -1
        j += 1
    return -1


@micropython.viper
def diff_bytes(occ, exp, n: int) -> int:
    """Compares the sensed sites with the expected ones: missing pieces
    (expected, not sensed) and extra objects, packed into one small int
    (30 bits): count missing | count extra << 8 | (last missing site + 1)
    << 16 | (last extra site + 1) << 23. Counts saturate at 255; sites up
    to 126 fit. Viper: it runs every tick."""
    o = ptr8(occ)
    e = ptr8(exp)
    nmiss = 0
    nextra = 0
    miss = 0
    extra = 0
    i = 0
    while i < n:
        if o[i] != e[i]:
            if e[i]:
                if nmiss < 255:
                    nmiss += 1
                miss = i + 1
            else:
                if nextra < 255:
                    nextra += 1
                extra = i + 1
        i += 1
    return nmiss | (nextra << 8) | (miss << 16) | (extra << 23)


@micropython.viper
def _diff_words(occ, exp, n: int) -> int:
    """diff, skipping four equal sites at a time where both buffers are
    word-aligned (the board equals the game on almost every tick; 109 sites
    byte by byte were 0.07 ms of tri_v1's tick). Machine code only: see
    fastbytes._WORDS."""
    o = ptr8(occ)
    e = ptr8(exp)
    ow = ptr32(occ)
    ew = ptr32(exp)
    aligned = ((int(o) | int(e)) & 3) == 0
    nmiss = 0
    nextra = 0
    miss = 0
    extra = 0
    i = 0
    while i < n:
        if aligned and (i & 3) == 0 and i + 4 <= n and ow[i >> 2] == ew[i >> 2]:
            i += 4
            continue
        if o[i] != e[i]:
            if e[i]:
                if nmiss < 255:
                    nmiss += 1
                miss = i + 1
            else:
                if nextra < 255:
                    nextra += 1
                extra = i + 1
        i += 1
    return nmiss | (nextra << 8) | (miss << 16) | (extra << 23)


diff = _diff_words if _WORDS else diff_bytes


@micropython.viper
def only_one(vis, n: int) -> int:
    """The one marked site, or -1 when none or several are."""
    v = ptr8(vis)
    found = -1
    i = 0
    while i < n:
        if v[i]:
            if found >= 0:
                return -1
            found = i
        i += 1
    return found


@micropython.viper
def next_changed(occ, exp, vis, i: int, n: int) -> int:
    """The first site from i that differs from the game or was visited (n: none)."""
    o = ptr8(occ)
    e = ptr8(exp)
    v = ptr8(vis)
    while i < n:
        if o[i] != e[i] or v[i]:
            return i
        i += 1
    return n
