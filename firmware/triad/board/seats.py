# The board's own play: which sides it plays (seats, one bit each), at
# which level, and its searches: the board's move when its side is to move,
# a hint when the player asks. The search runs in the loop (board/thinker.py,
# the mailbox) while the ticks go on; the answer is taken on a later tick:
# the board's move becomes the one move the matcher accepts, a hint is lit
# for a while. The turn machine (board/controller.py) holds one.
from triad.compat import const, ticks_add, ticks_diff
from triad.board.player import Player
from triad.board import thinker as _th

HINT_MS = const(4000)  # how long a hint is lit
BANNER_MS = const(2000)  # how long a changed seat or level is shown
HINT_BUDGET_MS = const(1500)  # engine time for a hint
THINK_BUDGET_MS = const(2500)  # engine time for the board's own move
OPPONENT_OFF = const(-1)


class Seats:
    def __init__(self, game, matcher, record, events, now_ms=None):
        self.game = game
        self.matcher = matcher  # told the board's chosen move
        self.record = record  # the game searched; the seats and level saved
        self.events = events
        self.player = Player(game, now_ms)
        # The mailbox to the search: the loop runs it between ticks and
        # ticks from inside it; the answer is taken here.
        self.thinker = _th.Thinker(self.player, events)
        self.bits = 0  # the sides the board itself plays, one bit each
        # The remote seats, one bit each: sides played by someone who is not
        # at the table, whose moves come over the serial line (`remote`);
        # never the board's own. Their move is shown as the board's own
        # move is and committed only once the table shows it.
        self.remote = 0
        self.level = 3
        self.think_ms = THINK_BUDGET_MS
        self.thinking = False  # the board's move is being searched (or about to be)
        self.hinting = False  # a hint is being searched
        self.hint_move = 0  # the hint lit (0: none)
        self.hint_until = 0
        self.banner = 0  # 1: who the board plays shown, 2: level shown
        self.banner_until = 0

    def plays(self, side):
        """True when the board itself plays `side`."""
        return (self.bits >> side) & 1

    @property
    def opponent(self):
        """The one side the board plays, or -1 (nobody, or several)."""
        s = self.bits
        if s and not s & (s - 1):
            side = 0
            while not (s >> side) & 1:
                side += 1
            return side
        return OPPONENT_OFF

    @opponent.setter
    def opponent(self, side):
        # Without saving or announcing (start-up, tests): see set_opponent.
        self.bits = 0 if side < 0 else 1 << side

    def set_opponent(self, side):
        """The board plays `side` (a side index) or nobody (-1)."""
        self.set(0 if side < 0 else 1 << side)

    def set(self, seats):
        """The board plays the sides whose bits are set in `seats` (no
        longer remote: the person at the table chose it)."""
        self.bits = seats
        if self.remote & seats:
            self.set_remote(self.remote & ~seats)
        self.stop()
        self.matcher.set_engine_move(0)
        if not seats:
            self.player.release()  # give the engine's RAM back
        self.record.save_setting("opponent", seats)
        self.events.event("opponent", seats_word(self.game.SIDES, seats))

    def set_remote(self, seats):
        """The sides whose moves come over the line (remote seats): the
        board no longer plays them itself. Saved, so that a power cut does
        not let the table move for them."""
        self.remote = seats
        if self.bits & seats:
            self.bits &= ~seats
            self.events.event("opponent", seats_word(self.game.SIDES, self.bits))
        self.stop()
        # (a remote side to move: nothing is matched until its move comes)
        self.matcher.awaiting_remote = bool((seats >> self.record.pos.side) & 1)
        self.matcher.set_engine_move(0)
        self.record.save_setting("remote", seats)
        self.events.event("remote", "seats " + seats_word(self.game.SIDES, seats))

    def set_level(self, level):
        self.level = level
        self.record.save_setting("level", level)

    def use_settings(self, s):
        """The saved seats and level into effect at power-up, as they are."""
        full = (1 << len(self.game.SIDES)) - 1
        try:
            self.remote = s.get("remote") & full
        except KeyError:  # (settings made before remote seats: none)
            self.remote = 0
        self.bits = s.get("opponent") & full & ~self.remote
        self.level = min(5, max(1, s.get("level")))

    def choosing(self, now):
        """Whether the seats' choice shows now (a short hint press steps on)."""
        return self.banner == 1 and ticks_diff(self.banner_until, now) > 0

    def next_seats(self, now):
        """Who the board plays, cycled (_next_seats). One hold shows the
        choice; while it shows, a short press steps on: Browne's seven
        choices without a long hold each (issue 24.12)."""
        self.set(_next_seats(self.bits, len(self.game.SIDES)))
        self.banner = 1
        self.banner_until = ticks_add(now, BANNER_MS)

    def next_level(self, now):
        self.set_level(self.level % 5 + 1)
        self.banner = 2
        self.banner_until = ticks_add(now, BANNER_MS)

    def show_hint(self, m, until):
        """Light move m as the hint light does, until the tick `until`
        (or until it is moved); m 0: no hint shown."""
        self.hint_move = m
        self.hint_until = until

    # -- the searches -----------------------------------------------------------

    def think(self):
        # The board's turn: show that it thinks (one tick), then ask for the
        # move; the loop searches while the ticks go on.
        th = self.thinker
        if th.state != _th.IDLE:
            return  # the search runs (this is a tick from inside it)
        if not self.thinking:
            self.thinking = True
            return
        rec = self.record
        th.ask(_th.MOVE, rec.pos, rec.start_text, rec.history, self.level, self.think_ms)
        if th.state == _th.DONE:
            self.collect(0, False)  # searched at once (no loop to hand it to)

    def ask_hint(self, now):
        th = self.thinker
        if th.state == _th.IDLE:
            rec = self.record
            self.hint_move = 0
            self.hinting = True
            th.ask(_th.HINT, rec.pos, rec.start_text, rec.history, 5, HINT_BUDGET_MS)
            if th.state == _th.DONE:
                self.collect(now, True)

    def collect(self, now, playing):
        """The thinker's answer: the board's move, or a hint (lit only
        while playing: the state is PLAY)."""
        th = self.thinker
        kind = th.kind
        m = th.take()
        side = self.record.pos.side
        if kind == _th.MOVE:
            self.thinking = False
            if not (self.matcher.live and self.plays(side)):
                return
            self.matcher.set_engine_move(m)
            if m:
                self.events.event("think", self.record.move_text(m))
        else:
            self.hinting = False
            if playing and not self.plays(side):
                self.hint_move = m
                self.hint_until = ticks_add(now, HINT_MS)
                if m:
                    # The hint in words too (issue 35.7): the page, the
                    # monitor and the log say what the light shows.
                    self.events.event("hint", self.record.move_text(m))

    def stop(self):
        """Cancel a search asked for (the position or the seat changed)."""
        self.thinker.cancel()
        self.thinking = False
        self.hinting = False


def seats_word(sides, seats):
    """"off", or the letters of the sides the board plays ("w", "rg")."""
    if not seats:
        return "off"
    out = ""
    for k in range(len(sides)):
        if (seats >> k) & 1:
            out += sides[k]
    return out


def _next_seats(seats, n):
    # Nobody, then one person against the board (the board plays every side
    # but one: the first side's person first), then (three sides) the board
    # plays one side alone, from the last. The choice one person wants most
    # is one hold away (Browne: "gb"; two sides: "w", then "b", as before).
    full = (1 << n) - 1
    order = [0]
    for k in range(n):
        order.append(full ^ (1 << k))
    if n > 2:
        for k in range(n - 1, -1, -1):
            order.append(1 << k)
    i = order.index(seats) if seats in order else 0
    return order[(i + 1) % len(order)]
