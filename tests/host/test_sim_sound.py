# The piezo in the simulator (issue 16): the firmware's own rp2.Buzzer drives
# the stand-in machine.PWM, which records what the board would sound; the
# page gets the same patterns through /api/layout.
from simulator.script import parse, run
from simulator.sim import Simulation
from simulator.game import layout

SCRIPT = """
position w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0
wait 1500
serial set sound on
reply ok set sound on
lift c1
place c4
wait 2000
"""


def test_the_simulated_piezo_sounds_the_board_cues():
    from triad.board.sound import CUE_MOVE

    sim = Simulation(seed=3)
    sim.boot()
    try:
        run(sim, parse(SCRIPT))
        assert sim.moves() == "c1c4"
        heard = [hz for _, hz in sim.tones]
        assert heard[-2:] == [CUE_MOVE[0], 0]
        ms = [t for t, _ in sim.tones[-2:]]
        assert 60 <= ms[1] - ms[0] <= 90  # 70 ms on 10 ms ticks
        run(sim, parse("serial set sound off\nlift a6\nplace a4\nwait 2000"))
        assert sim.moves() == "c1c4 a6a4" and [hz for _, hz in sim.tones] == heard
    finally:
        sim.shutdown()


def test_the_page_gets_the_board_patterns():
    from triad.board import sound

    lay = layout()
    assert lay["cues"]["move"] == list(sound.CUE_MOVE)
    assert set(lay["cues"]) == {"move", "error", "triad", "end"}
    assert lay["buzzer"] is True  # pico_v1 has BUZZER_PIN 22
