"""Stateful fuzzing of the whole board: the unchanged firmware main loop in the
virtual-time Simulation, driven by every kind of physical event a player (or
a clumsy player, a cat, a flaky switch, a power cut) can produce.

A hypothesis RuleBasedStateMachine boots a fresh simulated board per example
(its flash is a fresh temporary folder), loads one of a few interesting
positions and then applies random rules: lifting, placing, knocking and
sliding dice, foreign objects, switch bounce and noise, button presses, idle
time, properly played legal moves and power cuts at random instants.

After every step it checks, against the independent reference rules
(tests/reference_nehren.py), never the firmware's own core:

* the firmware never crashed and never reported an internal error;
* every move the board committed ("evt move ...") is legal in sequence from
  the position loaded (or the new game rolled), and the position the board
  reports is exactly the reference position after those moves;
* after a power cut and boot the board resumes the same game: its move list
  equals the committed moves before the cut;
* liveness: putting the dice exactly where the board's position says (and
  nothing else on the board, nothing in the hand) and waiting 3 s always
  brings the board to play (or over when the game has ended; or, in a Note 2
  position, to the value pick / removal it was in the middle of), after which
  a legal move performed properly is committed.

The plain tests at the end pin down specific event sequences found while
building this machine.
"""
import functools
import os
import shutil
import subprocess
import sys
import tempfile

import pytest
from hypothesis import HealthCheck, Phase, settings, strategies as st
from hypothesis import event as _event
from hypothesis.errors import InvalidArgument
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import reference_nehren as R
from simulator.hardware import Die, cell_name
from simulator.sim import Simulation

START = R.START
TRIAD_NEXT = "....../....../..b1.../....../w2b2..../.....w1 b 0 0"
NOTE2 = "....../....../....../w1w1..../.w1..../b1w1.... b 0 0"
SCORE_22 = "w3..w2.w1/....../..b1w2../.w1b2.../b3...../...b1.b2 b 2 2"
POSITIONS = [START, TRIAD_NEXT, NOTE2, SCORE_22]

SETTLE_WAIT_MS = 1000  # the board's 800 ms settle time plus debounce and margin
HINT_MS = 4000  # how long the board shows a hint
BANNER_MS = 2000  # how long the board shows a changed setting
# Known bug (test_hint_of_the_previous_game_is_not_shown_after_loading_a_position):
# a hint asked for just before a new game / loaded position stays lit for the
# rest of its 4 s. The machine tolerates that window until it is fixed.
KNOWN_STALE_HINT = False
BUTTONS = ("confirm", "new", "hint", "menu")
CELLS = [cell_name(i) for i in range(36)]


def event(text):
    """hypothesis.event, also usable from the plain tests below."""
    try:
        _event(text)
    except InvalidArgument:
        pass


def neighbours(i):
    f, r = i % 6, i // 6
    out = []
    for df in (-1, 0, 1):
        for dr in (-1, 0, 1):
            if (df or dr) and 0 <= f + df < 6 and 0 <= r + dr < 6:
                out.append((r + dr) * 6 + f + df)
    return out


def occupancy_of(position):
    """36 booleans: which cells a position's dice occupy."""
    board = R.parse_position(position)["board"]
    return [name in board for name in CELLS]


def is_note2_position(position):
    pos = R.parse_position(position)
    return R.winner_of(pos) is None and not R.regular_results(pos)


# -- driving the simulation ---------------------------------------------------------


class Board:
    """A Simulation plus the reference's view of the game the board plays,
    updated from the board's event lines."""

    def __init__(self, seed, position=None):
        self.dir = tempfile.mkdtemp(prefix="triad-stateful-")
        self.sim = Simulation(self.dir, seed)
        self.ev = 0  # events processed
        self.start = None  # position of the last load / new game
        self.ref = None  # reference position after the committed moves
        self.committed = []
        self.last_triad = None
        self.drawn = False
        self.loaded_at = -1 << 30
        self.banner_until = 0
        self.sim.boot()
        self.sim.run(50)
        self.check()
        if position is not None:
            self.sim.set_position(position)
            self.check()
            assert self.start == R.format_position(R.parse_position(position))

    def close(self):
        try:
            self.sim.shutdown()
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

    # -- observation ----------------------------------------------------------

    def check(self):
        """Fold new event lines into the reference game; assert every one."""
        sim = self.sim
        assert sim.crash is None, sim.crash
        assert sim.running, "the firmware stopped"
        evs = sim.events
        while self.ev < len(evs):
            ms, line = evs[self.ev]
            self.ev += 1
            kind, _, arg = line[4:].partition(" ")
            assert kind != "error", "at %d ms: %s" % (ms, line)
            assert kind != "lesson", "at %d ms: %s (a lesson: not the game this model follows)" % (ms, line)
            if kind in ("setup", "position"):
                R.parse_position(arg)
                self.loaded_at = ms
                self.start = self.ref = arg
                self.committed = []
                self.last_triad = None
            elif kind == "move":
                assert self.ref is not None
                legal = R.legal_moves(self.ref)
                assert arg in legal, "at %d ms the board committed %s, illegal in %s after %s (legal: %s)" % (
                    ms, arg, self.ref, self.committed, legal)
                self.ref = R.apply(self.ref, arg)
                self.committed.append(arg)
                self.last_triad = None
                self.drawn = False
            elif kind == "triad":
                self.last_triad = arg
            elif kind in ("resume", "play"):
                assert arg == self.ref, "at %d ms: %s but the reference game is at %s" % (ms, line, self.ref)
            elif kind == "over":
                if arg.startswith("draw"):
                    # Draw by repetition (newer firmware): not in the
                    # reference rules, so only noted.
                    self.drawn = True
                else:
                    assert R.winner(self.ref) == arg, "%s in %s" % (line, self.ref)
        return self

    def state(self):
        """(state, position) from the board, checked against the reference."""
        state, pos = self.sim.state()
        self.check()
        assert pos == self.ref, "board says %s %s, reference game is at %s after %s" % (
            state, pos, self.ref, self.committed)
        now = self.sim.now_ms()
        stale_hint_window = KNOWN_STALE_HINT and now - self.loaded_at < HINT_MS + 300
        # Since a3da63d a long press of confirm shows the engine level for
        # 2 s in the hint colour on rank 3: not a hint.
        banner = now < self.banner_until
        if state == "play" and not stale_hint_window and not banner:
            # The hint (cyan, the only colour with r == 0 and g == b) marks a
            # die of the side to move: never an empty cell or another's die.
            board = R.parse_position(pos)["board"]
            side = pos.split()[1]
            for i, (r, g, b) in enumerate(self.sim.leds()[:36]):
                if r == 0 and g == b and g > 0:
                    die = board.get(CELLS[i])
                    assert die is not None and die[0] == side, "hint light on %s (%s) in %s" % (
                        CELLS[i], die, pos)
        if state in ("play", "remove", "note2", "sync", "setup"):
            # Status LEDs: the turn of the side to move, one per Triad scored.
            status = [any(rgb) for rgb in self.sim.leds()[36:44]]
            fields = pos.split()
            assert status[0:2] == [fields[1] == "b", fields[1] == "w"], (status, pos)
            assert sum(status[2:5]) == int(fields[2]) and sum(status[5:8]) == int(fields[3]), (status, pos)
        if state == "note2":
            assert is_note2_position(pos), "value pick outside Note 2: %s" % pos
        if state == "remove":
            # Waiting for the removal of a Triad the reference agrees was formed.
            assert self.last_triad, "remove without a Triad event"
            assert any(m.startswith(self.last_triad + "x") for m in R.legal_moves(pos)), (self.last_triad, pos)
        if state == "over":
            assert R.winner(pos) is not None or self.drawn, "over in %s" % pos
        elif state in ("play", "remove", "note2"):
            assert R.winner(pos) is None, "%s in a finished game %s" % (state, pos)
        return state, pos

    def physical_matches(self, position):
        cells = self.sim.board.cells
        want = R.parse_position(position)["board"]
        for i, name in enumerate(CELLS):
            d = cells[i]
            w = want.get(name)
            if (d is None) != (w is None):
                return False
            if d is not None and d.colour != w[0]:
                return False
        return not self.sim.board.hand

    # -- actions --------------------------------------------------------------

    def restore(self, position):
        """Every die where the position says, nothing else, empty hand."""
        self.sim.board.noise = 0.0
        self.sim.board.set_position(position)

    def power_cycle(self, off_ms):
        self.check()
        before = list(self.committed)
        ref = self.ref
        self.sim.power_cut()
        self.sim.run(off_ms)
        self.sim.boot()
        n = self.ev
        self.check()
        kinds = [line.split()[1] for _, line in self.sim.events[n:]]
        assert "resume" in kinds, "after the power cut the board did not resume its game: %s" % (
            self.sim.events[n:],)
        moves = self.sim.moves()
        assert moves.split() == before, "moves before the cut %s, after the boot %r" % (before, moves)
        assert self.ref == ref

    def play(self, move, hold_ms=200, note2_gap_ms=200, cut_at=None):
        """Perform a legal move with the hands as a player would.
        cut_at: cut the power after that many ms of the sequence (and boot)."""
        sim = self.sim
        budget = [cut_at]

        def wait(ms):
            # Let time pass, or cut the power at the chosen instant.
            if budget[0] is not None and budget[0] <= ms:
                sim.run(budget[0])
                budget[0] = None
                self.power_cycle(500)
                raise _Cut()
            if budget[0] is not None:
                budget[0] -= ms
            sim.run(ms)

        pos = self.ref
        head, _, rem = move.partition("x")
        try:
            if "=" in head:
                cell, v = head[:2], int(head[3])
                cur = R.parse_position(pos)["board"][cell][1]
                others = sorted({1, 2, 3} - {cur})
                sim.lift(cell)
                wait(max(hold_ms, 60))
                sim.place(cell)
                wait(note2_gap_ms)
                assert self.state()[0] == "note2", "die put back in a Note 2 position: no value pick"
                for _ in range(others.index(v)):
                    sim.press("menu")
                    wait(50)
                sim.press("confirm")
                wait(100)
            else:
                sim.lift(head[:2])
                wait(hold_ms)
                sim.place(head[2:4])
                wait(SETTLE_WAIT_MS)
            if rem:
                st_, _ = self.state()
                assert st_ == "remove", "%s forms a Triad but the board is in %s" % (move, st_)
                assert self.last_triad is not None
                sim.lift(rem)
                wait(SETTLE_WAIT_MS)
        except _Cut:
            event("power cut during a move")
            return False
        event("played %s" % ("Note 2 turn" if "=" in move else "removal" if rem else "move"))
        self.check()
        assert self.committed and self.committed[-1] == move, "played %s properly in %s, committed: %s" % (
            move, pos, self.committed)
        assert self.ref == R.apply(pos, move)
        state, _ = self.state()
        assert state == ("over" if R.winner(self.ref) or self.drawn else "play"), state
        return True

    def liveness(self, choose, play=True):
        """Put the board right, wait, and a properly played legal move is
        committed. choose(list) picks one element of a list. With play=False
        stop short of the move: returns the position when the board waits
        for one (None when the game is over or has no move)."""
        sim = self.sim
        state, pos = self.state()
        if state == "selftest":
            # (a gap first: a press just before, with none between, is one
            # hold to the board, as a person's two presses never are)
            sim.run(300)
            sim.press("menu", long=True)
            sim.run(100)
            state, pos = self.state()
            assert state != "selftest"
        self.restore(pos)
        sim.run(3000)
        state, now_pos = self.state()
        if now_pos != pos:
            # A move whose piece had rested its settle time was committed in
            # the few ms before the debounce saw the board put right: it
            # stands, so put the board right for it in turn.
            self.check()
            self.restore(now_pos)
            sim.run(3000)
            state, now_pos = self.state()
        pos = now_pos
        if state == "over":
            assert self.drawn or R.legal_moves(pos) == []
            return None
        if state == "note2":
            # A die was lifted and put back in a Note 2 position: the value
            # pick. Confirm commits the value on offer.
            assert is_note2_position(pos), "value pick in %s" % pos
            n = len(self.committed)
            sim.press("confirm")
            sim.run(100)
            state, pos = self.state()
            if state != "remove":
                assert state in ("play", "over") and len(self.committed) == n + 1, (state, self.committed)
                return self.liveness(choose, play)
        if state == "remove":
            # Only the Note 2 turn in place can leave the board waiting for
            # the removal with every die where the position says.
            assert self.last_triad and "=" in self.last_triad, "remove with the board restored: %s" % (
                self.last_triad,)
            choices = [m for m in R.legal_moves(pos) if m.startswith(self.last_triad + "x")]
            assert choices
            m = choose(choices)
            sim.lift(m.partition("x")[2])
            sim.run(SETTLE_WAIT_MS)
            self.check()
            assert self.committed[-1] == m
            return self.liveness(choose, play)
        assert state == "play", "board restored to %s, after 3 s the board is in %s" % (pos, state)
        assert self.physical_matches(pos)
        for _ in range(4):
            # Every die where it belongs: no cell blinks the error red.
            red = [CELLS[i] for i, (r, g, b) in enumerate(self.sim.leds()[:36]) if r and not g and not b]
            assert not red, "error light on %s with the board put right in %s" % (red, pos)
            sim.run(130)
        legal = R.legal_moves(pos)
        if not legal:
            # Only from a loaded position with few dice: the side to move has
            # lost all its dice without the opponent having won.
            assert not any(c == pos.split()[1] for c, _ in R.parse_position(pos)["board"].values())
            return None
        if not play:
            return pos
        self.play(choose(legal))
        return None


class _Cut(Exception):
    pass


# -- the state machine ------------------------------------------------------------


def step(fn):
    """Mark the machine broken while a step runs, so that after a failing step
    teardown does not pile the liveness check onto the first failure."""

    @functools.wraps(fn)
    def wrapped(self, *a, **kw):
        self.broken = True
        fn(self, *a, **kw)
        self.broken = False

    return wrapped


class Machine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.b = None
        self.broken = False

    @initialize(position=st.sampled_from(POSITIONS), seed=st.integers(0, 1 << 16))
    @step
    def boot(self, position, seed):
        self.b = Board(seed, position)

    @property
    def sim(self):
        return self.b.sim

    def occupied(self):
        return [i for i, d in enumerate(self.sim.board.cells) if d is not None]

    def empty(self):
        return [i for i, d in enumerate(self.sim.board.cells) if d is None]

    # -- hands ------------------------------------------------------------------

    @precondition(lambda self: self.b and any(d is not None for d in self.b.sim.board.cells))
    @rule(data=st.data(), ms=st.integers(0, 400))
    @step
    def lift(self, data, ms):
        c = data.draw(st.sampled_from(self.occupied()), label="lift")
        self.sim.lift(cell_name(c))
        self.sim.run(ms)

    @precondition(lambda self: self.b and self.b.sim.board.hand)
    @rule(data=st.data(), ms=st.integers(0, 1200))
    @step
    def place_held(self, data, ms):
        c = data.draw(st.sampled_from(self.empty()), label="place")
        self.sim.place(cell_name(c))
        self.sim.run(ms)

    @precondition(lambda self: self.b and not all(self.b.sim.board.cells))
    @rule(data=st.data(), ms=st.integers(0, 1200))
    @step
    def place_foreign_object(self, data, ms):
        c = data.draw(st.sampled_from(self.empty()), label="object")
        self.sim.board.place(c, self.sim.now_ms(), Die(None, 0))
        self.sim.run(ms)

    @precondition(lambda self: self.b and any(d is not None for d in self.b.sim.board.cells))
    @rule(data=st.data(), ms=st.integers(0, 400))
    @step
    def knock(self, data, ms):
        c = data.draw(st.sampled_from(self.occupied()), label="knock")
        self.sim.knock(cell_name(c))
        self.sim.run(ms)

    @precondition(lambda self: self.b and any(d is not None for d in self.b.sim.board.cells))
    @rule(data=st.data(), straight=st.booleans(), length=st.integers(1, 4), ms=st.integers(0, 1200))
    @step
    def slide(self, data, straight, length, ms):
        cells = self.sim.board.cells
        start = data.draw(st.sampled_from(self.occupied()), label="slide from")
        path = [start]
        step = None
        for _ in range(length):
            here = path[-1]
            nxt = [n for n in neighbours(here) if cells[n] is None and n not in path]
            if straight and step is not None:
                nxt = [n for n in nxt if n - here == step and abs(n % 6 - here % 6) <= 1]
            if not nxt:
                break
            n = data.draw(st.sampled_from(nxt), label="via")
            step = n - here
            path.append(n)
        if len(path) < 2:
            return
        self.sim.slide([cell_name(c) for c in path])
        self.sim.run(ms)

    @rule(data=st.data(), ms=st.integers(10, 80))
    @step
    def bounce(self, data, ms):
        c = data.draw(st.integers(0, 35), label="bounce")
        self.sim.bounce(cell_name(c), ms)
        self.sim.run(ms + data.draw(st.integers(0, 300)))

    @rule(p=st.sampled_from([0.01, 0.05, 0.2]), ms=st.integers(20, 400))
    @step
    def noise(self, p, ms):
        self.sim.board.noise = p
        try:
            self.sim.run(ms)
        finally:
            self.sim.board.noise = 0.0

    @rule(button=st.sampled_from(BUTTONS), long=st.booleans(), really=st.integers(0, 5), ms=st.integers(0, 500))
    @step
    def press(self, button, long, really, ms):
        if button == "new" and long and really:
            long = False  # a new game only now and then
        if button == "hint" and long:
            # A long press makes the board play a side itself: its moves are
            # not modelled here.
            button, long = "menu", False
        if button == "menu" and not long and self.b.state()[0] == "setup":
            # In set-up a short menu starts the board's lessons, whose
            # positions and moves follow the lesson, not the game modelled
            # here (tests/host/test_lessons.py tests them).
            self.sim.run(ms)
            return
        self.sim.press(button, long)
        if long and button == "confirm":
            self.b.banner_until = self.sim.now_ms() + BANNER_MS + 300
        self.sim.run(ms)

    @rule(position=st.sampled_from(POSITIONS), ms=st.integers(0, 2000))
    @step
    def load_position(self, position, ms):
        # The host sends a position over USB: the dice are put there too.
        if self.b.state()[0] == "selftest":
            # (protocol v2 refuses a position during the switch self-test)
            self.sim.press("menu", long=True)
        self.sim.set_position(position)
        self.b.check()
        assert self.b.start == position and self.b.committed == []
        self.sim.run(ms)

    @rule(ms=st.integers(10, 3000))
    @step
    def wait(self, ms):
        self.sim.run(ms)

    # -- power ------------------------------------------------------------------

    @rule(before=st.integers(0, 1000), off=st.integers(1, 3000))
    @step
    def power_cut(self, before, off):
        self.sim.run(before)
        self.b.power_cycle(off)

    # -- proper play ------------------------------------------------------------

    @rule(data=st.data(), hold=st.integers(0, 600))
    @step
    def play_legal_move(self, data, hold):
        state, pos = self.b.state()
        if state != "play" or not self.b.physical_matches(pos):
            return
        legal = R.legal_moves(pos)
        if legal:
            self.b.play(data.draw(st.sampled_from(legal), label="move"), hold_ms=hold)

    @rule(data=st.data(), hold=st.integers(0, 600), cut=st.integers(0, 2600))
    @step
    def power_cut_during_move(self, data, hold, cut):
        state, pos = self.b.state()
        if state != "play" or not self.b.physical_matches(pos):
            return
        legal = R.legal_moves(pos)
        if legal:
            self.b.play(data.draw(st.sampled_from(legal), label="move"), hold_ms=hold, cut_at=cut)

    @rule(data=st.data(), stage=st.sampled_from(["lifted", "placed", "settled"]), hold=st.integers(0, 400))
    @step
    def begin_move(self, data, stage, hold):
        """Start a legal move (a Triad one when there is one) and leave it
        unfinished, so the other rules also act in the middle of a move, in
        the wait for a removal and in the Note 2 value pick."""
        pos = self.b.liveness(lambda xs: data.draw(st.sampled_from(xs)), play=False)
        if pos is None:
            return
        legal = R.legal_moves(pos)
        triads = [m for m in legal if "x" in m]
        move = data.draw(st.sampled_from(triads or legal), label="move")
        head = move.partition("x")[0]
        fr, to = head[:2], (head[:2] if "=" in head else head[2:4])
        self.sim.lift(fr)
        if stage == "lifted":
            self.sim.run(hold)
            event("began a move, lifted")
            return
        self.sim.run(max(hold, 60))
        self.sim.place(to)
        if stage == "settled":
            self.sim.run(SETTLE_WAIT_MS)
            want = "note2" if "=" in head else "remove" if "x" in move else "play"
            assert self.b.state()[0] == want, (move, want)
        event("began %s, %s" % ("Note 2 turn" if "=" in head else "Triad move" if "x" in move else "move", stage))

    @rule(data=st.data())
    @step
    def liveness(self, data):
        self.b.liveness(lambda xs: data.draw(st.sampled_from(xs)))

    # -- invariants -------------------------------------------------------------

    @invariant()
    @step
    def consistent(self):
        if self.b is None:
            return
        state, _ = self.b.state()
        event("state %s" % state)

    def teardown(self):
        if self.b is None:
            return
        try:
            if not self.broken:
                self.b.liveness(lambda xs: xs[0])
        finally:
            self.b.close()


TestBoard = Machine.TestCase
TestBoard.settings = settings(
    max_examples=int(os.environ.get("TRIAD_STATEFUL_EXAMPLES", "25")),  # make fuzz-hypothesis: 400
    stateful_step_count=40,
    deadline=None,
    # The explain phase re-runs the failing example hundreds of times (minutes).
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# -- regressions: event sequences found while building the machine ----------------------

_HINT_PROBE = """
import sys, tempfile
sys.path[:0] = [%(root)r, %(fw)r]
from simulator.sim import Simulation
sim = Simulation(tempfile.mkdtemp(prefix="triad-hint-"), 3)
sim.boot()
sim.set_position(%(pos)r)
sim.press("hint")
sim.run(200)
print("state", sim.state()[0])
sim.shutdown()
"""
_hint_probe_result = []


def hint_press_returns(timeout=20):
    """Whether a short hint press returns in the virtual-time simulator (run
    once, in a child process, so that a hang cannot stall this one)."""
    if not _hint_probe_result:
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        code = _HINT_PROBE % {"root": root, "fw": os.path.join(root, "firmware"), "pos": START}
        try:
            r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
            _hint_probe_result.append(r.returncode == 0 and "state play" in r.stdout)
        except subprocess.TimeoutExpired:
            _hint_probe_result.append(False)
    return _hint_probe_result[0]


def test_hint_press_returns_in_virtual_time():
    # A hint runs the engine for HINT_BUDGET_MS by time.ticks_ms; in the
    # virtual-time simulator that clock only moves when the firmware sleeps,
    # so without its node cap the search never ended and the simulation hung.
    assert hint_press_returns()



def _hint_cells(sim):
    return [CELLS[i] for i, (r, g, b) in enumerate(sim.leds()[:36]) if r == 0 and g == b and g > 0]


@pytest.fixture
def board():
    made = []

    def make(position, seed=11):
        made.append(Board(seed, position))
        return made[-1]

    yield make
    for b in made:
        b.close()


def test_hint_of_the_previous_game_is_not_shown_after_loading_a_position(board):
    # Hint pressed in the start position (it points at a1), then the host
    # loads another position: the board must not light a1, now empty, as
    # the hint for the new game during the rest of the 4 s hint time.
    b = board(START)
    b.sim.press("hint")
    b.sim.run(300)
    assert _hint_cells(b.sim)  # the hint is shown in the start position
    b.sim.set_position(TRIAD_NEXT)
    assert b.state()[0] == "play"
    for _ in range(6):  # over the slow blink, well within the 4 s
        assert _hint_cells(b.sim) == []  # no hint was asked for in this game
        b.sim.run(200)


def test_taking_back_a_note2_triad_move_does_not_start_the_value_pick(board):
    # Note 2 applies; a1a2 forms a Triad (a2 b2 c2: 1 1 1). The player puts
    # the die on a2, sees the Triad, and takes the move back to a1 before
    # lifting anything else: the board must just wait for a move again, not
    # offer a Note 2 value change for a1 (one confirm press from committing
    # a1=2, a move nobody made).
    pos = "....../....../....../w2w1..../.w1w1.../b1w3.... b 0 0"
    b = board(pos)
    b.sim.lift("a1")
    b.sim.run(300)
    b.sim.place("a2")
    b.sim.run(SETTLE_WAIT_MS)
    assert b.state()[0] == "remove" and b.last_triad == "a1a2"
    b.sim.lift("a2")
    b.sim.run(300)
    b.sim.place("a1")
    b.sim.run(SETTLE_WAIT_MS)
    assert b.state() == ("play", pos)


def test_power_cut_while_waiting_for_the_removal_resumes_before_the_move(board):
    b = board(TRIAD_NEXT)
    b.sim.lift("c4")
    b.sim.run(200)
    b.sim.place("c2")
    b.sim.run(SETTLE_WAIT_MS)
    assert b.state()[0] == "remove"
    b.sim.lift("b2")  # the removal, cut off before it settles
    b.sim.run(500)
    b.power_cycle(1000)  # asserts the resume and that no move appeared or vanished
    assert b.committed == [] and b.state()[0] == "sync"
    # The dice as the lights say, and the same turn again commits.
    b.restore(TRIAD_NEXT)
    b.sim.run(SETTLE_WAIT_MS)
    assert b.play("c4c2xb2")
    b.power_cycle(10)
    assert b.sim.moves() == "c4c2xb2"


def test_note2_turn_in_place_forming_a_triad_then_removing_the_turned_die(board):
    # Black's only die is boxed in: Note 2. Turned to 2 it forms the row
    # a1 b1 c1 = 2 2 2 with White's dice; the removal is the turned die.
    pos = "....../....../....../....../w3w3..../b1w2w2... b 0 0"
    assert sorted(R.legal_moves(pos)) == ["a1=2xa1", "a1=3"]
    b = board(pos)
    assert b.play("a1=2xa1", hold_ms=150)
    assert b.last_triad is None and b.committed == ["a1=2xa1"]
    b.power_cycle(100)
    assert b.state() == ("sync", R.apply(pos, "a1=2xa1"))


def test_correcting_a_triad_move_before_the_removal_commits_the_corrected_move(board):
    b = board(TRIAD_NEXT)
    b.sim.lift("c4")
    b.sim.run(200)
    b.sim.place("c2")
    b.sim.run(SETTLE_WAIT_MS)
    assert b.state()[0] == "remove"
    b.sim.lift("c2")  # picked up again within the settle time ...
    b.sim.run(300)
    b.sim.place("e4")  # ... and put on another legal destination
    b.sim.run(SETTLE_WAIT_MS)
    assert b.state()[0] == "play"
    assert b.committed == ["c4e4"]


# Note 2 with a Triad: Black's a2 cannot make a regular move; a2b1 forms the
# column b1 b2 b3 (1 1 1) and takes b1 off again (stateful run, 400 examples:
# `make fuzz-hypothesis` with --hypothesis-seed=290728370330593277623713127669272247782
# failed on this, a matcher fault fixed in a8c8442; its shrunk steps fail on
# the commit before and pass since).
NOTE2_TRIAD = "....../....../....../w1w1..../b1w1..../...w2.. b 0 0"


@pytest.mark.parametrize("gap_ms", [0, 300])
def test_taking_back_a_note2_triad_move_then_turning_the_die_in_place(board, gap_ms):
    # The player lands a2 on b1 (the board asks for the removal), takes the
    # die back to a2 (at once, or with the die in the hand for a moment,
    # shorter than the settle time) and then turns it in place: the board
    # must offer the value pick. It stayed in play instead: the cell b1,
    # visited and empty again, still counted as a2b1xb1's removal done, so
    # that move stayed "under way" after everything was put back and the
    # turn in place (a2=2, a2=3) could never be made.
    assert sorted(R.legal_moves(NOTE2_TRIAD)) == ["a2=2", "a2=3", "a2a1", "a2b1xb1"]
    b = board(NOTE2_TRIAD)
    b.sim.lift("a2")
    b.sim.run(60)
    b.sim.place("b1")
    b.sim.run(SETTLE_WAIT_MS)
    assert b.state()[0] == "remove" and b.last_triad == "a2b1"
    b.sim.lift("b1")
    b.sim.run(gap_ms)
    b.sim.place("a2")
    b.sim.run(3000)
    assert b.state() == ("play", NOTE2_TRIAD) and b.committed == []
    assert b.play("a2=2")  # asserts the value pick, then the commit
    assert b.committed == ["a2=2"]


@pytest.mark.parametrize("press_after_ms", [100, 110, 120, 130])
def test_confirm_with_the_die_in_the_hand_picks_no_note2_value(board, press_after_ms):
    # In a Note 2 position the player lifts a2 and presses confirm while the
    # die is still in the hand, then puts it back. The value pick begins only
    # once the die is back: nothing may be committed before the player has
    # seen it. While the die was in the hand the board flipped between the
    # value pick and play on every tick (an `evt state` line each 10 ms), and
    # a confirm that fell on a value-pick tick committed a2=2 on the put-back
    # (the first value on offer, never shown), whatever the die showed.
    b = board(NOTE2_TRIAD)
    b.sim.lift("a2")
    b.sim.run(press_after_ms)
    n = len(b.sim.events)
    assert b.state()[0] == "play"  # a die in the hand: its moves are lit, no value pick
    b.sim.press("confirm")
    b.sim.run(100)
    assert b.state()[0] == "play"
    b.sim.place("a2")
    b.sim.run(SETTLE_WAIT_MS)
    assert b.state() == ("note2", NOTE2_TRIAD) and b.committed == []
    states = [line for _, line in b.sim.events[n:] if line.startswith("evt state")]
    assert states == ["evt state note2"], states  # one change of state: the put-back's
    b.sim.press("menu")  # the second value on offer, 3
    b.sim.run(50)
    b.sim.press("confirm")
    b.sim.run(100)
    assert b.state() == ("play", R.apply(NOTE2_TRIAD, "a2=3")) and b.committed == ["a2=3"]


def test_the_machine_leaves_the_lessons_alone():
    # Stateful run, 200 examples: a new game (set-up), then a short menu
    # press. In set-up that starts the board's lessons (README, "Learning the
    # game"), whose positions and moves follow the lesson (tests/host/
    # test_lessons.py), not the game this model follows: a long new then
    # left the lesson and resumed the saved game, which the model took for
    # a resume out of nowhere. The machine's presses must not start one.
    m = Machine()
    try:
        m.boot(position=START, seed=0)
        assert m.b.play("a1a3")  # (the dice then differ from a new game's)
        m.press(button="new", long=True, really=0, ms=0)
        assert m.b.state()[0] == "setup"
        m.press(button="menu", long=False, really=0, ms=0)
        m.press(button="hint", long=True, really=0, ms=0)  # (the machine's menu too)
        m.consistent()
        assert m.b.state()[0] == "setup"
        m.press(button="new", long=True, really=0, ms=0)
        m.consistent()
    finally:
        m.teardown()


def test_hint_for_a_side_without_dice_reports_no_engine_fault(board):
    # Stateful run, 400 examples: Black's last die was taken off as its
    # Triad's removal (from a loaded position: Black has no die, White has
    # not won) and Black is to move, with no move at all. A hint press then
    # said "evt error the engine found no move: a quick move instead": a
    # fault that is none (no move exists to find).
    pos = "....../....../....../w1w1..../.w1..../....w1. b 1 0"
    assert R.legal_moves(pos) == [] and R.winner(pos) is None
    b = board(pos)
    b.sim.press("hint")
    b.sim.run(500)
    assert b.state() == ("play", pos)  # check(): no evt error
    assert not _hint_cells(b.sim)
