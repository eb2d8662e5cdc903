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


# -- a game whose moves have several words (Cornelson's turns) -------------------

CORNELSON_TURNS = ["D4 S1-a2 S2-a4 S3-a6", "G2 N1-f2 N2-f4 N3-f6", "C3 a2-a1 a4-a3 a6-a5"]


def test_a_cornelson_record_round_trips_turn_by_turn():
    from host_tools import games

    g = games.load("cornelson")
    rec = records.Record(moves=CORNELSON_TURNS, game=g)
    text = rec.format()
    assert "1. D4 S1-a2 S2-a4 S3-a6\n2. G2 N1-f2 N2-f4 N3-f6\n" in text  # one turn a line
    back = records.parse(text)
    assert back.moves == CORNELSON_TURNS and back.format() == text
    # The same turns as a flat run of words (the `moves` reply, or a record
    # written with several turns a line) group back into turns.
    assert games.group_turns(g, g.parse_position(g.START), " ".join(CORNELSON_TURNS).split()) == CORNELSON_TURNS
    with pytest.raises(records.RecordError, match="moves"):
        records.parse(text.replace("G2 N1-f2", "G2 N1-f3"))
    # A forfeit turn (rule 3.1, "C3!1": one capture of two kept) reads back.
    chain = "..../...../..s.../..n..../sn..../...../.... S:S1,S2,S3 N:N1,N2,N3 s 0 0"
    rec = records.Record(start=chain, moves=["C3!1 S1-a2 S2-a4 S3-a6", "A1 N1-f2 N2-f4 N3-f6"], game=g)
    assert records.parse(rec.format()).moves == rec.moves
    # The recorder, connecting mid-game, gets the moves as words.
    tr = records.Tracker(game=g)
    tr.from_status({"start": g.START, "moves": " ".join(CORNELSON_TURNS).split()})
    assert tr.current.moves == CORNELSON_TURNS


def test_record_and_replay_a_cornelson_game_on_the_simulator(tmp_path):
    # The in-process simulator plays the board of --game (here in a process
    # of its own: the simulator picks its board once per process).
    out = tmp_path / "r"
    script = os.path.join(SCRIPTS, "cornelson", "08_knocked_and_power_cut.txt")
    env = dict(os.environ)
    env.pop("TRIAD_SIM_BOARD", None)
    r = subprocess.run([sys.executable, "-m", "host_tools", "record", "--sim", "--game", "cornelson", "--script",
                        script, "--out", str(out), "--idle", "2"], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    last = sorted(os.listdir(out), key=lambda n: (len(n), n))[-1]  # the game as it stands at the end
    rec = records.load(str(out / last))
    assert rec.moves == CORNELSON_TURNS[:2]
    r = subprocess.run([sys.executable, "-m", "host_tools", "replay", "--sim", str(out / last)], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "the simulated board played the record: 2 moves" in r.stdout


def _capture_mode_turns(n):
    from array import array
    from host_tools import games as hg

    g = hg.load("cornelson")
    pos = g.parse_position(g.START)
    g.apply_setting(pos, "mode", g.SETTING_CHOICES["mode"].index("capture"))
    buf = array("i", bytes(4 * g.MAX_MOVES))
    out = []
    for _ in range(n):
        k = g.gen(pos, buf)
        m = buf[k // 2]
        out.append(g.format_move(pos, m))
        pos.make(m)
    return out


def test_a_record_keeps_the_games_mode_and_the_replay_sets_it(tmp_path):
    # A game of Capture (no jewels) read back under the standard rules was
    # illegal from its first turn: the record carries the rules in a
    # Settings: header, the recorder takes them from the board's status,
    # and the replay sets them before the start position.
    turns = _capture_mode_turns(3)
    rec = records.Record(game="cornelson", moves=turns, settings={"mode": "capture"})
    text = rec.format()
    assert "\nSettings: mode=capture\n" in text
    assert records.parse(text).final() == rec.final()
    with pytest.raises(records.RecordError):
        records.parse(text.replace("Settings: mode=capture\n", ""))
    script = records.to_script(rec)
    assert script.index("serial set mode capture") < script.index("position ")
    path = tmp_path / "capture.txt"
    path.write_text(script)
    out = tmp_path / "r"
    env = dict(os.environ)
    env.pop("TRIAD_SIM_BOARD", None)
    r = subprocess.run([sys.executable, "-m", "host_tools", "record", "--sim", "--game", "cornelson", "--script",
                        str(path), "--out", str(out), "--idle", "2"], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    last = sorted(os.listdir(out), key=lambda n: (len(n), n))[-1]
    back = records.load(str(out / last))
    assert back.settings == {"mode": "capture"} and back.moves == turns


def test_record_with_nothing_played_says_so_and_fails(tmp_path):
    # Nobody moved for the idle time: no file, a line that says why, exit 1
    # (it used to end with 0 as if a record had been written).
    out = tmp_path / "r"
    env = dict(os.environ)
    env.pop("TRIAD_SIM_BOARD", None)
    r = subprocess.run([sys.executable, "-m", "host_tools", "record", "--sim", "--game", "browne", "--idle", "2",
                        "--out", str(out)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "no record written to %s: no move was made in 2 s without an event" % out in r.stderr
    assert not os.listdir(out)


def test_monitor_says_the_boards_diagnosis_in_words(capsys):
    # Issue 35: the monitor says what the page says, from the board's own
    # diagnosis (evt fix): the spots that blink, and when all is right.
    assert main(["monitor", "--sim", "--script", os.path.join(SCRIPTS, "04_illegal_then_corrected.txt"), "--color",
                 "never", "--idle", "2"]) == 0
    out = capsys.readouterr().out
    # (as the page says it, issue 47: the rule's reason, from the position
    # the board's events carry)
    assert ("evt fix empty c3 back c1 fault\n  say: The die from c1 may not stand on c3 (c1 shows 2: a die must "
            "turn, so move it 1 or 3 cells): put it back on c1") in out
    assert "evt fix none\n  say: nothing to put right" in out
