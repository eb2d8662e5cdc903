"""The board's UF2 on an emulated Pico (rp2040py), and tests/fw under the
32-bit unix port: run by `make test-pico`, which builds build/triad-board.uf2
and build/micropython32 first (host_tools/pico_build.py) and sets TRIAD_PICO=1.
A plain `pytest tests` (make test-cpython) leaves this folder out."""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

if not os.environ.get("TRIAD_PICO"):
    collect_ignore_glob = ["test_*.py"]

UF2 = os.environ.get("TRIAD_UF2", os.path.join(ROOT, "build", "triad-board.uf2"))
MP32 = os.environ.get("TRIAD_MP32", os.path.join(ROOT, "build", "micropython32"))
REPORT = os.path.join(ROOT, "build", "pico-report.txt")

# Figures the tests measure, printed at the end of the run and written to
# build/pico-report.txt (free heap, tick time, emulated time).
FIGURES = {}


def pytest_terminal_summary(terminalreporter):
    if not FIGURES:
        return
    lines = ["%s: %s" % (k, v) for k, v in FIGURES.items()]
    terminalreporter.section("emulated Pico figures")
    for ln in lines:
        terminalreporter.write_line(ln)
    try:
        os.makedirs(os.path.dirname(REPORT), exist_ok=True)
        with open(REPORT, "w") as f:
            f.write("\n".join(lines) + "\n")
    except OSError:
        pass


@pytest.fixture(scope="session")
def figures():
    return FIGURES
