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

for _p in (FW_TESTS, FIRMWARE):
    if _p not in sys.path:
        sys.path.insert(0, _p)
