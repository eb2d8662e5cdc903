"""The simulator script contract of issue 17: `flashfail <n>`, two presses in
a row, and `wait` in ASCII digits only. (tests/scripts/12_flashfail.txt, run
by test_sim_scripts.py, is the issue's six-move scenario.)"""
import pytest

from simulator.script import ScriptError, parse, run_file

START = "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0"
SIX = [("c1", "c4"), ("a6", "a4"), ("d1", "c2"), ("d6", "d3"), ("c4", "b4"), ("c6", "f3")]
SIX_MOVES = "c1c4 a6a4 d1c2 d6d3 c4b4 c6f3"
SIX_POSITION = ".w3..w1w1/....../w2b1..../...w3.w3/..b1.../b1b1..b3b3 b 0 0"


def _script(tmp_path, text):
    p = tmp_path / "s.txt"
    p.write_text(text)
    return str(p)


def _six(fail_before, n, cut_after=None):
    lines = ["position " + START]
    for i, (a, b) in enumerate(SIX):
        if i == fail_before:
            lines.append("flashfail %d" % n)
        lines += ["lift " + a, "place " + b, "wait 3000"]
        if cut_after == i:
            lines += ["powercut 500", "wait 3000"]
    lines += ["powercut 500", "wait 3000"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("fail_before,n", [(2, 1), (2, 3), (0, 2)])
def test_flashfail_then_power_cut_resumes_every_move(tmp_path, fail_before, n):
    out = []
    position, moves = run_file(_script(tmp_path, _six(fail_before, n)), out=out.append)
    assert moves == SIX_MOVES and position == SIX_POSITION


def test_the_last_move_unsaved_is_reported_then_written_again(tmp_path):
    # The sixth move's write fails: the board says so at once, writes the
    # whole game again two seconds later by itself, says it is safe, and
    # after the power cut all six moves resume.
    out = []
    position, moves = run_file(_script(tmp_path, _six(5, 1)), verbose=True, out=out.append)
    assert moves == SIX_MOVES
    said = [ln for ln in out if "evt error not saved" in ln]
    assert len(said) == 1 and out.index(said[0]) > out.index("# evt move c4b4")
    unsaved = [i for i, ln in enumerate(out) if ln.startswith("# evt unsaved")]
    safe = [i for i, ln in enumerate(out) if ln.startswith("# evt saved")]
    assert unsaved and safe and unsaved[0] < safe[-1]


def test_flashfail_reports_the_unsaved_move_and_a_cut_loses_only_that(tmp_path):
    # Three failing writes: move 3's append, then move 4's snapshot; the
    # power is cut before move 5, so moves 3 and 4 (both reported) are lost
    # or not, but never anything the board did not report.
    from simulator.script import run
    from simulator.sim import Simulation

    text = "\n".join([
        "position " + START,
        "lift c1", "place c4", "wait 3000",
        "lift a6", "place a4", "wait 3000",
        "flashfail 5",
        "lift d1", "place c2", "wait 3000",
        "lift d6", "place d3", "wait 3000",
    ]) + "\n"
    sim = Simulation(seed=1)
    try:
        sim.boot()
        run(sim, parse(text))
        errors = [ln for ln in sim.lines if ln.startswith("evt error not saved")]
        assert len(errors) == 2, sim.lines  # moves 3 and 4, each reported
        run(sim, parse("powercut 500\nwait 3000\n"))
        assert sim.moves() == "c1c4 a6a4"  # what the board said was saved
    finally:
        sim.shutdown()


def test_two_presses_in_a_row_are_two_presses(tmp_path):
    text = "\n".join([
        "position ....../....../....../w1w1..../.w1..../b1w1.... b 0 0",
        "lift a1", "wait 500", "place a1", "wait 1000",
        "press menu", "press menu", "press confirm", "wait 1000",
    ]) + "\n"
    # Note 2 values cycle 2 -> 3 -> 2 (skipping the die's own 1): two steps.
    assert run_file(_script(tmp_path, text), out=lambda s: None)[1] == "a1=2"


@pytest.mark.parametrize("line", ["wait \u0663", "wait 1\u0660", "powercut \u0664", "flashfail \u0661",
                                  "wait -1", "wait 1.5", "flashfail", "flashfail x", "wait \uff13"])
def test_numbers_are_ascii_digits_only(line):
    with pytest.raises(ScriptError) as e:
        parse("position %s\n%s\n" % (START, line))
    assert "line 2" in str(e.value) and "ASCII digits" in str(e.value)


def test_flashfail_parses():
    assert parse("flashfail 3\n") == [(1, "flashfail", 3)]


def test_the_page_is_told_when_a_move_is_not_saved_and_when_it_is_again(tmp_path):
    # Issue 17: the simulator page says when the game is not safely saved
    # (the frame's "unsaved"), and clears it once the board wrote it again.
    import time

    from simulator.hardware import FlashFaults
    from simulator.web import Running

    with Running(state_dir=str(tmp_path), seed=3) as run:
        ws = run.websim
        run.wait_ready()
        deadline = time.monotonic() + 30
        assert ws.act([{"op": "position", "text": START}])["ok"]
        while ws.fw.get("state") != "play" and time.monotonic() < deadline:
            ws._poll_now.set()
            time.sleep(0.1)
        FlashFaults.of(ws.sim).arm(1)
        assert ws.act([{"op": "lift", "cell": "c1"}, {"op": "place", "cell": "c4"}])["ok"]
        seen = None
        while time.monotonic() < deadline:
            f = ws.frame()
            if f.get("unsaved"):
                seen = f["unsaved"]
                break
            time.sleep(0.05)
        assert seen, "the page was never told the move is not saved"
        while ws.frame().get("unsaved") and time.monotonic() < deadline + 10:
            time.sleep(0.1)
        assert ws.frame().get("unsaved") is None
        # (The page's own poller asks the board; its answer names the move.)
        while "c1c4" not in ws.fw.get("moves", []) and time.monotonic() < deadline + 20:
            ws._poll_now.set()
            time.sleep(0.1)
        assert "c1c4" in ws.fw.get("moves", [])


@pytest.mark.parametrize("damage", ["delete", "empty", "scrawl"])
def test_a_lost_move_log_is_said_on_serial_and_by_a_light(damage):
    # Issue 23, case 8: two moves in the log, the power cut, the log deleted,
    # emptied or its header damaged: the board resumes the snapshot (move 0)
    # and says so (evt error: what was kept, what was lost), and its turn
    # LEDs blink red fast until a button is pressed.
    import os

    from simulator.game import DESC
    from simulator.script import run
    from simulator.sim import Simulation

    sim = Simulation(seed=1)
    try:
        sim.boot()
        run(sim, parse("position %s\nlift c1\nplace c4\nwait 3000\nlift a6\nplace a4\nwait 3000\n" % START))
        assert sim.moves() == "c1c4 a6a4"
        sim.power_cut()
        log = os.path.join(sim.state_dir, "game.log")
        if damage == "delete":
            os.remove(log)
        else:
            with open(log, "r+b") as f:
                data = f.read()
                f.seek(0)
                f.truncate()
                if damage == "scrawl":
                    f.write(b"L 77 0 0000" + data[data.index(b"\n"):])
        sim.boot()
        sim.run(1500)
        said = [ln for ln in sim.lines if ln.startswith("evt error saved game:")]
        assert len(said) == 1, sim.lines
        assert "kept the 0 moves" in said[0] and "after move 0 are lost" in said[0]
        assert sim.moves() == ""
        base = DESC.N_SITES
        turn = [base + s for s in DESC.STATUS_TURN]
        seen = set()
        for _ in range(8):
            sim.run(130)
            seen.add(tuple(sim.leds()[i] for i in turn))
        def red(frame):
            return all(c[0] > 0 and c[1] == 0 and c[2] == 0 for c in frame)

        assert any(red(frame) for frame in seen), seen
        # A button press: seen; the blinking stops.
        sim.press("menu")
        seen = set()
        for _ in range(8):
            sim.run(130)
            seen.add(tuple(sim.leds()[i] for i in turn))
        assert not any(red(frame) for frame in seen), seen
    finally:
        sim.shutdown()


def _turn_leds_blink_red(sim):
    from simulator.game import DESC

    turn = [DESC.N_SITES + s for s in DESC.STATUS_TURN]
    seen = set()
    for _ in range(8):
        sim.run(130)
        seen.add(tuple(sim.leds()[i] for i in turn))
    return any(all(c[0] > 0 and c[1] == 0 and c[2] == 0 for c in frame) for frame in seen)


def test_a_damaged_settings_file_is_said_by_name_on_serial_page_and_light():
    # Issue 36: a damaged settings file silently reset every setting, the
    # seats the board plays included. It is said (evt error naming each
    # setting now at its default), on the page, and by the turn LEDs.
    import os

    from simulator.script import run
    from simulator.sim import Simulation
    from simulator.tracking import Tracker

    sim = Simulation(seed=1)
    try:
        sim.boot()
        run(sim, parse("position %s\nserial set opponent w\nserial set level 2\nwait 1500\n" % START))
        sim.power_cut()
        path = os.path.join(sim.state_dir, "settings.txt")
        data = bytearray(open(path, "rb").read())
        data[5] ^= 0x10  # one bit flipped: the CRC fails
        open(path, "wb").write(bytes(data))
        sim.boot()
        sim.run(1500)
        said = [ln for ln in sim.lines if ln.startswith("evt error settings not read")]
        assert len(said) == 1, sim.lines
        for word in ("opponent=off", "level=3", "brightness=64", "note2-triads=on", "sound=off"):
            assert word in said[0], said[0]
        assert sim.send("get opponent") == "ok get opponent off"
        assert _turn_leds_blink_red(sim)
        page = Tracker()
        for ln in sim.lines:
            if ln.startswith("evt "):
                page.on_event(ln[4:], None)
        assert page.ev["lost"] == said[0][len("evt error "):]
        sim.press("menu")
        assert not _turn_leds_blink_red(sim)
    finally:
        sim.shutdown()


def test_a_missing_snapshot_is_said_and_the_game_rebuilt_from_its_log():
    # Issue 36: the snapshot deleted, the move log still there: the board
    # started a new game without a word. The log holds the game (it begins
    # at its first move): resumed from the start's copy and the log, said.
    import os

    from simulator.script import run
    from simulator.sim import Simulation

    sim = Simulation(seed=1)
    try:
        sim.boot()
        run(sim, parse("position %s\nlift c1\nplace c4\nwait 3000\nlift a6\nplace a4\nwait 3000\n" % START))
        assert sim.moves() == "c1c4 a6a4"
        sim.power_cut()
        os.remove(os.path.join(sim.state_dir, "game.snap"))
        sim.boot()
        sim.run(1500)
        said = [ln for ln in sim.lines if ln.startswith("evt error saved game:")]
        assert said == ["evt error saved game: snapshot missing: the game rebuilt from its start and its move log "
                        "(2 moves)"], sim.lines
        assert sim.moves() == "c1c4 a6a4"
        assert sim.state()[0] == "play"
        assert _turn_leds_blink_red(sim)
    finally:
        sim.shutdown()


@pytest.mark.parametrize("gone,damaged,said_", [
    (("game.snap",), "game.start",
     "snapshot missing: its move log begins at move 1 and the game's start copy is damaged (checksum); not resumed"),
    (("game.snap", "game.log"), None, "snapshot missing: its move log missing; not resumed"),
])
def test_a_game_lost_with_its_start_copy_or_its_log_is_said(gone, damaged, said_):
    # Issue 47.5: the snapshot missing and the start copy damaged, or the
    # log gone too: the board dealt a new game without a word. It is said on
    # the serial line, on the page and by the turn LEDs.
    import os

    from simulator.script import run
    from simulator.sim import Simulation
    from simulator.tracking import Tracker

    sim = Simulation(seed=1)
    try:
        sim.boot()
        run(sim, parse("position %s\nlift c1\nplace c4\nwait 3000\n" % START))
        assert sim.moves() == "c1c4"
        sim.power_cut()
        for name in gone:
            os.remove(os.path.join(sim.state_dir, name))
        if damaged:
            path = os.path.join(sim.state_dir, damaged)
            data = bytearray(open(path, "rb").read())
            data[12] ^= 0x20
            open(path, "wb").write(bytes(data))
        sim.boot()
        sim.run(1500)
        said = [ln for ln in sim.lines if ln.startswith("evt error saved game:")]
        assert said == ["evt error saved game: " + said_], sim.lines
        assert _turn_leds_blink_red(sim)
        page = Tracker()
        for ln in sim.lines:
            if ln.startswith("evt "):
                page.on_event(ln[4:], None)
        assert page.ev["lost"].startswith("saved game: " + said_), page.ev["lost"]
    finally:
        sim.shutdown()
