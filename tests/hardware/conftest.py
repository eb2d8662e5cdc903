"""The generated hardware (host_tools/hardware): run by `make test-hardware`
under .venv-hw (Debian's python3 with KiCad 6's pcbnew, SKiDL), which sets
TRIAD_HW=1. A plain `pytest tests` (make test-cpython) leaves this folder out."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

if not os.environ.get("TRIAD_HW"):
    collect_ignore_glob = ["test_*.py"]
