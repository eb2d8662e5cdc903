"""Shared pytest setup: make the firmware tree and tests/fw helpers importable.

`import triad` resolves to firmware/triad (as on the device) and
`import fwtest` resolves to tests/fw/fwtest.py.
"""
import os
import sys

_TESTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(_TESTS)
FIRMWARE = os.path.join(ROOT, "firmware")
FW_TESTS = os.path.join(_TESTS, "fw")

# Appended, not prepended: firmware/ holds main.py, boot.py and code.py,
# which must never shadow CPython's own modules of those names (pdb imports
# `code`).
for _p in (FIRMWARE, FW_TESTS):
    if _p not in sys.path:
        sys.path.append(_p)

# Hypothesis in `make test` draws the same examples every run
# (derandomized): CI's verdict is the code's, never the luck of a draw. The
# random search, with more examples, is `make fuzz`'s (TRIAD_HYPOTHESIS=explore,
# fuzz-hypothesis), where a failure it finds is shrunk and printed to be
# pinned as a plain test.
try:
    from hypothesis import settings as _hsettings
except ImportError:  # pragma: no cover - requirements-dev.txt pins it
    _hsettings = None
if _hsettings is not None:
    _hsettings.register_profile("test", derandomize=True)
    _hsettings.register_profile("explore", derandomize=False)
    _hsettings.load_profile(os.environ.get("TRIAD_HYPOTHESIS", "test"))



# -- the firmware's modules, as tests/fw imported them ---------------------------
# A simulator test (simulator/sim.py) puts the firmware's modules into
# sys.modules afresh, with its own stand-ins for the drivers. A tests/fw
# test that imports a firmware module in its body must get the module its
# file imported at collection (and the real drivers), whatever ran before it
# in this process: with test workers (make test-cpython, xdist) a simulator
# test may run before a tests/fw one (issue 34: test_thinker_cancel patched
# the fresh player module while its thinker used the collected one).
_COLLECTED = {}


def _firmware_module(name):
    return name == "triad" or name.startswith("triad.") or name in ("machine", "neopixel")


def pytest_collection_finish(session):
    _COLLECTED.update((k, v) for k, v in sys.modules.items() if _firmware_module(k))


try:
    import pytest as _pytest
except ImportError:  # pragma: no cover
    _pytest = None

if _pytest is not None:
    @_pytest.fixture(autouse=True)
    def _firmware_modules_as_collected(request):
        if (_COLLECTED and os.sep + os.path.join("tests", "fw") + os.sep in str(request.node.fspath)
                and sys.modules.get("triad") is not _COLLECTED.get("triad")):
            for k in [k for k in sys.modules if _firmware_module(k) and k not in _COLLECTED]:
                del sys.modules[k]
            sys.modules.update(_COLLECTED)
        yield
