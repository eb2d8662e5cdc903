"""The layers (docs/architecture.md, "The layers"): firmware/ at the bottom,
the simulator above it, the host tools on top (they drive the simulator:
`python -m host_tools live`, the simulated link). An import only ever goes
down: read from the source, function-local imports included."""
import os

import pytest
from test_game_seam import _imports as _imported  # every module an import names

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Each layer and the top-level packages it must not import (those above it).
LAYERS = {
    "firmware": ("simulator", "host_tools"),
    "simulator": ("host_tools",),
}


def _files(top):
    for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        for f in filenames:
            if f.endswith(".py"):
                yield os.path.join(dirpath, f)


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_imports_only_go_down(layer):
    bad = []
    for path in _files(layer):
        for line, mod in _imported(path):
            if mod.split(".")[0] in LAYERS[layer]:
                bad.append("%s:%d imports %s" % (os.path.relpath(path, ROOT), line, mod))
    assert not bad, bad


def test_the_host_tools_do_use_the_simulator():
    # (the check above is about something: the layer above does import it)
    assert any(mod.startswith("simulator") for path in _files("host_tools") for _, mod in _imported(path))
