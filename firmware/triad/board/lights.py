# The LED frame, drawn from the controller's state as prioritised layers:
# faults over the lifted piece and its destinations over scoring lines over
# the last move over idle. Roles come from the game's face (a die's value,
# an owner's colour); this module knows the board's own colours (palette)
# and where each side's status LEDs are (the board description).
from triad.compat import ticks_diff
from triad.board.fastbytes import zero as _clear, differs as _differs
from triad.games import ROLE_GAME, ROLE_SOURCE, ROLE_REMOVE, ROLE_TRIAD
from triad.board import palette as pal

# Controller states (triad.board.controller; not imported: no cycle).
_SETUP = 0
_PLAY = 1
_FINISH = 2
_OVER = 3
_CHOOSE = 5
_SELFTEST = 6

_BOARD_RGB = (pal.OFF, pal.SOURCE, pal.SOURCE, pal.TRIAD)


def colour(game, role):
    if role >= ROLE_GAME:
        return game.ROLE_RGB[role - ROLE_GAME]
    if role < 4:
        return _BOARD_RGB[role]
    return pal.OFF


def render(ctl, frame, now, occ):
    """Fill the LED frame from the controller, the sensed board and the time."""
    _clear(frame, ctl.frame_bytes)
    st = ctl.state
    if st == _SELFTEST:
        ctl.selftest.render(frame, now)
        return
    g = ctl.game
    n = ctl.n
    pos = ctl.pos
    fast = (now // pal.FAST_BLINK_MS) & 1
    slow = (now // pal.SLOW_BLINK_MS) & 1
    _status(ctl, frame, now)
    if st == _OVER:
        _render_win(ctl, frame, now)
        return
    if ticks_diff(ctl.values_until, now) > 0:
        for i in range(n):
            r = g.shows(pos, i)
            if r and occ[i]:
                _set(frame, i, colour(g, r))
    elif ctl.last[0] >= 0:
        _set(frame, ctl.last[0], pal.LAST_MOVE)
        if ctl.last[1] >= 0:
            _set(frame, ctl.last[1], pal.LAST_MOVE)
    if st == _FINISH:
        _render_finish(ctl, frame, occ, fast, slow)
        return
    exp = ctl.expected
    lifted = ctl.lifted
    dest = ctl.dest
    err = ctl.error_at >= 0
    if st == _PLAY and lifted < 0 and not ctl.n_started and not ctl.engine_move and not ctl.plays(pos.side):
        # The untouched board: the game's guidance for the turn's first
        # step (Cornelson: where a gem may go, and where it would capture).
        idle = ctl.idle
        for i in range(n):
            if idle[i] and not occ[i]:
                _set(frame, i, colour(g, idle[i]))
    # Differences between the board and the game (nothing is drawn when
    # there are none, except the set-up's pieces).
    if st == _SETUP or _differs(occ, exp, n):
        for i in range(n):
            o = occ[i]
            e = exp[i]
            if o == e:
                if st == _SETUP and e:
                    _set(frame, i, colour(g, g.shows(pos, i)))
                continue
            if e:
                if st == _PLAY and i == lifted:
                    _set(frame, i, pal.SOURCE)
                elif st == _SETUP:
                    # Where a piece still has to go: its role, blinking.
                    if slow:
                        _set(frame, i, colour(g, g.shows(pos, i)))
                elif slow:
                    _set(frame, i, pal.MISSING)
            else:
                if st == _PLAY and lifted >= 0 and dest[i] and not err:
                    _set(frame, i, colour(g, dest[i]))
                elif fast:
                    _set(frame, i, pal.ERROR)
    if st == _PLAY and lifted >= 0 and not err:
        marked = ctl._lift_marks is not None
        nxt = ctl.nxt
        for i in range(n):
            if dest[i] and not occ[i]:
                _set(frame, i, colour(g, dest[i]))
            elif marked and slow and occ[i] and exp[i] and nxt[i] >= ROLE_GAME:
                # The game's lift_marks for the piece in the hand, blinking
                # as in FINISH (Cornelson's Barriers when a jewel is the
                # turn's first lift: no post vacant, nothing placed yet).
                _set(frame, i, colour(g, nxt[i]))
    if st == _PLAY and ctl.error_from >= 0 and fast:
        _set(frame, ctl.error_from, pal.SOURCE)
    if st == _CHOOSE and slow:
        _set(frame, ctl.choice_site, colour(g, ctl.choice_role))
    em = ctl.engine_move
    if st == _PLAY and em and lifted < 0 and not err:
        # The board's move: the piece to lift blinks, its destination shows
        # the role it takes there.
        _render_move(ctl, frame, em, slow, True)
    if st == _PLAY and (ctl.thinking or ctl.hinting):
        for s in g.CENTRE:
            _set(frame, s, pal.HINT)
    if ctl.banner and ticks_diff(ctl.banner_until, now) > 0:
        _render_banner(ctl, frame)
    if st == _PLAY and ctl.hint_move and ticks_diff(ctl.hint_until, now) > 0:
        _render_move(ctl, frame, ctl.hint_move, slow, False)
    if st == _PLAY and ctl.blocked >= 0 and slow:
        # A piece of the mover's that has no move: the ones that have one pulse.
        src = ctl.sources
        for i in range(n):
            if src[i] and occ[i]:
                _set(frame, i, pal.SOURCE)
    if st == _PLAY and ctl.note2 and lifted < 0 and slow and not ctl.n_started:
        # The game asks for attention (Note 2): every piece that can act pulses.
        src = ctl.sources
        for i in range(n):
            if src[i] and occ[i]:
                _set(frame, i, pal.SOURCE)


def _render_move(ctl, frame, m, slow, blink_source):
    """A move's first lift (HINT) and first placement (its role)."""
    g = ctl.game
    fp = ctl.fp
    nf = g.footprint(ctl.pos, m, fp)
    src = -1
    for j in range(nf):
        e = fp[j]
        act = (e >> 8) & 3
        s = e & 255
        if src < 0 and act != 1:
            src = s
            if slow or not blink_source:
                _set(frame, s, pal.HINT)
            if act == 2 and blink_source:
                return  # turned in place: the value is picked on the buttons
        elif act == 1:
            if slow or blink_source:
                _set(frame, s, colour(g, e >> 10))
            return


def _render_banner(ctl, frame):
    g = ctl.game
    if ctl.banner == 1:
        # Who the board plays: that side's home sites in its colour.
        for side in range(len(g.SIDES)):
            if ctl.plays(side):
                for s in g.HOME[side]:
                    _set(frame, s, g.SIDE_RGB[side])
    else:
        sites = g.LEVEL_SITES
        for i in range(min(ctl.level, len(sites))):
            _set(frame, sites[i], pal.HINT)


def _render_finish(ctl, frame, occ, fast, slow):
    # A move waits for its further steps: the marks (a new Triad) pulse,
    # pieces still to take off blink in their roles (one's own removal
    # choices as the Triad), sites still to fill glow in theirs.
    g = ctl.game
    exp = ctl.expected
    nxt = ctl.nxt
    marks = ctl.marks
    for i in range(ctl.n):
        r = nxt[i]
        if marks[i] and (slow or not r):
            _set(frame, i, pal.TRIAD)
        elif r and r != ROLE_REMOVE and (not exp[i] or slow):
            _set(frame, i, colour(g, r))
        if occ[i] != exp[i]:
            if ctl.n_cand == 0:
                if exp[i] and r == ROLE_REMOVE:
                    _set(frame, i, pal.SOURCE)
                elif fast:
                    _set(frame, i, pal.ERROR)
            elif r == ROLE_REMOVE and not occ[i]:
                _set(frame, i, pal.SOURCE)  # a removal choice in the hand


def _render_win(ctl, frame, now):
    g = ctl.game
    w = g.outcome(ctl.pos)
    if w < 0 or w >= len(g.SIDES):
        w = (now // 1000) % len(g.SIDES)  # a draw: every colour in turn
    rgb = g.SIDE_RGB[w]
    step = (now // 120) % 12
    phase = ctl.sweep
    marks = ctl.marks
    for i in range(ctl.n):
        p = phase[i]
        if p == step or (p + 6) % 12 == step or marks[i]:
            _set(frame, i, rgb)


def _status(ctl, frame, now):
    b = ctl.board
    g = ctl.game
    base = ctl.status_base
    pos = ctl.pos
    if ctl.state != _OVER:
        _set(frame, base + b.STATUS_TURN[pos.side], pal.TURN)
    if ctl.unsaved and (now // pal.SLOW_BLINK_MS) & 1:
        # Not safely saved: every turn LED blinks red until the store says so.
        for s in b.STATUS_TURN:
            _set(frame, base + s, pal.ERROR)
    extra = getattr(b, "STATUS_GAME", None)
    if extra and g.status_lights is not None:
        # The game's own status (Cornelson: its mode and a tourney's tally).
        roles = ctl.status_roles
        k = g.status_lights(pos, ctl.options, roles)
        for j in range(min(k, len(extra))):
            if roles[j]:
                _set(frame, base + extra[j], colour(g, roles[j]))
    score_slots = b.STATUS_SCORE
    for p in range(min(len(score_slots), len(g.SIDES))):
        slots = score_slots[p]
        k = g.score(pos, p)
        if k > len(slots):
            k = len(slots)
        for j in range(k):
            _set(frame, base + slots[j], pal.STATUS_ON)


def _set(frame, slot, rgb):
    j = slot * 3
    frame[j] = rgb[0]
    frame[j + 1] = rgb[1]
    frame[j + 2] = rgb[2]
