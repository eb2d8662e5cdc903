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
