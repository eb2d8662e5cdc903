# The matcher: the sensed board against the footprints of the legal moves
# (docs/architecture.md, "How the matcher chooses").
#
# It keeps what the game expects on each site, the turn's events (which
# sites differed, when each filled and emptied) and, after each change,
# its verdict: the moves the board is consistent with, those begun, those
# complete, the steps they still need (lit), the lifted piece's
# destinations, a hidden outcome to pick. It owns its buffers: nothing it
# does on the tick allocates. The turn machine (board/controller.py) holds
# one, tells it the position (sync) and the board (analyse), and acts on
# the verdict; the lights read its per-site results.
from array import array

from triad.compat import const, ticks_diff
from triad.games import TOUCH, LIFT, ROLE_SOURCE
from triad.games.face import MAX_STEPS
from triad.board.fastbytes import zero as _zero, copy_if_changed as _copy_if_changed
from triad.board.fastbytes import mark_differences as _visit
from triad.board import match_kernels as _k
from triad.board.match_kernels import match as _match, _steps, free_extra as _free_extra, stamp as _stamp
from triad.board.match_kernels import zero_i as _zero_i, forfeit as _forfeit
from triad.board.match_kernels import only_one as _only_one, next_changed as _next_changed
from triad.board.match_kernels import begins as _begins, begun_before as _begun_before

# The kernels' verdict flags and scratch layout, folded here too (a const
# of another module is a global lookup; these run for every move).
_M_CANDIDATE = const(1)
_M_STARTED = const(2)
_M_FULL = const(4)
_M_PROGRESS = const(8)
_M_TOUCHED = const(16)
_M_PLACED = const(32)
_W_HAND = const(64)
_PLACE = const(1)
_WILD = const(255)
if (_M_CANDIDATE, _M_STARTED, _M_FULL, _M_PROGRESS, _M_TOUCHED, _M_PLACED, _W_HAND) != _k.LAYOUT:
    raise ImportError("matcher: the verdict flags disagree with match_kernels")


# The high bit of a role in nxt: a lift mark, shown only (lights.py masks it).
SHOWN = 128


class Matcher:
    def __init__(self, game, events, pos):
        self.game = game
        self.events = events  # told of a forfeit (Cornelson 3.1)
        n = game.N_SITES
        self.n = n
        self.pos = pos  # the position matched (sync tells a new one)
        self.live = False  # the game goes on (it has moves to match)
        self.note2 = False  # the position needs telling (the game's notice)
        # The board's chosen move, waiting to be carried out (0: none): the
        # only move matched while it is set.
        self.engine_move = 0
        # A remote seat is to move and its move has not come over the line:
        # no move is matched (the table cannot move for it); the controller
        # sets it before each sync.
        self.awaiting_remote = False
        self.expected = bytearray(n)  # occupancy the game expects
        self.visited = bytearray(n)  # sites that differed from expected during this turn
        # When each site last filled (arr) and emptied (dep) this turn, as
        # ms since the turn's first sensed change + 1, one more at least
        # for each later change (0: not this turn): the matcher's order of
        # events, and how far apart they came (a slide's late source is
        # a scan or two after its landing; a person's next piece, longer). A placement counts only for the
        # piece that was in the hand when it came down, and a drop only
        # when it came after the rest of the turn (docs/architecture.md,
        # "How the matcher chooses").
        # (each 2n: [site] the last time, [n + site] the first time)
        self.arr = array("i", bytes(8 * n))
        self.dep = array("i", bytes(8 * n))
        self.prev = bytearray(n)  # the snapshot the stamps were made from
        self.seq = 0
        self.t0 = 0  # the time (ticks_ms) of stamp 1
        self.seen = bytearray(n)  # the snapshot the analysis below was made for
        self.dest = bytearray(n)  # lifted piece: role lit at each legal next site
        self.nxt = bytearray(n)  # next steps of the candidate moves: role per site
        self.marks = bytearray(n)  # sites to pulse (a Triad just formed)
        self.sources = bytearray(n)  # 1 where a legal move's first step lifts a piece
        # The game's guidance for the untouched board (optional idle_hints:
        # Cornelson's posts where a gem may go), role per site.
        self.idle = bytearray(n)
        # Optional lift_marks: more sites to light while a piece is in the
        # hand (Cornelson's Barriers in a lifted jewel's way).
        self.lm = array("i", bytes(4 * 8))
        # Optional gen_cut: once a piece is lifted while a TOUCH before it is
        # still owed, the turns that keep only the TOUCHes done (Cornelson's
        # forfeit rule 3.1); kept is their count for this turn, -1 none.
        self.kept = -1
        # The moves of one site at a time (gen's sel): the whole list of a
        # game with drops (Browne's) would not fit the RP2040's heap.
        # Games with free drops match their turns open-ended (the drop a
        # WILD step), so one piece's moves stay few: gen_open and bind.
        # (A game's optional first_site(pos, m), the site a move's footprint
        # begins at, for a game whose whole list of (open) moves fits buf:
        # the sources then come from one generation instead of one per
        # piece; Browne's 29 pieces: 20 ms of a lift's tick on the RP2040.)
        self.buf = array("i", bytes(4 * game.MAX_SEL_OPEN))
        self.fp = array("i", bytes(4 * MAX_STEPS))
        # The scratch of match (match_kernels): which steps are done, which
        # are the last on their site, the figures of one move, the pieces
        # in the hand.
        self.work = bytearray(_k.WORK_SIZE)
        # The last site's moves kept in buf (first_site_moves): for which
        # site, forfeit count, board's move and position version; how many.
        self.ver = 0  # the position's version
        self.c_site = -1
        self.c_kept = -1
        self.c_em = 0
        self.c_ver = -1
        self.c_n = 0
        self.roles = bytearray(8)  # the outcomes of a hidden step (CHOOSE)
        self.empty_turn = 0  # the position's only turn, when it has no footprint
        # The verdict of the last analysis.
        self.dest_from = -1
        self.lifted = -1  # own piece lifted (a source of legal moves), or -1
        self.blocked = -1  # own piece lifted that has no legal move, or -1
        self.n_cand = 0  # moves consistent with the sensed board
        self.cand = 0  # one of them
        self.n_full = 0  # moves the sensed board completes
        self.n_started = 0  # candidates the player has begun
        self.full = 0  # one of them
        # Another complete move that fits the same switches as full, or 0:
        # the board then waits and says so (never guesses; lights: a fault).
        self.amb = 0
        self.tie = False
        # The move under way when FINISH was announced (its footprint): of
        # several moves the board completes, the one that continues it
        # (noise that passed the debounce can make another move's steps look
        # done: a Triad announced for d4e3 was committed as d4c3xc3).
        self.finish_fp = array("i", bytes(4 * MAX_STEPS))
        self.finish_n = 0
        # The move under way no longer begins as the one FINISH was
        # announced for (the piece rested on C5 long enough for "landed
        # E5C5", then went on to E6 within a settle time): the controller
        # announces it again (issue 35.13).
        self.moved_on = False
        self.best_k = 0
        self.progress = False  # every candidate has its first placement done
        self.choice_site = -1  # CHOOSE: the site whose hidden outcome is picked
        self.choice_fixed = -1  # site whose outcome was picked (-1 none)
        self.fixed_role = 0
        self.error_from = -1
        self.error_at = -1

    # -- the position -----------------------------------------------------

    def sync(self, pos, draw, engine_move=0):
        """A new position (or the same one changed): what it expects, its
        sources and guidance, and a fresh turn; the board's chosen move in
        it (0: none)."""
        g = self.game
        self.pos = pos
        self.engine_move = engine_move
        g.expected(pos, self.expected)
        self.live = g.outcome(pos) < 0 and not draw
        self.ver = (self.ver + 1) & 0xFFFF  # the position changed: no kept move list
        self.note2 = bool(g.notice(pos)) if g.notice else False
        _zero(self.idle, self.n)
        if g.idle_hints is not None and self.live and not self.awaiting_remote:
            # (none for a remote seat: its guidance is not the table's)
            g.idle_hints(pos, self.idle)
        self._find_empty_turn()
        self.find_sources()
        self.new_turn()

    def forget(self):
        """Another game: the marks of the last one's final move go."""
        _zero(self.marks, self.n)

    def set_engine_move(self, m):
        """The board's own move (0: none) is the only one matched (the
        sources found again as find_sources does, inline: no frame deeper
        than the controller's own was)."""
        self.engine_move = m
        _zero(self.sources, self.n)
        if self.note2 and self.live:
            self.fill_sources()
        self.seen[0] = 255  # (again())

    def again(self):
        """Match afresh on the next analysis (the board itself unchanged)."""
        self.seen[0] = 255

    def _find_empty_turn(self):
        # Once per position: is its only turn one with no footprint?
        self.empty_turn = 0
        g = self.game
        if not self.live or not (g.first_site is not None or len(self.buf) >= g.MAX_MOVES):
            return  # (only a game whose whole move list fits buf: Nehren's never passes)
        buf = self.buf
        if g.gen_open(self.pos, buf, 0, -1) == 1 and g.footprint(self.pos, buf[0], self.fp) == 0:
            self.empty_turn = buf[0]
        self.c_site = -1  # (buf holds no one site's moves now)

    def find_sources(self):
        # Only where the game asks for attention (Note 2: every die that can
        # act pulses); a lift is recognised from its site's own moves.
        _zero(self.sources, self.n)
        if self.note2 and self.live:
            self.fill_sources()

    def fill_sources(self, first_site=True):
        """1 in sources where a legal move begins (first_site False: one
        site's moves at a time, even for a game that can list them all)."""
        if first_site and self.game.first_site is not None and self.live and not self.engine_move and self.kept < 0:
            self._fill_sources_at_once()
            return
        src = self.sources
        for s in range(self.n):
            src[s] = 1 if self.expected[s] and self.first_site_moves(s) else 0

    def _fill_sources_at_once(self):
        src = self.sources
        fs = self.game.first_site
        _zero(src, self.n)
        pos = self.pos
        buf = self.buf
        exp = self.expected
        n = self.game.gen_open(pos, buf, 0, -1)
        self.c_site = -1  # (buf holds every move now, no one site's)
        for k in range(n):
            s = fs(pos, buf[k])
            if exp[s]:
                src[s] = 1

    def first_site_moves(self, site):
        """Into buf: the allowed legal moves that may begin at site (their
        first step's site, or any lift of pieces moved in any order:
        match_kernels.begins); the count. The last answer is kept: a lift asks for the same site's
        moves three times (is it a source, its destinations, the match)."""
        if not self.live or self.awaiting_remote:
            return 0
        em = self.engine_move
        if (site == self.c_site and self.kept == self.c_kept and em == self.c_em
                and self.ver == self.c_ver):
            return self.c_n
        # The site's moves listed here rather than in a method of their own:
        # a lift or a knock is read from the board's tick, which runs under
        # the search's deepest ply; a frame less leaves about 250 bytes more
        # of the 8 KiB C stack (docs/performance.md, "C stack margin").
        buf = self.buf
        g = self.game
        if em:
            # The board chose its move: that one only, drop included.
            if not _begins(self.fp, g.footprint(self.pos, em, self.fp), site):
                n = 0
            else:
                buf[0] = em
                n = 1
        elif self.kept >= 0 and g.gen_cut is not None:
            n = g.gen_cut(self.pos, buf, 0, site, self.kept)
        else:
            n = g.gen_open(self.pos, buf, 0, site)
        self.c_site = site
        self.c_kept = self.kept
        self.c_em = em
        self.c_ver = self.ver
        self.c_n = n
        return n

    # -- the turn ---------------------------------------------------------

    def new_turn(self):
        self.visited[:] = bytes(self.n)
        self.restamp()
        self.again()  # a fresh analysis on the next update
        self.dest_from = -1
        self.lifted = -1
        self.choice_fixed = -1
        self.choice_site = -1
        self.kept = -1
        self.n_cand = self.n_full = self.n_started = 0
        self.cand = 0  # (the lights read it as this turn's move under way)
        self.progress = False

    def restamp(self):
        # The board equals the game (or the turn begins afresh): no event
        # of this turn yet. (The stamps of a later change are made against
        # the game's occupancy, which the board shows now.)
        _zero_i(self.arr, 2 * self.n)
        _zero_i(self.dep, 2 * self.n)
        _copy_if_changed(self.expected, self.prev, self.n)  # (a copy that allocates nothing)
        self.seq = 0

    def at_rest(self):
        """The board equals the game and nothing is under way: a piece put
        back leaves no trace, everything taken back begins the turn afresh."""
        _zero(self.visited, self.n)
        self.lifted = self.choice_fixed = -1
        if self.kept >= 0:
            self.kept = -1
            self.again()

    def fix(self, site, role):
        """The player picked the hidden outcome of site: match again with it."""
        self.choice_fixed = site
        self.fixed_role = role
        self.again()

    def unfix(self):
        """The piece was lifted again: the outcome is chosen afresh."""
        self.choice_fixed = -1
        self.again()

    def hold_finish(self):
        """FINISH is announced for the move under way (cand): its footprint
        is kept, and the full move that follows it is the one committed."""
        self.finish_n = self.game.footprint(self.pos, self.cand, self.finish_fp)
        self.moved_on = False
        return self.cand

    def _moved_on(self):
        # Does the move under way (cand) differ from the one announced in
        # its steps up to and including its first placement (the lifted
        # piece and where it landed: what the announcement names)? (A
        # method of its own, called once per analysis in FINISH: no local
        # more in analyse, whose locals are stack under a search.) A move
        # whose pieces go in any order (lifts of ROLE_SOURCE from its first
        # step: Cornelson's jewels without a gem) has no first placement
        # of its own: its candidates differ there as the person's order
        # does (the game's finish_text names none of them, issue 35).
        fp = self.fp
        ff = self.finish_fp
        nf = self.game.footprint(self.pos, self.cand, fp)
        if nf and fp[0] >> 8 == LIFT | (ROLE_SOURCE << 2):
            k = 1
            while k < nf:
                if fp[k] >> 8 == LIFT | (ROLE_SOURCE << 2):
                    return False
                k += 1
        k = 0
        while k < nf:
            if k >= self.finish_n or (fp[k] & 1023) != (ff[k] & 1023):
                return True
            if (fp[k] >> 8) & 3 == _PLACE:
                return False
            k += 1
        return False

    def mover_lifted(self, occ):
        # A piece of the side to move is missing (lifted).
        g = self.game
        pos = self.pos
        exp = self.expected
        side = pos.side
        i = 0
        while i < self.n:
            if exp[i] and not occ[i] and g.owner(pos, i) == side:
                return True
            i += 1
        return False

    def analyse(self, occ, d, finishing, now):
        """The sensed board occ, changed since the last analysis (the tick
        copies it into seen), against every legal move's footprint (d: its
        difference from the game, as match_kernels.diff packs it;
        finishing: FINISH is announced; now: the scan's ticks_ms, for the
        stamps). Allocation-free: it runs on the
        tick that sees a change, on top of the search's recursion: the tick
        calls this and nothing between, and its locals are stack there
        (docs/performance.md: no more of them than before)."""
        n = self.n
        nmiss = d & 255
        nextra = (d >> 8) & 255
        exp = self.expected
        vis = self.visited
        _visit(occ, exp, vis, n)
        if nmiss or nextra:
            # The stamp: ms since the turn's first change (one more than the
            # last at least: the order stays strict when the clock reads the
            # same, or wrapped over a days-long turn), capped as small ints.
            seq = self.seq
            if seq == 0:
                self.t0 = now
            else:
                el = ticks_diff(now, self.t0)
                if el > seq and el < 0x3FFFFFF0:
                    seq = el
            self.seq = _stamp(occ, self.prev, self.arr, self.dep, seq, n)
        else:
            # The board equals the game: no event of this turn stands (a
            # turn played again after everything was put back is read
            # from its own events only).
            self.restamp()
        g = self.game
        pos = self.pos
        fp = self.fp
        nxt = self.nxt
        marks = self.marks
        _zero(nxt, n)
        _zero(marks, n)
        self.error_from = self.error_at = -1
        n_diff = nmiss + nextra
        n_cand = 0  # moves consistent with the board
        n_started = 0  # ... of which the player has begun
        n_full = 0  # ... which the board completes
        progress = True
        choice = -1
        fixed = self.choice_fixed
        work = self.work
        # The one missing piece, when it is a source of legal moves: "lifted".
        lifted = -1
        blocked = -1
        if nmiss == 1:
            miss = ((d >> 16) & 127) - 1
            if self.first_site_moves(miss):
                lifted = miss
            elif self.live and g.owner(pos, miss) == pos.side and not self.engine_move and not self.awaiting_remote:
                # One's own piece that cannot move (Browne: others capture
                # more): the pieces that can move show why.
                blocked = miss
                if self.blocked < 0:
                    self.fill_sources()
        if blocked < 0 and self.blocked >= 0 and not self.note2:
            _zero(self.sources, n)
        self.blocked = blocked
        # The lifted piece's destinations are found in the loop below, from
        # the footprints it reads anyway (its site's moves are among them).
        new_dest = lifted != self.dest_from
        if new_dest:
            _zero(self.dest, n)
            self.dest_from = lifted
        dest = self.dest
        self.lifted = lifted
        only_visited = _only_one(vis, n)  # the one site visited this turn, or -1
        # The matcher's context in one small int (30 bits): the outcome
        # picked (its site, 255 none, and role), the differences to explain
        # (a move explains at most MAX_STEPS), the one site visited + 1.
        ctx = ((fixed & 255) | (self.fixed_role << 8) | ((n_diff if n_diff < 127 else 127) << 16)
               | ((only_visited + 1) << 23))
        buf = self.buf
        lm = g.lift_marks
        # A move under way has its first step done, so its first site differs
        # from the game or was visited: only those sites' moves are matched.
        site = 0
        cur = -1
        end = 0
        k = 0
        while True:
            if k >= end:
                site = _next_changed(occ, exp, vis, site, n)
                if site >= n:
                    break
                end = self.first_site_moves(site)
                cur = site
                site += 1
                k = 0
                continue
            m = buf[k]
            k += 1
            nf = g.footprint(pos, m, fp)
            if _begun_before(fp, nf, occ, exp, vis, cur):
                continue  # (matched at an earlier site it may begin at)
            if new_dest and lifted >= 0 and _begins(fp, nf, lifted):
                # Where the lifted piece may go: the role of the placement
                # after its lift (the first step, or a lift of pieces moved
                # in any order).
                j = 0
                while j < nf and fp[j] & 255 != lifted:
                    j += 1
                j += 1
                while j < nf:
                    e = fp[j]
                    if (e >> 8) & 3 == _PLACE and e & 255 != _WILD:
                        dest[e & 255] = e >> 10
                        break
                    j += 1
            wild = -1
            if nf and fp[nf - 1] & 255 == _WILD:
                # "Any empty site" (a drop): bind it to where a piece now
                # stands that the other steps leave empty, if any.
                wild = _free_extra(occ, exp, vis, fp, nf - 1, n, self.arr, self.dep)
                if wild >= 0:
                    fp[nf - 1] = (fp[nf - 1] & ~255) | wild
            # Is the move under way on the board, what does it still need
            # (lit into nxt), is it complete (viper: this runs for every
            # move of a changed site on the tick that sees the change).
            r = _match(fp, nf, occ, exp, vis, work, ctx, nxt, n, _steps(fp, nf, occ, exp, vis, work, n, self.arr, self.dep))
            if not r:
                continue
            n_cand += 1
            if not r & _M_STARTED:
                continue
            n_started += 1
            self.cand = m
            if not r & _M_PROGRESS:
                progress = False
            if r & _M_FULL:
                n_full += 1
                # (in FINISH, the one that follows the move announced the
                # furthest; two that follow it as far, or two outside FINISH:
                # the switches cannot tell them apart, and the board waits)
                if not finishing:
                    self.tie = n_full > 1
                    self.amb = self.full
                    self.full = g.bind(pos, m, wild) if wild >= 0 else m
                elif self._follows(nf, n_full):
                    self.amb = self.full
                    self.full = g.bind(pos, m, wild) if wild >= 0 else m
            if r & _M_TOUCHED and choice < 0:
                choice = fp[0] & 255
            if self.kept < 0 and g.gen_cut is not None and not self.engine_move:
                kept = _forfeit(fp, nf, work, occ, self.dep, n)
                if kept >= 0:
                    # A piece lifted with a TOUCH before it still owed: the
                    # game's rule (Cornelson 3.1) keeps only the TOUCHes
                    # done; match again against those turns.
                    self.kept = kept
                    self.again()
                    self.events.event("forfeit", g.SITE_NAMES[fp[0] & 255] + " " + str(kept))
            # A piece in the hand may ask for the game's marks too (the
            # Barriers in a jewel's way).
            t = r >> 8
            if lm is not None:
                while t > 0:
                    t -= 1
                    u = lm(pos, m, work[_W_HAND + t], self.lm)
                    while u > 0:
                        u -= 1
                        # (SHOWN: a site lit to be seen, not one the turn
                        # still takes: a Barrier's gem stays; issue 47, the
                        # words fuzz read one as a captured gem to swap)
                        nxt[self.lm[u] & 255] = (self.lm[u] >> 10) | SHOWN
            placed = r & _M_PLACED
            if placed and g.marks:
                nm = g.marks(pos, m, fp)
                t = 0
                while t < nm:
                    marks[fp[t]] = 1
                    t += 1
        if choice >= 0 and (fixed >= 0 or not self._roles_differ(choice)):
            choice = -1  # only a real choice (several outcomes) waits for the buttons
        self.choice_site = choice
        self.n_cand = n_cand if n_diff else n_started
        self.n_started = n_started
        self.n_full = n_full
        if not (n_full > 1 and self.tie):
            self.amb = 0
        self.progress = progress and n_started > 0
        self.moved_on = finishing and self.progress and self._moved_on()
        if n_cand == 0 and lifted >= 0 and nextra == 1:
            self.error_from = lifted
            self.error_at = ((d >> 23) & 127) - 1
        elif n_cand == 0 and finishing and nmiss == 1:
            self.error_at = ((d >> 16) & 127) - 1

    def _follows(self, nf, n_full):
        """Does the footprint in fp follow the move FINISH was announced
        for at least as far (site and act) as the full move kept so far?
        (A method of its own: the tick runs on top of the search's
        recursion, and every local of analyse is stack there.)"""
        fp = self.fp
        ff = self.finish_fp
        fn = self.finish_n
        k = 0
        while k < nf and k < fn and (fp[k] & 1023) == (ff[k] & 1023):
            k += 1
        if n_full == 1 or k >= self.best_k:
            self.tie = n_full > 1 and k == self.best_k
            self.best_k = k
            return True
        return False

    # -- a hidden outcome (CHOOSE) ----------------------------------------

    def _outcomes(self, site):
        """The outcomes the moves offer for a hidden step on site (roles of
        the TOUCH that begins them), in the moves' order and each once, into
        self.roles; their count."""
        g = self.game
        roles = self.roles
        n = 0
        end = self.first_site_moves(site)
        k = 0
        while k < end:
            g.footprint(self.pos, self.buf[k], self.fp)
            k += 1
            e = self.fp[0]
            if e & 255 != site or (e >> 8) & 3 != TOUCH:
                continue
            r = e >> 10
            j = 0
            while j < n and roles[j] != r:
                j += 1
            if j == n and n < len(roles):
                roles[n] = r
                n += 1
        return n

    def _roles_differ(self, site):
        return self._outcomes(site) > 1

    def first_role(self, site):
        """The first outcome offered (the engine's, when the board chose the move)."""
        return self.roles[0] if self._outcomes(site) else 0

    def next_role(self, site, role):
        """The outcome after `role`, round the offered ones."""
        n = self._outcomes(site)
        roles = self.roles
        for j in range(n):
            if roles[j] == role:
                return roles[(j + 1) % n]
        return roles[0] if n else 0
