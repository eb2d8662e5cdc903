# The LED frame, drawn from the controller's state as prioritised layers:
# faults over the lifted piece and its destinations over scoring lines over
# the last move over idle. Roles come from the game's face (a die's value,
# an owner's colour); this module knows the board's own colours (palette)
# and where each side's status LEDs are (the board description).
#
# It reads a small public view of the controller and never writes it: its
# state, pos, selftest, choice_role and shown(now) (what is lit for a
# while); its matcher's per-site results (expected, nxt, dest, marks,
# sources, idle; lifted, n_started, n_cand, error_from, choice_site,
# engine_move); its seats' plays(side), level and hint_move; its record's
# options and unsaved/save_lost (tests/test_layers.py holds it to 25 public
# fields). It keeps its own caches in a Lights (the status LEDs as last
# drawn, the idle hints' colours, the win sweep's phases, the last move's
# sites, a footprint buffer): the controller tells it when the position
# changed and which move was the last.
from array import array

from triad.compat import ticks_diff

from triad.board.fastbytes import zero as _clear, move as _move
from triad.board.fastbytes import next_diff as _next_diff, next_set as _next_set, paint_where as _paint_where
from triad.games import ROLE_GAME, ROLE_SOURCE, ROLE_REMOVE, ROLE_TRIAD, LIFT, PLACE
from triad.board import palette as pal

from triad.board.states import SETUP as _SETUP, PLAY as _PLAY, FINISH as _FINISH, OVER as _OVER
from triad.board.states import SYNC as _SYNC, CHOOSE as _CHOOSE, SELFTEST as _SELFTEST
from triad.board.states import SHOW_VALUES, SHOW_SEATS, SHOW_LEVEL, SHOW_HINT, SHOW_THINK
from triad.board.states import SHOW_FAULT, SHOW_ERROR, SHOW_BLOCKED, SHOW_NOTE
from triad.games.face import MAX_STEPS

_BOARD_RGB = (pal.OFF, pal.SOURCE, pal.SOURCE, pal.TRIAD)

# The diagnosis (issue 35): what the lights show to be put right, site by
# site, written as the frame is drawn (whatever the blink's phase) into
# Lights.fix, the one record the words are made from too (the protocol's
# `evt fix`: the page, the monitor, a script's `say`). A site lit as a
# difference to put right is to be emptied (FIX_EMPTY: something stands
# where nothing may) or filled (FIX_FILL: a piece belongs there); FIX_BACK
# is the site a piece put where it may not stand came from. The byte after
# the sites holds FIX_FAULT while the board declares a fault (it has rested
# in it), and FIX_SHOWN while any difference to put right is lit.
FIX_EMPTY = 1
FIX_FILL = 2
FIX_BACK = 3
# Not a fault: a piece the turn under way still takes off (Browne's
# captures, lit in their roles), so the words can say what is next.
FIX_TAKE = 4
FIX_FAULT = 1
FIX_SHOWN = 2  # (in the last byte: a difference to put right is lit)


def colour(game, role):
    if role >= ROLE_GAME:
        return game.ROLE_RGB[role - ROLE_GAME]
    if role < 4:
        return _BOARD_RGB[role]
    return pal.OFF


class Lights:
    """The lights of one controller's game on one board, with their caches."""

    def __init__(self, game, board):
        self.game = game
        self.board = board  # the board description: status LED slots per side
        n = game.N_SITES
        self.n = n
        # The frame: the board's spots (a board may play smaller games too),
        # then its status LEDs.
        self.status_base = board.N_SITES
        self.frame_bytes = 3 * (board.N_SITES + board.N_STATUS)
        # The status LEDs as last drawn, and what they were drawn for (-1:
        # draw them again).
        self.status_frame = bytearray(3 * board.N_STATUS)
        self.status_key = -1
        self.status_roles = bytearray(16)  # the game's own status LEDs
        self.status_game = getattr(board, "STATUS_GAME", b"")  # (optional in a board description)
        # The colours of the game's idle hints, made once per position.
        self.idle_rgb = bytearray(3 * n)
        self.idle_fresh = False
        # When the pieces that can move began to pulse for one of the
        # mover's own pieces that cannot (-1: they do not): their pulse
        # starts lit at that lift, as a piece's destinations show at its
        # lift, instead of in the slow blink's next lit half (up to 600 ms
        # later: Browne's E1 at the start, 76 ms on the chip; issue 48).
        self.blocked_at = -1
        self.fp = array("i", bytes(4 * MAX_STEPS))  # a move's footprint (the hint, the board's move)
        self.last = array("i", bytes(4 * 2))  # sites of the last move: lift, place (-1 none)
        # Sites that belong to a side (the face's site_owner: Browne's
        # tricoloured cells): while a piece is in the hand the empty ones
        # glow faintly in their owner's colour, so the rule "land on another
        # colour and its owner moves next" shows in light too (issue 24.1).
        # Made once: painted with one viper pass a tick.
        self.owner = bytearray(n)
        self.owner_rgb = bytearray(3 * n)
        self.cells = False
        for i in range(n):
            side = game.site_owner(i)
            if side >= 0:
                self.owner[i] = 1
                self.cells = True
                _set_dim(self.owner_rgb, i, game.SIDE_RGB[side], _CELL_LEVEL)
        # The win sweep's phase per site: diagonal bands across the drawing.
        self.sweep = bytearray(n)
        for i in range(n):
            x, y = game.site_xy(i)
            self.sweep[i] = (int(x - y + 0.5) + 60) % 12
        # The diagnosis drawn last (see FIX_EMPTY): one byte a site, then
        # the fault's flags.
        self.fix = bytearray(n + 1)

    def note_last(self, pos, m):
        """The move m (legal in pos, 0: none) is the last one: where it
        lifted and placed its piece, for the faint last-move light."""
        last = self.last
        last[0] = last[1] = -1
        nf = self.game.footprint(pos, m, self.fp) if m else 0
        for j in range(nf):
            e = self.fp[j]
            act = (e >> 8) & 3
            if act != PLACE and last[0] < 0:
                last[0] = e & 255
            if act == PLACE and last[1] < 0:
                last[1] = e & 255

    def changed(self):
        """The position changed: the status LEDs and the idle hints' colours
        are made again at the next frame."""
        self.status_key = -1
        self.idle_fresh = False


def render(lt, ctl, frame, now, occ):
    """Fill the LED frame from the controller ctl (its Lights lt), the
    sensed board and the time. (A function, called straight from the
    controller: no call deeper on the tick than before.)"""
    _clear(frame, lt.frame_bytes)
    fix = lt.fix
    _clear(fix, lt.n + 1)
    st = ctl.state
    if st == _SELFTEST:
        ctl.selftest.render(frame, now)
        return
    g = lt.game
    n = lt.n
    pos = ctl.pos
    fast = (now // pal.FAST_BLINK_MS) & 1
    slow = (now // pal.SLOW_BLINK_MS) & 1
    _status(lt, ctl, frame, now)
    if st == _OVER:
        _render_win(lt, ctl, frame, now)
        return
    shown = ctl.shown(now)
    if shown & SHOW_VALUES:
        for i in range(n):
            r = g.shows(pos, i)
            if r and occ[i]:
                _set(frame, i, colour(g, r))
    elif lt.last[0] >= 0:
        _set(frame, lt.last[0], pal.LAST_MOVE)
        if lt.last[1] >= 0:
            _set(frame, lt.last[1], pal.LAST_MOVE)
    mt = ctl.matcher  # (its per-site results)
    if st == _FINISH:
        _render_finish(lt, mt, frame, occ, fast, slow, shown)
        return
    exp = mt.expected
    lifted = mt.lifted
    dest = mt.dest
    # A fault shows once the board has rested in it (controller.PASS_MS): a
    # piece merely passing over a site does not flash red.
    err = shown & SHOW_ERROR
    fault = shown & SHOW_FAULT or st == _SETUP or st == _SYNC
    if shown & SHOW_FAULT:
        fix[n] = FIX_FAULT
    # (Not while a hint shows: a hint that places a new piece, Cornelson's
    # gem, is lit in the light the guidance gives every vacant post, and
    # would not stand out among them.)
    if (g.idle_hints is not None and st == _PLAY and lifted < 0 and not mt.n_started
            and not mt.engine_move and not ctl.seats.plays(pos.side) and not shown & SHOW_HINT):
        # The untouched board: the game's guidance for the turn's first
        # step (Cornelson: where a gem may go, and where it would capture).
        _render_idle(lt, mt.idle, frame, occ, n)
    # Differences between the board and the game (nothing is drawn when
    # there are none, except the set-up's pieces).
    if st == _SETUP:
        # The set-up's pieces already in place show their roles.
        i = _next_set(exp, 0, n)
        while i < n:
            if occ[i]:
                _set(frame, i, colour(g, g.shows(pos, i)))
            i = _next_set(exp, i + 1, n)
    if st == _PLAY and lifted >= 0 and lt.cells and not err:
        _paint_where(frame, lt.owner_rgb, lt.owner, occ, n)  # the landings are drawn over it below
    # Nothing fits the board: the move last seen under way this turn keeps
    # its own pieces out of the red (a gem just placed, then a coin beside
    # it: the coin blinks). As in FINISH (_render_finish).
    nf = g.footprint(pos, mt.cand, lt.fp) if st == _PLAY and fault and mt.n_cand == 0 and mt.cand else 0
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
            elif not (st == _PLAY and mt.n_cand and not fault) and not (nf and _in_move(lt.fp, nf, i, occ)):
                # (A legal turn under way, the board not yet settled on it,
                # empties its own sites: nothing is missing there, and
                # nothing blinks or is said as if it were; nor where the
                # move last seen under way emptied them: issue 35.)
                fix[i] = FIX_FILL
                fix[n] |= FIX_SHOWN
                if slow:
                    _set(frame, i, pal.MISSING)
        else:
            if st == _PLAY and lifted >= 0 and dest[i] and not err:
                _set(frame, i, colour(g, dest[i]))
            elif fault and not (nf and _in_move(lt.fp, nf, i, occ)):
                fix[i] = FIX_EMPTY
                fix[n] |= FIX_SHOWN
                if fast:
                    _set(frame, i, pal.ERROR)
        i = _next_diff(occ, exp, i + 1, n)
    if nf:
        # (the move under way keeps its own emptied spots out of the white
        # too, and a misplaced piece of it names its source: as in FINISH)
        _finish_back(lt, frame, occ, nf, fast)
    if st == _PLAY and lifted >= 0 and not err:
        i = _next_set(dest, 0, n)
        while i < n:
            if not occ[i]:
                _set(frame, i, colour(g, dest[i]))
            i = _next_set(dest, i + 1, n)
        if g.lift_marks is not None and slow:
            # The game's lift_marks for the piece in the hand, blinking as
            # in FINISH (Cornelson's Barriers when a jewel is the turn's
            # first lift: no post vacant, nothing placed yet).
            nxt = mt.nxt
            i = _next_set(nxt, 0, n)
            while i < n:
                if occ[i] and exp[i] and nxt[i] & 127 >= ROLE_GAME:
                    _set(frame, i, colour(g, nxt[i] & 127))  # (the high bit: matcher.SHOWN)
                i = _next_set(nxt, i + 1, n)
    if st == _PLAY and err and mt.error_from >= 0:
        fix[mt.error_from] = FIX_BACK
        if fast:
            _set(frame, mt.error_from, pal.SOURCE)
    if st == _CHOOSE and slow:
        _set(frame, mt.choice_site, colour(g, ctl.choice_role))
    if st == _PLAY and mt.engine_move and lifted < 0 and not shown & SHOW_FAULT and not fix[n] & FIX_SHOWN:
        # (Not while something is wrong, a piece knocked over say, even
        # before the board calls it a fault: the differences' own lights say
        # what to put right first, and the words name them: issue 35.)
        # The board's move, for a person to carry out: the piece to lift
        # breathes in the board's side colour, its destination in the role
        # it takes there, in counter-phase (the light flows from one to the
        # other). A hint is steady: the two never look alike.
        _render_move(lt, pos, frame, mt.engine_move, breath(now))
    if st == _PLAY and shown & SHOW_THINK:
        _render_think(g.CENTRE, frame, now)
    if shown & (SHOW_SEATS | SHOW_LEVEL):
        _render_banner(lt, ctl, frame, shown)
    if st == _PLAY and shown & SHOW_HINT and not fix[n] & FIX_SHOWN:
        # (As the board's move: not over a difference to put right, whose
        # light the words name.)
        _render_move(lt, pos, frame, ctl.seats.hint_move, 0)
    if st == _PLAY and shown & SHOW_BLOCKED:
        # A piece of the mover's that has no move: the ones that have one
        # pulse, lit first.
        if lt.blocked_at < 0:
            lt.blocked_at = now
        if not (ticks_diff(now, lt.blocked_at) // pal.SLOW_BLINK_MS) & 1:
            src = mt.sources
            for i in range(n):
                if src[i] and occ[i]:
                    _set(frame, i, pal.SOURCE)
    else:
        lt.blocked_at = -1
    if st == _PLAY and shown & SHOW_NOTE and lifted < 0 and slow and not mt.n_started:
        # The game asks for attention (Note 2): every piece that can act pulses.
        src = mt.sources
        for i in range(n):
            if src[i] and occ[i]:
                _set(frame, i, pal.SOURCE)


def _render_move(lt, pos, frame, m, level):
    """A move's first lift and first placement. level 0: a hint (the piece
    steady cyan, its destination steady in its role); else the board's own
    move at that breathing level (the piece in the mover's side colour, the
    destination in its role at the opposite level)."""
    g = lt.game
    fp = lt.fp
    nf = g.footprint(pos, m, fp)
    src = -1
    for j in range(nf):
        e = fp[j]
        act = (e >> 8) & 3
        s = e & 255
        if src < 0 and act != 1:
            src = s
            if level:
                _set_dim(frame, s, g.SIDE_RGB[pos.side], level)
                if act == 2:
                    return  # turned in place: the value is picked on the buttons
            else:
                _set(frame, s, pal.HINT)
        elif act == 1:
            if level:
                _set_dim(frame, s, colour(g, e >> 10), _BREATH_LOW + _BREATH_HIGH - level)
            else:
                # A hint that lifts nothing first (Cornelson's gem: a new
                # piece) is lit cyan where it goes: in its own light it looked
                # like every other vacant post's guidance (issue 35.7).
                _set(frame, s, pal.HINT if src < 0 else colour(g, e >> 10))
            return


_CELL_LEVEL = 40  # a cell's own colour while a piece is lifted: faint beside the landings
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
    # The two lit sites drawn straight, in site order (as a loop over the
    # sites would: 0.17 ms of every tick while the board thinks, on tri_v1).
    # The bytes written here, not through _set: this runs in the ticks of
    # the board's own search, the deepest C stack the board reaches, and
    # _set's frame was the last one of that path (docs/performance.md,
    # "C stack margin").
    if tail < head and tail < k:
        j = sites[tail] * 3
        frame[j] = _THINK_TAIL[0]
        frame[j + 1] = _THINK_TAIL[1]
        frame[j + 2] = _THINK_TAIL[2]
    if head < k:
        j = sites[head] * 3
        rgb = pal.THINK
        frame[j] = rgb[0]
        frame[j + 1] = rgb[1]
        frame[j + 2] = rgb[2]
    if head < tail < k:
        j = sites[tail] * 3
        frame[j] = _THINK_TAIL[0]
        frame[j + 1] = _THINK_TAIL[1]
        frame[j + 2] = _THINK_TAIL[2]


_THINK_TAIL = (pal.THINK[0] * 64 // 255, pal.THINK[1] * 64 // 255, pal.THINK[2] * 64 // 255)  # _set_dim's 64


def _render_banner(lt, ctl, frame, shown):
    g = lt.game
    if shown & SHOW_SEATS:
        # Who the board plays: that side's home sites in its colour.
        for side in range(len(g.SIDES)):
            if ctl.seats.plays(side):
                for s in g.HOME[side]:
                    _set(frame, s, g.SIDE_RGB[side])
    else:
        # The level as a gauge: that many sites of the level row bright,
        # the rest of the row faint, in the level's own colour.
        sites = g.LEVEL_SITES
        lv = ctl.seats.level
        for i in range(len(sites)):
            _set_dim(frame, sites[i], pal.LEVEL, 255 if i < lv else 28)


def _render_finish(lt, mt, frame, occ, fast, slow, shown):
    # A move waits for its further steps (mt: the matcher's view): the
    # marks (a new Triad) pulse, pieces still to take off blink in their
    # roles (one's own removal choices as the Triad), sites still to fill
    # glow in theirs.
    g = lt.game
    exp = mt.expected
    nxt = mt.nxt
    marks = mt.marks
    fault = shown & SHOW_FAULT
    # Nothing fits the board (a stray object, a piece put wrong): the move
    # last seen under way says which differences are its own; only the rest
    # blink red (issue 24.6: the smallest correction, not the legal gem).
    # (mt.cand is of this turn: the matcher clears it with each turn.)
    nf = g.footprint(mt.pos, mt.cand, lt.fp) if fault and mt.n_cand == 0 and mt.cand else 0
    fix = lt.fix
    if fault:
        fix[lt.n] = FIX_FAULT
    for i in range(lt.n):
        r = nxt[i] & 127
        lit_only = nxt[i] & 128  # (matcher.SHOWN: a lift mark)
        if r and occ[i] and exp[i] and not lit_only:
            fix[i] = FIX_TAKE  # (a mark only shown, a Barrier, is no piece to take)
        if marks[i] and (slow or not r):
            _set(frame, i, pal.TRIAD)
        elif r and r != ROLE_REMOVE and (not exp[i] or slow):
            _set(frame, i, colour(g, r))
        if occ[i] != exp[i]:
            if mt.n_cand == 0:
                if exp[i] and r == ROLE_REMOVE:
                    _set(frame, i, pal.SOURCE)
                elif fault and not _in_move(lt.fp, nf, i, occ):
                    fix[i] = FIX_EMPTY if occ[i] else FIX_FILL
                    if fast:
                        _set(frame, i, pal.ERROR)
            elif r == ROLE_REMOVE and not occ[i]:
                _set(frame, i, pal.SOURCE)  # a removal choice in the hand
    if nf:
        _finish_back(lt, frame, occ, nf, fast)


def _finish_back(lt, frame, occ, nf, fast):
    # One piece put where it may not stand while the move goes on (a jewel
    # on a trey it cannot step to): the spot it came from blinks grey, as in
    # PLAY, and the diagnosis names it, so the words can say "the jewel from
    # S1 may not stand on b3" (issue 35.1). Only when it is the one piece in
    # the hand (its source lifted, its own placement not made) and one spot
    # is to be emptied.
    fix = lt.fix
    n = lt.n
    empty = 0
    for i in range(n):
        if fix[i] == FIX_EMPTY:
            empty += 1
    if empty != 1:
        return
    fp = lt.fp
    back = -1
    for j in range(nf - 1):
        e = fp[j]
        s = e & 255
        if (e >> 8) & 3 == LIFT and e >> 10 == ROLE_SOURCE and s < n and not occ[s]:
            d = fp[j + 1] & 255
            if (fp[j + 1] >> 8) & 3 == PLACE and d < n and not occ[d]:
                if back >= 0:
                    return  # (two in the hand: no one source to name)
                back = s
    if back >= 0:
        fix[back] = FIX_BACK
        if fast:
            # (the bytes written here, not through _set: no frame deeper
            # than _in_move's on the tick)
            j = back * 3
            frame[j] = pal.SOURCE[0]
            frame[j + 1] = pal.SOURCE[1]
            frame[j + 2] = pal.SOURCE[2]


def _in_move(fp, nf, site, occ):
    """Does the move under way (its footprint fp, nf steps) account for the
    site as the board shows it: a piece it put there (the lift before it
    done), or a site it emptied (a piece in the hand, a gem being swapped)?"""
    j = 0
    while j < nf:
        e = fp[j]
        if e & 255 == site:
            if not occ[site]:
                if (e >> 8) & 3 != PLACE:
                    return True
            elif (e >> 8) & 3 == PLACE:
                if j == 0:
                    return True
                g = fp[j - 1]
                if (g >> 8) & 3 != LIFT or not occ[g & 255]:
                    return True
        j += 1
    return False


def _render_win(lt, ctl, frame, now):
    g = lt.game
    w = g.outcome(ctl.pos)
    if w < 0 or w >= len(g.SIDES):
        w = (now // 1000) % len(g.SIDES)  # a draw: every colour in turn
    rgb = g.SIDE_RGB[w]
    step = (now // 120) % 12
    phase = lt.sweep
    marks = ctl.matcher.marks
    for i in range(lt.n):
        p = phase[i]
        if p == step or (p + 6) % 12 == step or marks[i]:
            _set(frame, i, rgb)


def _status(lt, ctl, frame, now):
    # The status LEDs change with the position (changed()), the end of the
    # game and the unsaved blink only: drawn again then, else copied from
    # the last drawing (they cost as much as the rest of the frame).
    phase = 0
    if ctl.record.save_lost:
        phase = 3 + ((now // pal.FAST_BLINK_MS) & 1)
    elif ctl.record.unsaved:
        phase = 1 + ((now // pal.SLOW_BLINK_MS) & 1)
    key = (1 if ctl.state == _OVER else 0) | (phase << 1)
    buf = lt.status_frame
    at = 3 * lt.status_base
    if key == lt.status_key:
        _move(buf, 0, frame, at, len(buf))
        return
    _draw_status(lt, ctl, frame, now)
    _move(frame, at, buf, 0, len(buf))
    lt.status_key = key


def _draw_status(lt, ctl, frame, now):
    b = lt.board
    g = lt.game
    base = lt.status_base
    pos = ctl.pos
    if ctl.state != _OVER:
        _set(frame, base + b.STATUS_TURN[pos.side], pal.TURN)
    if ctl.record.save_lost and (now // pal.FAST_BLINK_MS) & 1:
        # The saved game came back short: every turn LED blinks red fast
        # until a button is pressed or a move is made (the serial line and
        # the page say what was kept and what was lost).
        for s in b.STATUS_TURN:
            _set(frame, base + s, pal.ERROR)
    elif ctl.record.unsaved and (now // pal.SLOW_BLINK_MS) & 1:
        # Not safely saved: every turn LED blinks red until the store says so.
        for s in b.STATUS_TURN:
            _set(frame, base + s, pal.ERROR)
    extra = lt.status_game
    if extra and g.status_lights is not None:
        # The game's own status (Cornelson: its mode and a tourney's tally).
        roles = lt.status_roles
        k = g.status_lights(pos, ctl.record.options, roles)
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


def _render_idle(lt, idle, frame, occ, n):
    # Their colours are made once per position (idle_fresh): drawn site by
    # site they were 4 ms of every tick on the RP2040. (A function of its
    # own: render's locals are stack under a search's recursion.)
    rgb = lt.idle_rgb
    if not lt.idle_fresh:
        lt.idle_fresh = True
        g = lt.game
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
