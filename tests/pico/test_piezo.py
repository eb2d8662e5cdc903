"""The piezo on the real image (issue 22, item 2: "the piezo's PWM frequency
read where the board has one"): with sound on, a committed move and an
illegal placement sound the same cues, at the same simulated times (within
one scan period), from the
UF2 on the emulated RP2040 (the PWM slice of BUZZER_PIN read at every tick)
as from the CPython target (its PWM stand-in). pico_v1 has a piezo."""
import os

import pytest

from simulator import script

if not os.environ.get("TRIAD_PICO"):
    pytest.skip("the emulated Pico (make test-pico)", allow_module_level=True)

STEPS = """
serial set sound on
position w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0
lift c1
place c3
wait 1200
lift c3
place c2
wait 1000
"""

def _tones(sim):
    """The piezo's changes (ms, hz) from the first sound on, repeats of the
    same frequency folded (a driver may set it again unchanged)."""
    out = []
    for ms, hz in sim.tones:
        if out and out[-1][1] == hz:
            continue
        if not out and hz == 0:
            continue
        out.append((ms, hz))
    return out


def _run(sim):
    try:
        sim.boot()
        script.run(sim, script.parse(STEPS), out=lambda line: None)
        return _tones(sim), sim.moves()
    finally:
        sim.shutdown()


def test_the_piezo_sounds_the_cpython_targets_cues():
    from simulator.game import DESC
    from simulator.pico import PicoSimulation, uf2_for_board
    from simulator.sim import Simulation
    from triad.board.sound import CUE_ERROR, CUE_MOVE

    assert DESC.BUZZER_PIN is not None
    want, want_moves = _run(Simulation(seed=1))
    got, got_moves = _run(PicoSimulation(uf2_for_board(DESC.NAME), seed=1))
    assert got_moves == want_moves and want_moves  # the move was committed on both
    # The cues the person hears: the illegal placement's pattern, then the
    # committed move's tone.
    heard = [hz for _, hz in want if hz]
    assert heard == [CUE_ERROR[0], CUE_ERROR[4], CUE_MOVE[0]], want
    # Each tone starts and stops within one scan period of the CPython
    # target's (a cue's end is timed on the chip's clock, which a tick may
    # read a little before its grid point: that stop comes one tick later).
    tick = 1000 // DESC.SCAN_HZ
    assert len(got) == len(want), (got, want)
    assert all(abs(g - w) <= tick for (g, _), (w, _) in zip(got, want)), (got, want)
    for (_, g), (_, w) in zip(got, want):
        # The PWM's integer divider and wrap make the frequency a close one.
        assert abs(g - w) <= max(2, w // 100), (got, want)
