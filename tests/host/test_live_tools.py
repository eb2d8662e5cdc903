"""monitor, record and replay (host_tools.live) against the CPython
simulator, through the same line protocol a real board speaks."""
import os
import subprocess
import sys

import pytest

import host_tools  # noqa: F401
from host_tools import records
from host_tools.__main__ import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RECORDS = os.path.join(ROOT, "tests", "records")
SCRIPTS = os.path.join(ROOT, "tests", "scripts")
SAMPLE = os.path.join(RECORDS, "sample_game.triad")


def test_record_format_round_trips_and_checks_legality(tmp_path):
    rec = records.load(SAMPLE)
    assert rec.black == "Ada" and rec.white == "Brook" and rec.result == "b"
    assert rec.setup == "b:112233 w:112233 start:b"
    assert records.parse(rec.format()).format() == rec.format()
    text = open(SAMPLE).read()
    with pytest.raises(records.RecordError, match="move 1 "):
        records.parse(text.replace("1. f1e2", "1. f1f5"))
    with pytest.raises(records.RecordError, match="Final"):
        records.parse(text.replace("Final: .w1", "Final: w1."))
    with pytest.raises(records.RecordError, match="line 1"):
        records.parse("hello\n")


def test_setup_header_from_a_rolled_start():
    start = "w3w3w2w1w1w1/....../....../....../....../b1b1b1b3b3b3 w 0 0"
    assert records.setup_of_start(start) == "b:111333 w:111233 start:w"


def test_replay_steps_through_a_record(capsys):
    assert main(["replay", SAMPLE, "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert "Ada (Black) vs Brook (White)" in out
    assert "16. f5d3xd4" in out
    assert out.rstrip().endswith("Triads  Black 3  White 2   Black wins")


def test_replay_as_a_simulator_script(tmp_path, capsys):
    assert main(["replay", SAMPLE, "--script"]) == 0
    script = capsys.readouterr().out
    assert script == records.to_script(records.load(SAMPLE))
    p = tmp_path / "game.txt"
    p.write_text(script)
    r = subprocess.run([sys.executable, "-m", "simulator", "script", str(p)], cwd=ROOT, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    rec = records.load(SAMPLE)
    assert r.stdout.splitlines() == ["position: " + rec.final(), "moves: " + " ".join(rec.moves)]


@pytest.mark.parametrize("name", ["sample_game.triad", "note2.triad"])
def test_replay_on_the_simulated_board(name, capsys):
    assert main(["replay", os.path.join(RECORDS, name), "--sim"]) == 0
    assert "the simulated board played the record" in capsys.readouterr().out


def test_record_saves_the_game_the_board_plays(tmp_path, capsys):
    rec = records.load(SAMPLE)
    script = tmp_path / "hands.txt"
    script.write_text(records.to_script(rec))
    out = tmp_path / "records"
    assert main(["record", "--sim", "--script", str(script), "--out", str(out), "--black", "Ada", "--white",
                 "Brook", "--games", "1"]) == 0
    printed = capsys.readouterr().out
    files = sorted(os.listdir(out))
    assert len(files) == 1 and files[0].endswith(".triad"), files
    assert "finished: " in printed
    got = records.load(str(out / files[0]))
    assert got.moves == rec.moves and got.start == rec.start and got.result == "b"
    assert got.black == "Ada" and got.white == "Brook" and got.setup == "-"
    assert got.board.startswith("triad-board ")


def test_record_keeps_a_game_in_progress(tmp_path, capsys):
    out = tmp_path / "r"
    assert main(["record", "--sim", "--script", os.path.join(SCRIPTS, "06_triad_and_removal.txt"), "--out",
                 str(out), "--idle", "2"]) == 0
    assert "in progress" in capsys.readouterr().out
    (name,) = os.listdir(out)
    got = records.load(str(out / name))
    assert got.moves == ["c4c2xb2"] and got.result == "*"


def test_monitor_shows_the_live_game(capsys):
    assert main(["monitor", "--sim", "--script", os.path.join(SCRIPTS, "06_triad_and_removal.txt"), "--color",
                 "never", "--idle", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("triad-board ")
    assert "evt triad c4c2" in out
    assert "evt move c4c2xb2" in out
    assert "evt state remove" in out
    assert "Triads  Black 1  White 0   White to move" in out


def test_monitor_needs_a_board(capsys):
    with pytest.raises(SystemExit, match="say which board"):
        main(["monitor"])


def test_late_reply_to_an_earlier_command_is_not_taken_for_this_one():
    # A hello sent while the board was still booting is answered late; the
    # next command must get its own reply, not that one.
    from host_tools.link import Link

    class Board(Link):
        def write_raw(self, data):
            if data == b"position x\n":
                self._incoming(b"ok hello triad-board 0.1.0 proto 2 game nehren\n")
                self._incoming(b"ok position\n")
            elif data == b"moves\n":
                self._incoming(b"err notation bad\n")
            elif data == b"status\n":
                self._incoming(b"ok hello triad-board 0.1.0 proto 2 game nehren\n")
                self._incoming(b"evt full state play\n")
                self._incoming(b"ok status\n")

    link = Board()
    assert link.send("position x", 1) == "ok position"
    assert link.send("moves", 1) == "err notation bad"  # err replies name no command
    assert link.status(1)["state"] == "play"  # status too (the emulated flash test met it)
