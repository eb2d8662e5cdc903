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


# -- the emulator runs in subprocesses, two at a time -------------------------
# A script on the emulated chip is one CPU-bound subprocess (rp2040py runs
# one core of the machine flat out). Tests that give their subprocess a
# `background` attribute (a function of the test's parameters that returns
# (weight, callable)) have it started as soon as the session's tests are
# known, JOBS at a time, heaviest first, while the tests in this process run;
# the test then waits for its own result (background_result). On the 2-core
# CI machine that runs the HIL scripts and the stack measure on both cores
# beside the in-process emulator tests. The emulated runs are exactly
# repeatable, so a busy machine changes their wall time, never their output.
JOBS = int(os.environ.get("TRIAD_PICO_JOBS") or min(2, os.cpu_count() or 1))
_POOL = None
_JOBS = {}


def _waits_for_background(item):
    return (getattr(getattr(item, "function", None), "background", None) is not None
            or getattr(getattr(item, "module", None), "BACKGROUND", None) is not None)


def pytest_collection_modifyitems(session, config, items):
    """The tests that wait for a background job run last: this process does
    its own emulated tests first, while the pool runs the jobs, instead of
    waiting for a job it could have run beside."""
    items[:] = [i for i in items if not _waits_for_background(i)] + [i for i in items if _waits_for_background(i)]


def pytest_collection_finish(session):
    global _POOL
    if session.config.option.collectonly:
        return
    todo = []
    modules = set()
    for item in session.items:
        start = getattr(getattr(item, "function", None), "background", None)
        if start is not None:
            callspec = getattr(item, "callspec", None)
            weight, job = start(**(callspec.params if callspec else {}))
            todo.append((-weight, len(todo), item.nodeid, job))
        # A module whose tests share one emulated run (a module fixture)
        # names it BACKGROUND = (weight, callable): started once.
        mod = getattr(item, "module", None)
        start = getattr(mod, "BACKGROUND", None)
        if start is not None and mod not in modules:
            modules.add(mod)
            todo.append((-start[0], len(todo), _module_key(mod), start[1]))
    if not todo:
        return
    from concurrent.futures import ThreadPoolExecutor

    _POOL = ThreadPoolExecutor(max_workers=JOBS, thread_name_prefix="pico-job")
    for _, _, nodeid, job in sorted(todo):
        _JOBS[nodeid] = _POOL.submit(job)


def pytest_sessionfinish(session):
    if _POOL is not None:
        _POOL.shutdown(wait=True, cancel_futures=True)


def _module_key(mod):
    return "module:" + mod.__name__


@pytest.fixture(scope="module")
def module_background(request):
    """The result of the module's BACKGROUND job (started at collection),
    waited for; run here when it was not started."""
    fut = _JOBS.get(_module_key(request.module))
    return request.module.BACKGROUND[1]() if fut is None else fut.result()


@pytest.fixture
def background_result(request):
    """The result of this test's background job (started at collection),
    waited for; or, when it was not started (the test run some other way),
    run here."""
    def get():
        fut = _JOBS.get(request.node.nodeid)
        if fut is None:
            callspec = getattr(request.node, "callspec", None)
            _, job = request.function.background(**(callspec.params if callspec else {}))
            return job()
        return fut.result()
    return get
