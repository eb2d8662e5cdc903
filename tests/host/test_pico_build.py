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
