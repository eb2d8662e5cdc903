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

