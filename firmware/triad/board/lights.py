# The LED frame, drawn from the controller's state as prioritised layers:
# faults over the lifted piece and its destinations over scoring lines over
# the last move over idle. Roles come from the game's face (a die's value,
# an owner's colour); this module knows the board's own colours (palette)
# and where each side's status LEDs are (the board description).
from triad.compat import ticks_diff
from triad.board.fastbytes import zero as _clear, move as _move
from triad.board.fastbytes import next_diff as _next_diff, next_set as _next_set, paint_where as _paint_where
from triad.games import ROLE_GAME, ROLE_SOURCE, ROLE_REMOVE, ROLE_TRIAD
from triad.board import palette as pal

# Controller states (triad.board.controller; not imported: no cycle).
_SETUP = 0
_PLAY = 1
_FINISH = 2
_OVER = 3
_SYNC = 4
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
    # A fault shows once the board has rested in it (controller.PASS_MS): a
    # piece merely passing over a site does not flash red.
    err = ctl.error_at >= 0 and ctl.in_error
    fault = ctl.in_error or st == _SETUP or st == _SYNC
    if (ctl._idle_hints is not None and st == _PLAY and lifted < 0 and not ctl.n_started
            and not ctl.engine_move and not ctl.plays(pos.side)):
        # The untouched board: the game's guidance for the turn's first
        # step (Cornelson: where a gem may go, and where it would capture).
        _render_idle(ctl, frame, occ, n)
    # Differences between the board and the game (nothing is drawn when
    # there are none, except the set-up's pieces).
    if st == _SETUP:
        # The set-up's pieces already in place show their roles.
        i = _next_set(exp, 0, n)
        while i < n:
            if occ[i]:
                _set(frame, i, colour(g, g.shows(pos, i)))
            i = _next_set(exp, i + 1, n)
    i = _next_diff(occ, exp, 0, n)
    while i < n:
        # (only where the board and the game differ: viper finds them)
        e = exp[i]
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
            elif fast and fault:
                _set(frame, i, pal.ERROR)
        i = _next_diff(occ, exp, i + 1, n)
    if st == _PLAY and lifted >= 0 and not err:
        i = _next_set(dest, 0, n)
        while i < n:
            if not occ[i]:
                _set(frame, i, colour(g, dest[i]))
            i = _next_set(dest, i + 1, n)
        if ctl._lift_marks is not None and slow:
            # The game's lift_marks for the piece in the hand, blinking as
            # in FINISH (Cornelson's Barriers when a jewel is the turn's
            # first lift: no post vacant, nothing placed yet).
            nxt = ctl.nxt
            i = _next_set(nxt, 0, n)
            while i < n:
                if occ[i] and exp[i] and nxt[i] >= ROLE_GAME:
                    _set(frame, i, colour(g, nxt[i]))
                i = _next_set(nxt, i + 1, n)
    if st == _PLAY and err and ctl.error_from >= 0 and fast:
        _set(frame, ctl.error_from, pal.SOURCE)
    if st == _CHOOSE and slow:
        _set(frame, ctl.choice_site, colour(g, ctl.choice_role))
    em = ctl.engine_move
    if st == _PLAY and em and lifted < 0 and not ctl.in_error:
        # (Not while something is wrong, a piece knocked over say: the
        # fault's own lights say what to put right first.)
        # The board's move, for a person to carry out: the piece to lift
        # breathes in the board's side colour, its destination in the role
        # it takes there, in counter-phase (the light flows from one to the
        # other). A hint is steady: the two never look alike.
        _render_move(ctl, frame, em, breath(now))
    if st == _PLAY and (ctl.thinking or ctl.hinting):
        _render_think(g.CENTRE, frame, now)
    if ctl.banner and ticks_diff(ctl.banner_until, now) > 0:
        _render_banner(ctl, frame)
    if st == _PLAY and ctl.hint_move and ticks_diff(ctl.hint_until, now) > 0:
        _render_move(ctl, frame, ctl.hint_move, 0)
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


def _render_move(ctl, frame, m, level):
    """A move's first lift and first placement. level 0: a hint (the piece
    steady cyan, its destination steady in its role); else the board's own
    move at that breathing level (the piece in the mover's side colour, the
    destination in its role at the opposite level)."""
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
            if level:
                _set_dim(frame, s, g.SIDE_RGB[ctl.pos.side], level)
                if act == 2:
                    return  # turned in place: the value is picked on the buttons
            else:
                _set(frame, s, pal.HINT)
        elif act == 1:
            if level:
                _set_dim(frame, s, colour(g, e >> 10), _BREATH_LOW + _BREATH_HIGH - level)
            else:
                _set(frame, s, colour(g, e >> 10))
            return


_BREATH_LOW = 48
_BREATH_HIGH = 48 + 15 * 13


def breath(now):
    """A breathing level, _BREATH_LOW.._BREATH_HIGH and back in 32 steps of
    BREATHE_STEP_MS (a triangle wave)."""
    k = (now // pal.BREATHE_STEP_MS) & 31
    if k > 15:
        k = 31 - k
    return _BREATH_LOW + k * 13


def _render_think(sites, frame, now):
    """The board thinks: one light circles the sites (in their order), a
    faint one behind it; a ring of one or two still has three steps, so it
    pulses rather than stands."""
    k = len(sites)
    ring = k if k > 2 else 3
    head = (now // pal.THINK_STEP_MS) % ring
    tail = (head + ring - 1) % ring
    for i in range(k):
        if i == head:
            _set(frame, sites[i], pal.THINK)
        elif i == tail:
            _set_dim(frame, sites[i], pal.THINK, 64)


def _render_banner(ctl, frame):
    g = ctl.game
    if ctl.banner == 1:
        # Who the board plays: that side's home sites in its colour.
        for side in range(len(g.SIDES)):
            if ctl.plays(side):
                for s in g.HOME[side]:
                    _set(frame, s, g.SIDE_RGB[side])
    else:
        # The level as a gauge: that many sites of the level row bright,
        # the rest of the row faint, in the level's own colour.
        sites = g.LEVEL_SITES
        lv = ctl.level
        for i in range(len(sites)):
            _set_dim(frame, sites[i], pal.LEVEL, 255 if i < lv else 28)


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
                elif fast and ctl.in_error:
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
    # The status LEDs change with the position (its version), the end of
    # the game and the unsaved blink only: drawn again then, else copied
    # from the last drawing (they cost as much as the rest of the frame).
    phase = 0
    if ctl.save_lost:
        phase = 3 + ((now // pal.FAST_BLINK_MS) & 1)
    elif ctl.unsaved:
        phase = 1 + ((now // pal.SLOW_BLINK_MS) & 1)
    key = ctl._ver | ((1 if ctl.state == _OVER else 0) << 16) | (phase << 17)
    buf = ctl.status_frame
    at = 3 * ctl.status_base
    if key == ctl.status_key:
        _move(buf, 0, frame, at, len(buf))
        return
    _draw_status(ctl, frame, now)
    _move(frame, at, buf, 0, len(buf))
    ctl.status_key = key


def _draw_status(ctl, frame, now):
    b = ctl.board
    g = ctl.game
    base = ctl.status_base
    pos = ctl.pos
    if ctl.state != _OVER:
        _set(frame, base + b.STATUS_TURN[pos.side], pal.TURN)
    if ctl.save_lost and (now // pal.FAST_BLINK_MS) & 1:
        # The saved game came back short: every turn LED blinks red fast
        # until a button is pressed or a move is made (the serial line and
        # the page say what was kept and what was lost).
        for s in b.STATUS_TURN:
            _set(frame, base + s, pal.ERROR)
    elif ctl.unsaved and (now // pal.SLOW_BLINK_MS) & 1:
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


def _render_idle(ctl, frame, occ, n):
    # Their colours are made once per position (ctl.idle_key): drawn site by
    # site they were 4 ms of every tick on the RP2040. (A function of its
    # own: render's locals are stack under a search's recursion.)
    idle = ctl.idle
    rgb = ctl.idle_rgb
    if ctl.idle_key != ctl._ver:
        ctl.idle_key = ctl._ver
        g = ctl.game
        i = _next_set(idle, 0, n)
        while i < n:
            _set(rgb, i, colour(g, idle[i]))
            i = _next_set(idle, i + 1, n)
    _paint_where(frame, rgb, idle, occ, n)


def _set(frame, slot, rgb):
    j = slot * 3
    frame[j] = rgb[0]
    frame[j + 1] = rgb[1]
    frame[j + 2] = rgb[2]


def _set_dim(frame, slot, rgb, level):
    """rgb at level/255 of its brightness."""
    j = slot * 3
    frame[j] = rgb[0] * level // 255
    frame[j + 1] = rgb[1] * level // 255
    frame[j + 2] = rgb[2] * level // 255
