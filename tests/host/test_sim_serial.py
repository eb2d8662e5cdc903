# The simulator's serial line: every command gets its own reply, even after
# one reply came late, and the page's log shows a late reply to the player's
# line. A loaded machine made both go wrong (stop 41's CI: a reply that came
# after its 3 s arrived during the page's poll, was taken as the poll's
# answer and left out of the log, and the page's `state` waited for ever).
import threading
import time

import pytest

from simulator.hardware import SimError
from simulator.sim import Simulation

START = "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 w 0 0"


@pytest.fixture
def sim():
    s = Simulation(seed=3)
    s.boot()
    s.run(1500)
    yield s
    s.shutdown()


def test_a_late_reply_is_never_taken_as_the_next_commands(sim):
    sim.set_position(START)  # the pieces put out, and the board in play
    # No simulated time for the firmware to answer: the line times out...
    with pytest.raises(SimError, match="no reply to 'state'"):
        sim.send("state", timeout_ms=0)
    # ...and its answer, which comes meanwhile, is not this one's.
    assert sim.send("get brightness").startswith("ok get brightness")
    assert sim.send("state") == "ok state play " + START


def test_a_line_the_power_cut_caught_does_not_shift_the_replies_after_boot(sim):
    with pytest.raises(SimError):
        sim.send("state", timeout_ms=0)
    sim.power_cut()
    with pytest.raises(SimError, match="switched off"):
        sim.send("state")
    sim.boot()
    sim.run(1500)
    assert sim.send("get brightness").startswith("ok get brightness")
    assert sim.send("moves").startswith("ok moves")


def test_replies_to_a_links_raw_lines_are_not_kept_for_ever(sim):
    from simulator.sim import ANSWERS_KEPT

    for _ in range(ANSWERS_KEPT + 50):
        sim.write_serial(b"moves\n")  # (a link's lines: nobody sends for them)
        sim.run(20)
    assert sim.reply_seq >= ANSWERS_KEPT + 49 and len(sim._answers) <= ANSWERS_KEPT
    assert sim.send("state").startswith("ok state ")


@pytest.mark.parametrize("line", ["", "\n", "state\nmoves", "state\rmoves"])
def test_one_non_empty_line_at_a_time(sim, line):
    # (The firmware answers each non-empty line once: two lines in one send,
    # or none, would put every later reply out of step.)
    with pytest.raises(SimError, match="one non-empty line"):
        sim.send(line)
    assert sim.send("moves").startswith("ok moves")


class Gate:
    """The simulator's serial lock, with a gate the firmware's own read of
    its line waits at while it is shut: a firmware that stalls (a loaded
    machine) while the host side goes on."""

    def __init__(self, lock):
        self.lock = lock
        self.opened = threading.Event()

    def __enter__(self):
        if threading.current_thread().name == "firmware":
            self.opened.wait(30)
        return self.lock.__enter__()

    def __exit__(self, *exc):
        return self.lock.__exit__(*exc)


def test_the_page_logs_a_late_reply_to_its_own_line_that_arrives_during_a_poll(tmp_path):
    from simulator.web import Running

    with Running(state_dir=str(tmp_path), seed=3) as run:
        ws = run.websim
        run.wait_ready()
        deadline = time.monotonic() + 30
        gate = ws.sim.serial_lock = Gate(ws.sim.serial_lock)
        # The player's line waits its 3 s out; then the poller asks its
        # questions; only then does the firmware read and answer them all.
        with pytest.raises(SimError, match="no reply to 'moves'"):
            ws.command("moves")
        ws.poll_soon()
        time.sleep(0.5)
        gate.opened.set()

        def texts_after_the_players_line():
            texts = [t for _, t in list(ws.log)]
            return texts[max(i for i, t in enumerate(texts) if t == "> moves") + 1:]

        while time.monotonic() < deadline + 15 and not any(
                t.startswith("ok moves") for t in texts_after_the_players_line()):
            time.sleep(0.05)
        after = texts_after_the_players_line()
        assert any(t.startswith("ok moves") for t in after), after
        # The poll took its own answers, not the player's, and kept them out
        # of the log; the line goes on answering each command with its own.
        assert not any(t.startswith("ok state") for t in after), after
        assert ws.command("state").startswith("ok state ")
        assert ws.command("moves").startswith("ok moves")
