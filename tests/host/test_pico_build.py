"""host_tools/pico_build.py without building: the private apt configuration
takes the machine's mirror, an unreachable mirror is reported as such (exit 3:
make test-pico then skips and says why), and the cache key follows the inputs."""
import os
import shutil

import pytest

import host_tools  # noqa: F401
from host_tools import pico_build


needs_apt = pytest.mark.skipif(not shutil.which("apt-get") or not os.path.isdir("/etc/apt"),
                               reason="not a Debian-like machine")


@needs_apt
def test_mirror_comes_from_the_machines_apt_configuration():
    uri, _key = pico_build.machine_mirror()
    assert uri.startswith(("http://", "https://", "file:", "mirror+"))
    assert "security" not in uri


@needs_apt
def test_unreachable_mirror_is_reported_as_unreachable(tmp_path, monkeypatch):
    # Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    monkeypatch.setattr(pico_build, "machine_mirror", lambda: ("http://127.0.0.1:9/debian", None))
    with pytest.raises(pico_build.Unreachable):
        pico_build.prepare_sources(str(tmp_path))
    # The machine's own apt configuration was not used or touched.
    text = (tmp_path / "apt" / "etc" / "sources.list").read_text()
    assert text.count("http://127.0.0.1:9/debian trixie main") == 2 and "\ndeb-src " in text


def test_cache_key_follows_the_inputs(monkeypatch):
    a = pico_build.inputs_hash(("uf2",))
    assert a == pico_build.inputs_hash(("uf2",))
    assert a != pico_build.inputs_hash(("unix32",))
    monkeypatch.setattr(pico_build, "MICROPYTHON_VERSION", "9.9.9+ds-1")
    assert a != pico_build.inputs_hash(("uf2",))


def _stub_the_compilers(monkeypatch, cache, made):
    """Everything of a build but the compilers: cmake/make 'write' their
    outputs where the real ones do, so the build's own file handling runs
    exactly as on a machine's first build (issue 34)."""
    mp_dir = os.path.join(str(cache), "src", "micropython-stub")

    def fake_run(cmd, **kw):
        made.append(cmd[0])
        if cmd[0] == "make" and "-C" in cmd:
            d = cmd[cmd.index("-C") + 1]
            os.makedirs(d, exist_ok=True)
            if d.endswith("rp2-" + pico_build.BOARD):
                for name, data in (("firmware.elf", b"\x7fELF"), ("frozen_content.c", b"/* */"),
                                   ("firmware.bin", b"\x00" * 600)):
                    with open(os.path.join(d, name), "wb") as f:
                        f.write(data)
            elif d.endswith("ports/unix"):
                exe = os.path.join(d, "build-triad32", "micropython32")
                os.makedirs(os.path.dirname(exe), exist_ok=True)
                with open(exe, "wb") as f:
                    f.write(b"#!/bin/true\n")

    monkeypatch.setenv("TRIAD_BUILD_CACHE", str(cache))
    monkeypatch.setattr(pico_build, "ensure_host_packages", lambda pkgs: None)
    monkeypatch.setattr(pico_build, "prepare_sources", lambda c, need_rp2=True: mp_dir)
    monkeypatch.setattr(pico_build, "build_mpy_cross", lambda d, jobs: None)
    monkeypatch.setattr(pico_build, "run", fake_run)
    monkeypatch.setattr(pico_build, "check_native_alignment", lambda elf, frozen: 0)


def test_first_build_into_an_empty_cache_writes_every_output(tmp_path, monkeypatch):
    # A machine that never built: the cache folder does not even exist yet.
    # (The first `make uf2` used to copy the .elf into the cache's out/
    # before making out/: FileNotFoundError, and `make test` failed.)
    cache = tmp_path / "never-built" / "triad-build"
    made = []
    _stub_the_compilers(monkeypatch, cache, made)
    outs = [str(tmp_path / "build" / "triad-board-pico_v1.uf2"), str(tmp_path / "build" / "triad-board.uf2")]
    pico_build.build_uf2(outs, board="pico_v1")
    assert "cmake" in made and "make" in made  # it did build, not copy a kept image
    kept = pico_build.kept_image("pico_v1")
    for path in outs + [kept + ".uf2", kept + ".elf", kept + ".frozen_content.c"]:
        assert os.path.getsize(path) > 0, path
    with open(outs[0], "rb") as f:
        assert f.read(4) == b"UF2\n"  # the UF2 magic: the converted image, not a copy of the .bin
    exe = str(tmp_path / "build32" / "micropython32")
    pico_build.build_unix32(exe)
    assert os.access(exe, os.X_OK)
    # A second build with the same inputs takes the kept outputs and compiles nothing.
    made.clear()
    pico_build.build_uf2(outs, board="pico_v1")
    pico_build.build_unix32(exe)
    assert made == []


def test_every_board_builds_into_an_empty_cache(tmp_path, monkeypatch):
    _stub_the_compilers(monkeypatch, tmp_path / "cache", [])
    for board in pico_build.boards():
        out = str(tmp_path / "build" / ("triad-board-%s.uf2" % board))
        pico_build.build_uf2([out], board=board)
        assert os.path.getsize(out) > 0
