# Sound cues on an optional piezo (issue 16: for players who cannot tell the
# lights' colours apart): a short tone pattern when a move is committed, on
# an error, when a Triad or capture waits for its pieces to come off, and at
# the end of a game. Off unless the setting `sound` is on.
#
# The cues follow the controller from outside, by what it already counts
# (its committed moves, its errors, its state), so the controller knows
# nothing of sound. A pattern is advanced by the tick, one step at a time
# (never a sleep); update() allocates nothing. The driver is the board's
# `buzzer` (triad.drivers.rp2.Buzzer, circuitpython.Buzzer, the simulator's
# stand-in PWM): enable(on) outside the tick, tone(hz) inside it (0: silent).
from triad.compat import const, ticks_add, ticks_diff

# Controller states (triad.board.controller; not imported: no cycle).
_FINISH = const(2)
_OVER = const(3)

# Patterns: (hz, ms, hz, ms, ...), hz 0 a rest. The same tones as the
# simulator page's (it reads them from here through /api/layout).
CUE_MOVE = (1319, 70)
CUE_ERROR = (220, 160, 0, 60, 165, 220)
CUE_SCORE = (1047, 90, 1319, 90, 1568, 160)  # a Triad, a capture
CUE_END = (1568, 140, 1319, 140, 1047, 140, 784, 360)
CUES = (("move", CUE_MOVE), ("error", CUE_ERROR), ("triad", CUE_SCORE), ("end", CUE_END))
# A cue of lower rank does not cut one of a higher rank short.
_RANK_MOVE = const(1)
_RANK_ERROR = const(1)
_RANK_SCORE = const(2)
_RANK_END = const(3)


class Sound:
    def __init__(self, buzzer):
        self.buzzer = buzzer  # None: the board has no piezo
        self.on = False
        self.cue = _unset()  # the pattern playing, or None
        self.rank = 0
        self.step = 0  # index of its next (hz, ms) pair
        self.until = 0  # when the current step ends
        self.played = 0  # cues started (for tests and diagnostics)
        self._ctl = _unset()
        self._moves = 0
        self._errors = 0
        self._state = -1
        self._scored = -1  # the move count when the last score cue sounded

    def set_on(self, on):
        """Switch the cues on or off (outside the tick): the piezo's PWM is
        set up only while they are on. Returns whether they are on."""
        on = bool(on) and self.buzzer is not None
        if self.buzzer is not None:
            if not on:
                self.buzzer.tone(0)
            self.buzzer.enable(on)
        self.on = on
        self.cue = None
        self._ctl = None  # start watching afresh: nothing old is cued
        return on

    def update(self, ctl, now):
        """Once a tick, after the controller's update: start a cue for what
        happened since the last tick, then advance the playing one."""
        if not self.on:
            return
        n = len(ctl.record.history)
        st = ctl.state
        if ctl is not self._ctl or n < self._moves:
            # Another game, a load or a new game: only watch from here on.
            self._ctl = ctl
            self._moves = n
            self._errors = ctl.errors
            self._state = st
            self._scored = -1
        if n > self._moves:
            if st == _OVER:
                self.play(CUE_END, _RANK_END, now)
            else:
                self.play(CUE_MOVE, _RANK_MOVE, now)
        elif st == _FINISH and self._state != _FINISH and self._scored != n:
            self._scored = n  # once a turn, however often the pieces go back
            self.play(CUE_SCORE, _RANK_SCORE, now)
        elif ctl.errors != self._errors:
            self.play(CUE_ERROR, _RANK_ERROR, now)
        self._moves = n
        self._errors = ctl.errors
        self._state = st
        self.advance(now)

    def play(self, cue, rank, now):
        if self.cue is not None and rank < self.rank:
            return
        self.cue = cue
        self.rank = rank
        self.step = 0
        self.until = now
        self.played += 1

    def advance(self, now):
        cue = self.cue
        if cue is None or ticks_diff(now, self.until) < 0:
            return
        k = self.step
        if k >= len(cue):
            self.cue = None
            self.rank = 0
            self.buzzer.tone(0)
            return
        self.buzzer.tone(cue[k])
        self.until = ticks_add(self.until, cue[k + 1])
        self.step = k + 2


def _unset():
    # None, typed as anything: the attribute is set later (mypy, untyped def).
    return None
