# A finished (or any) game looked back on: the turns a player should learn
# from (issue 46). One analysis for the board's review mode, the simulator's
# page and `python -m host_tools review`, through the game face only
# (gen/make/unmake/outcome) and the game's own engine (new_engine), with an
# effort (nodes a position) the caller chooses. Marks, at most one a turn:
#
#   MISSED   "missed win": the mover could have won at once and did not;
#            the better move is a winning one (the engine's when it wins).
#   ALLOWS   "allows win": after the move the next player can win at once,
#            while a move existed after which nobody to move can; not when
#            already MISSED. The better move is such a safe move (the
#            engine's when it is safe, else the first safe one).
#   DEEP     the engine's own mark (its REVIEW_KIND, e.g. "mistake"): the
#            value of the move played falls below the engine's best by the
#            engine's REVIEW_MARGIN. Only for games of two sides: with three
#            (Browne's seats) a search's score is one side's paranoid view
#            and says nothing of another seat's turn, so there a mark is a
#            turn that missed a win or helped the next player win at once.
#
# A move that itself wins is never marked. The brute force (one ply for a
# missed win, two for a win allowed) is exact; the deep mark is as good as
# the effort. The work is a generator that yields after every move made and
# taken back and after each search, so the board runs it a slice at a time
# between its ticks (board/review_mode.py) and the engine's search reads the
# clock it is given (on the board: the thinker's, which ticks the loop).
from array import array

from triad.compat import const

MISSED = const(0)
ALLOWS = const(1)
DEEP = const(2)
KIND_WORDS = ("missed win", "allows win")  # DEEP: the engine's REVIEW_KIND

WHOLE_MOVES = const(2048)  # a game with more moves is walked a site at a time
NODES = const(1500)  # the default effort: nodes a position's search
_BUDGET = const(1 << 24)  # ms: the search stops at its nodes, not the clock
_WIN = const(20000)  # a won game's value (the engines' WIN)
LEVEL = const(5)  # the engines' level without noise or random turns
ENGINE_TT = const(512)  # its table, as the board's player makes it (board/player.py)


def no_clock():
    return 0


class Review:
    """review = Review(game, start, moves, nodes); review.run() (or step()
    until it says done). start: the game's start position (not changed);
    moves: the move ints in order. After it: marks, a list of (ply, kind,
    move, best, reply) with ply 1-based (reply: the next player's winning
    reply for ALLOWS, else 0); value[k] the engine's score of position k
    (before move k + 1) for its side to move, side[k] that side, best[k]
    the engine's move there (0 where the game is over or nodes is 0)."""

    def __init__(self, game, start, moves, nodes=NODES, engine=None, clock=no_clock, budget_ms=_BUDGET):
        self.game = game
        self.start = start.copy()
        self.moves = list(moves)
        self.nodes = nodes
        self.clock = clock
        self.budget_ms = budget_ms  # each search's time (the board: its thinking budget)
        n = len(self.moves)
        self.marks = []
        self.value = [0] * (n + 1)
        self.side = [0] * (n + 1)
        self.best = [0] * (n + 1)
        self.known = bytearray(n + 1)  # 1 where value[k] is a search's (or the game's end)
        self.done = False
        self.ply = 0  # positions analysed so far (the page's progress)
        self.engine = engine
        self.kind = ""
        self.margin = 0
        if nodes > 0 and engine is None and game.new_engine is not None:
            self.engine = game.new_engine(LEVEL, ENGINE_TT)
        if self.engine is not None and len(game.SIDES) == 2:
            self.kind = self.engine.REVIEW_KIND
            self.margin = self.engine.REVIEW_MARGIN
        # The move buffers: a whole list, or one site's (see _each).
        self.whole = game.MAX_MOVES <= WHOLE_MOVES
        width = game.MAX_MOVES if self.whole else game.MAX_SEL_MOVES
        self.mv = array("i", bytes(4 * width))
        self.rp = array("i", bytes(4 * width))
        self._work = self._all()

    def kind_text(self, kind):
        return KIND_WORDS[kind] if kind < DEEP else self.kind

    def step(self):
        """One slice of the work; True once the whole game is analysed."""
        if not self.done:
            try:
                next(self._work)
            except StopIteration:
                self.done = True
        return self.done

    def run(self):
        while not self.step():
            pass
        return self

    def allows_win(self, pos, m):
        """The next player's winning reply after m on pos, or 0 (all at
        once: pos is as it was after)."""
        for r in self._reply_win(pos, m):
            if r >= 0:
                return r
        return 0

    def mark_at(self, ply):
        """The mark of move `ply` (1-based), or None."""
        for mk in self.marks:
            if mk[0] == ply:
                return mk
        return None

    # -- the work ------------------------------------------------------------

    def _all(self):
        g = self.game
        moves = self.moves
        n = len(moves)
        # First every position's search (a deep mark compares the position
        # before a move with the one after it), then the marks.
        pos = self.start.copy()
        for k in range(n + 1):
            self.side[k] = pos.side
            if g.outcome(pos) >= 0:
                self.value[k] = self._final(pos, pos.side)
                self.known[k] = 1
            elif self.engine is not None and self.nodes > 0:
                self.best[k] = self.engine.choose(pos, self.budget_ms, self.clock, None, self.nodes)
                self.value[k] = self.engine.score
                # (a position with one move, or a win taken at once
                # unsearched, has no score of the search's: depth 0)
                self.known[k] = 1 if self.engine.depth > 0 else 0
                yield
            if k < n:
                pos.make(moves[k])
        pos = self.start.copy()
        for k in range(n):
            m = moves[k]
            mk = None
            if g.outcome(pos) < 0:
                for mk in self._mark(pos, k, m):
                    yield
            if mk is not None:
                self.marks.append(mk)
            pos.make(m)
            self.ply = k + 1

    def _final(self, pos, side):
        """A finished game's value for side."""
        o = self.game.outcome(pos)
        if o == side:
            return _WIN
        if o < len(self.game.SIDES):
            return -_WIN
        return 0

    def _mark(self, pos, k, m):
        """Yields while it works; its last yield is the mark of move m at
        position pos (ply k + 1), or None."""
        g = self.game
        me = pos.side
        # The move itself wins: never marked.
        pos.make(m)
        won = g.outcome(pos) == me
        pos.unmake(m)
        if won:
            yield None
            return
        # A win at once missed: the engine's move first when it wins.
        win = 0
        eb = self.best[k]
        if eb:
            pos.make(eb)
            if g.outcome(pos) == me:
                win = eb
            pos.unmake(eb)
            yield None
        if not win:
            for c in self._each(pos, self.mv):
                pos.make(c)
                if g.outcome(pos) == me:
                    win = c
                pos.unmake(c)
                yield None
                if win:
                    break
        if win:
            yield (k + 1, MISSED, m, win, 0)
            return
        # A win at once allowed: the next player's winning reply.
        reply = 0
        for reply in self._reply_win(pos, m):
            if reply >= 0:
                break
            yield None
        if reply > 0:
            # A safe move: the engine's when it is, else the first; one that
            # ends the game lost for the mover (Browne: an elimination that
            # leaves another ahead) allows no win either, but is offered only
            # when nothing else is safe.
            safe = 0
            lost = 0
            r = 0
            if eb and eb != m:
                for r in self._reply_win(pos, eb):
                    if r >= 0:
                        break
                    yield None
                if r == 0:
                    if self._loses(pos, eb):
                        lost = eb
                    else:
                        safe = eb
            if not safe:
                for c in self._each(pos, self.mv):
                    if c == m:
                        continue
                    for r in self._reply_win(pos, c):
                        if r >= 0:
                            break
                        yield None
                    if r == 0:
                        if not self._loses(pos, c):
                            safe = c
                            break
                        if not lost:
                            lost = c
            safe = safe or lost
            if safe:
                yield (k + 1, ALLOWS, m, safe, reply)
                return
        # The engine's own mark: the move's value below the best's.
        if self.margin and eb and eb != m and self.known[k] and self.known[k + 1]:
            after = self.value[k + 1]
            pos.make(m)
            if g.outcome(pos) >= 0:
                played = self._final(pos, me)
            elif pos.side == me:
                played = after
            else:
                played = -after
            pos.unmake(m)
            if self.value[k] - played >= self.margin:
                yield (k + 1, DEEP, m, eb, 0)
                return
        yield None

    def _loses(self, pos, m):
        """Whether m ends the game on pos with another side the winner."""
        g = self.game
        me = pos.side
        pos.make(m)
        o = g.outcome(pos)
        pos.unmake(m)
        return 0 <= o < len(g.SIDES) and o != me

    def _each(self, pos, buf):
        """Yield every legal move of pos (which the caller gives back as it
        was before the next): all at once into buf where the game's whole
        list fits the review's buffer, else a site's at a time (gen's sel:
        Browne's 13 356 whole turns would take 53 KB, a piece's fit 4.7;
        a move may then come twice, which a search for one does not mind)."""
        g = self.game
        if self.whole:
            end = g.gen(pos, buf, 0)
            for i in range(end):
                yield buf[i]
            return
        for site in range(g.N_SITES):
            end = g.gen(pos, buf, 0, site)
            for i in range(end):
                yield buf[i]

    def _reply_win(self, pos, m):
        """Make m on pos, then yield -1 per reply tried, and last the first
        reply that wins at once for the side to move after m, or 0 for none
        (pos is as it was by then)."""
        g = self.game
        pos.make(m)
        r = 0
        if g.outcome(pos) < 0:
            me = pos.side
            for c in self._each(pos, self.rp):
                pos.make(c)
                w = g.outcome(pos) == me
                pos.unmake(c)
                if w:
                    r = c
                    break
                yield -1
        pos.unmake(m)
        yield r
