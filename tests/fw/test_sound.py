# The piezo's cues (triad.board.sound, issue 16): which tones the driver is
# asked for on a committed move, an error, a Triad and the end of a game;
# patterns advanced by the tick (never a sleep) and allocation-free; the
# setting `sound` over the protocol, saved with the settings; off by default
# and on a board without a piezo.
from ctlrig import Rig
from triad.compat import micropython
from triad.board import controller as C
from triad.board.sound import Sound, CUE_MOVE, CUE_ERROR, CUE_SCORE, CUE_END
from test_scan import Desc, World, fresh_rp2, forget_rp2
from test_app_tick import Serial, tmp_dir, rm_tree

TRIAD_POS = "....../....../..b1.../....../w2b2..../.....w1 b 0 0"
START = "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0"


def tones(cue):
    """What the driver is asked to sound for a cue: its notes (0 for a
    rest), then silence."""
    return [cue[k] for k in range(0, len(cue), 2)] + [0]


class FakeBuzzer:
    def __init__(self, clock):
        self.clock = clock
        self.heard = []  # (ms, hz)
        self.enabled = []

    def enable(self, on):
        self.enabled.append(on)

    def tone(self, hz):
        self.heard.append((self.clock(), hz))


class SoundRig(Rig):
    def __init__(self, position, on=True, **kw):
        self.now = 0
        self.buzzer = FakeBuzzer(lambda: self.now)
        self.sound = Sound(self.buzzer)
        self.sound.set_on(on)
        self.buzzer.heard = []
        Rig.__init__(self, position, **kw)

    def tick(self, button=-1):
        Rig.tick(self, button)
        self.sound.update(self.ctl, self.now)

    def take(self):
        """The tones asked for since the last take()."""
        out = [hz for _, hz in self.buzzer.heard]
        self.buzzer.heard = []
        return out


def test_a_committed_move_sounds_once_and_the_tick_advances_it():
    r = SoundRig(TRIAD_POS)
    assert r.take() == []  # loading a position is not a move
    r.lift("c4")
    r.place("e4", 1500)
    assert r.moves() == "c4e4"
    heard = r.buzzer.heard
    assert [hz for _, hz in heard] == tones(CUE_MOVE)
    # The tone lasts its time over several ticks, not one sleeping call.
    assert heard[1][0] - heard[0][0] == CUE_MOVE[1]


def test_an_error_sounds_the_error_cue():
    r = SoundRig(TRIAD_POS)
    r.lift("c4")
    r.place("d4", 1500)  # a 1 may not move one cell
    assert r.ctl.errors == 1
    assert r.take() == tones(CUE_ERROR)
    r.lift("d4")
    r.place("c4", 1500)  # put back: no cue
    assert r.take() == []


def test_a_triad_sounds_when_it_pulses_then_the_removal_commits_the_move():
    r = SoundRig(TRIAD_POS)
    r.move("c4", "c2", 1500)
    assert r.ctl.state == C.FINISH
    assert r.take() == tones(CUE_SCORE)
    # Its pieces lifted and put back: the Triad is not cued again.
    r.lift("c2", 100)
    r.place("c2", 1500)
    r.take()
    assert r.ctl.state == C.FINISH
    r.lift("b2", 1500)
    assert r.moves() == "c4c2xb2"
    assert r.take() == tones(CUE_MOVE)


def test_the_end_of_a_game_sounds_the_end_cue():
    r = SoundRig(TRIAD_POS.replace("b 0 0", "b 2 1"))
    r.move("c4", "c2", 1500)
    r.take()
    r.lift("b2", 2000)
    assert r.ctl.state == C.OVER
    assert r.take() == tones(CUE_END)


def test_off_by_default_and_silent_when_off():
    assert Sound(FakeBuzzer(lambda: 0)).on is False
    r = SoundRig(TRIAD_POS, on=False)
    r.move("c4", "e4", 1500)
    assert r.moves() == "c4e4" and r.take() == []
    assert r.buzzer.enabled == [False]
    # Switched off in the middle of a cue: silence at once.
    r2 = SoundRig(TRIAD_POS)
    r2.lift("c4")
    r2.place("d4", 400)
    assert r2.sound.cue is CUE_ERROR
    r2.sound.set_on(False)
    assert r2.take()[-1] == 0 and r2.buzzer.enabled[-1] is False
    r2.wait(1000)
    assert r2.take() == []
    # No piezo: the setting stays off.
    assert Sound(None).set_on(True) is False


def _boot(root, **over):
    from triad.app import App

    d = Desc(**over)
    w = World(d)
    rp2 = fresh_rp2(w)
    # The board's clock is the test's time (app.tick(now) after w.now = now):
    # the tick reads the clock again for the cues (a move written to flash
    # takes time on the chip), and a real clock would time them otherwise.
    w.now = 0
    app = App(d, rp2.Hardware(d), Serial(), 7, root, ticks_ms=lambda: w.now)
    return app, w


def _tick(app, w, now):
    w.now = now
    app.tick(now)


def test_the_sound_setting_over_the_protocol_persists_and_drives_the_pwm():
    root = tmp_dir()
    try:
        app, w = _boot(root)
        p = app.protocol
        assert p.execute("get sound") == "ok get sound off"
        assert "sound=off" in p.execute("get")
        assert w.pwms == []  # off: the pin is not even a PWM output
        assert p.execute("set sound loud").startswith("err value sound is off or on")
        assert p.execute("set sound on") == "ok set sound on"
        assert len(w.pwms) == 1 and w.pwms[0].pin.gpio == app.desc.BUZZER_PIN == 22
        assert app.sound.on
        # Saved with the settings: on again after a power cut.
        forget_rp2()
        app2, w2 = _boot(root)
        assert app2.sound.on and len(w2.pwms) == 1
        assert app2.protocol.execute("get sound") == "ok get sound on"
        assert app2.protocol.execute("set sound off") == "ok set sound off"
        assert not app2.sound.on and w2.pwms[0].live is False
        forget_rp2()
        app3, w3 = _boot(root)
        assert not app3.sound.on and w3.pwms == []
    finally:
        forget_rp2()
        rm_tree(root)


def test_a_board_without_a_piezo_answers_sound_off():
    root = tmp_dir()
    try:
        app, w = _boot(root, BUZZER_PIN=None)
        assert app.hw.buzzer is None
        assert app.protocol.execute("set sound on") == "ok set sound off"
        assert not app.sound.on and w.pwms == []
    finally:
        forget_rp2()
        rm_tree(root)


def test_the_tick_stays_allocation_free_with_the_sound_on():
    root = tmp_dir()
    try:
        app, w = _boot(root)
        ctl = app.ctl
        assert app.protocol.execute("set sound on") == "ok set sound on"
        ctl.start_position(START)
        cmap = app.desc.MATRIX_CELL

        def put(occ):
            for m in range(36):
                w.closed[m] = 1 if occ[cmap[m]] else 0

        put(ctl.expected)
        now = 1000
        for _ in range(150):
            now += 10
            _tick(app, w, now)
        assert ctl.state == C.PLAY
        # An error through the whole tick: the piezo sounds its cue. (Not
        # under heap_lock: the protocol's evt fault is text, by design.)
        w.ntones = 0
        c1, c3 = 2, 14  # c1 is a black 2: two cells to c3 it may not go
        wrong = bytearray(ctl.expected)
        wrong[c1] = 0
        wrong[c3] = 1
        for k in range(300):
            if k == 50:
                put(wrong)
            if k == 200:
                put(ctl.expected)
            now += 10
            _tick(app, w, now)
        assert ctl.errors == 1 and ctl.record.moves_text() == ""
        assert w.sounded() == tones(CUE_ERROR)
        # A cue of each kind played out by the tick under heap_lock, in
        # steady play and with a die in the hand (destinations drawn).
        lifted = bytearray(ctl.expected)
        lifted[c1] = 0
        for cue in (CUE_MOVE, CUE_ERROR, CUE_SCORE, CUE_END):
            w.ntones = 0
            app.sound.play(cue, 3, now)
            micropython.heap_lock()
            try:
                for k in range(150):
                    if k == 30:
                        put(lifted)
                    if k == 100:
                        put(ctl.expected)
                    now += 10
                    _tick(app, w, now)
            finally:
                micropython.heap_unlock()
            assert w.sounded() == tones(cue)
            assert ctl.state == C.PLAY and ctl.errors == 1
    finally:
        forget_rp2()
        rm_tree(root)
