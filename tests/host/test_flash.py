"""`make flash` (host_tools.flash) without a board: the on-board helper runs
on the real MicroPython unix port over a folder that stands for the Pico's
flash; writes, skips, stale-file removal and the protected game/settings
files are checked, and the flashed build (compiled for x64 so the unix port
can load its native code) boots, answers hello with the firmware version
and resumes the saved game. What needs the emulated Pico is in
docs/flashing.md ("Tested without a board")."""
import os
import subprocess

import pytest

import host_tools  # noqa: F401
from host_tools import flash
from host_tools.link import ProcessLink

ROOT = flash.ROOT
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")
UNIXBOARD = os.path.join(ROOT, "tests", "unixboard.py")
POS = "....../....../..b1.../....../w2b2..../.....w1 b 0 0"

pytestmark = pytest.mark.skipif(not os.path.exists(MICROPYTHON), reason="no MicroPython unix port in .venv")


class FolderDevice:
    """flash()'s device over a folder: code runs in the MicroPython unix port."""

    def __init__(self, root):
        self.root = root
        self.writes = []
        self.removes = []

    def run(self, code):
        code = code.replace("ROOT='/'", "ROOT=%r" % (self.root + "/"), 1)
        r = subprocess.run([MICROPYTHON, "-c", code], capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stdout + r.stderr
        return r.stdout

    def write_file(self, path, data):
        self.writes.append(path)
        full = os.path.join(self.root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)

    def remove(self, path):
        assert path.split("/")[-1] not in flash.PROTECTED
        self.removes.append(path)
        os.remove(os.path.join(self.root, path))


def test_plan_writes_changed_and_removes_only_our_stale_files():
    local = {"main.py": (b"x", "h1"), "triad/a.mpy": (b"yy", "h2"), "triad/b.mpy": (b"z", "h3")}
    remote = {"main.py": (1, "h1"), "triad/a.mpy": (2, "old"), "triad/b.mpy": None}
    tree = ["triad/a.mpy", "triad/a.py", "triad/old/c.mpy"]
    manifest = ["main.py", "perft.py", "game.log", "settings.txt"]
    write, remove = flash.plan(local, remote, tree, manifest)
    assert write == ["triad/a.mpy", "triad/b.mpy"]
    assert remove == ["perft.py", "triad/a.py", "triad/old/c.mpy"]


def test_the_helper_hashes_like_the_host(tmp_path):
    (tmp_path / "triad").mkdir()
    (tmp_path / "triad" / "x.mpy").write_bytes(b"abc" * 300)
    dev = FolderDevice(str(tmp_path))
    remote, tree, manifest = flash.parse_helper(dev.run(flash.helper_code(["triad/x.mpy", "main.py"])))
    import hashlib

    assert remote["triad/x.mpy"] == (900, hashlib.sha256(b"abc" * 300).hexdigest())
    assert remote["main.py"] is None
    assert tree == ["triad/x.mpy"] and manifest == []


@pytest.fixture(scope="module")
def x64_build(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("fw") / "firmware")
    flash.build(out, march="x64", report=None)
    return out


def _boot(board_dir, seed=3):
    hands = os.path.join(board_dir, "hands.txt")
    open(hands, "a").close()
    env = dict(os.environ, MICROPYPATH=board_dir)
    return ProcessLink([MICROPYTHON, UNIXBOARD, hands, str(seed)], cwd=board_dir, env=env), hands


def test_flash_update_keeps_the_saved_game_and_answers_hello(tmp_path, x64_build):
    board = str(tmp_path / "board")
    os.makedirs(os.path.join(board, "triad"))
    # An older firmware left a source file that would shadow the new .mpy,
    # and the player has a saved game and settings on the board.
    with open(os.path.join(board, "triad", "app.py"), "w") as f:
        f.write("raise ImportError('stale')\n")
    with open(os.path.join(board, "notes.txt"), "w") as f:
        f.write("the user's own file\n")
    dev = FolderDevice(board)
    written, removed = flash.flash(dev, x64_build, report=None)
    assert removed == ["triad/app.py"]
    assert sorted(written) == sorted(flash.local_files(x64_build))
    # the first boot of the new firmware: play a move (a saved game)
    link, hands = _boot(board)
    try:
        assert link.hello() == (flash.firmware_version(), 2)
        assert link.send("position " + POS) == "ok position"
        with open(hands, "a") as f:
            f.write("match\nwait 1000\nlift c4\nplace c2\nwait 1000\nlift b2\n")
        link.wait_event(["move"], 20)
        assert link.send("set brightness 33") == "ok set brightness 33"
    finally:
        link.close()
    saved = {n: open(os.path.join(board, n), "rb").read() for n in os.listdir(board) if n in flash.PROTECTED}
    assert "game.snap" in saved and "settings.txt" in saved
    # an update: one module changed, one stale file of ours in the manifest
    with open(os.path.join(x64_build, "triad", "board", "scan.mpy"), "ab") as f:
        f.write(b"")  # unchanged content: nothing to write
    dev2 = FolderDevice(board)
    written, removed = flash.flash(dev2, x64_build, report=None)
    assert written == [] and removed == []
    assert dev2.writes == [flash.MANIFEST]
    for n, data in saved.items():
        assert open(os.path.join(board, n), "rb").read() == data, n
    assert open(os.path.join(board, "notes.txt")).read() == "the user's own file\n"
    # reset: the board comes back with the saved game and answers hello
    got = flash.check_hello(lambda: _boot(board)[0], flash.firmware_version(), timeout=30, report=lambda s: None)
    assert got == (flash.firmware_version(), 2)
    link, _ = _boot(board)
    try:
        st = link.status()
        assert st["moves"] == ["c4c2xb2"] and st["start"] == POS
        assert st["settings"]["brightness"] == "33"
    finally:
        link.close()


def test_check_hello_refuses_another_version(tmp_path):
    from triad import VERSION

    (tmp_path / "h").write_text("")
    with pytest.raises(flash.FlashError, match="answers version"):
        flash.check_hello(lambda: ProcessLink([MICROPYTHON, UNIXBOARD, str(tmp_path / "h")], cwd=str(tmp_path),
                                              env=dict(os.environ, MICROPYPATH=os.path.join(ROOT, "firmware"))),
                          VERSION + "-other", timeout=20, report=lambda s: None)
