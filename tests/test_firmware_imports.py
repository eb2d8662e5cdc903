"""Every firmware module must import on the real MicroPython unix port, and
firmware source must not depend on CPython-only stdlib modules.

Each firmware module is imported in a fresh `micropython` process with
MICROPYPATH pointing at firmware/ (cwd = firmware/, like the device's root).
Top-level scripts that do work on import (main.py, boot.py, perft.py, and
CircuitPython's code.py) are not imported. Modules under firmware/triad/drivers/ that need real hardware may opt
out with a line `# needs: hardware` at column 0; nowhere else is that honoured.
"""
import ast
import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
DRIVERS = os.path.join(FIRMWARE, "triad", "drivers")

# Top-level scripts that run on import.
SCRIPTS = {"main.py", "boot.py", "perft.py", "code.py"}

FORBIDDEN = {
    "typing", "dataclasses", "enum", "abc", "functools", "itertools",
    "pathlib", "argparse", "logging",
}

HARDWARE_MARKER = re.compile(r"^# needs: hardware[ \t]*$", re.M)
IMPORT_GUARDS = {"ImportError", "ModuleNotFoundError"}


def _firmware_files():
    """All .py files under firmware/, as paths relative to firmware/."""
    out = []
    if not os.path.isdir(FIRMWARE):
        return out
    for dirpath, dirnames, filenames in os.walk(FIRMWARE):
        dirnames[:] = sorted(d for d in dirnames
                             if d != "__pycache__" and not d.startswith("."))
        for fn in sorted(filenames):
            if fn.endswith(".py"):
                out.append(os.path.relpath(os.path.join(dirpath, fn), FIRMWARE))
    return out


def _module_name(rel):
    parts = rel[:-3].split(os.sep)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


FILES = _firmware_files()
MODULES = [(_module_name(rel), rel) for rel in FILES
           if not (os.sep not in rel and rel in SCRIPTS)]


def _find_micropython():
    env = os.environ.get("MICROPYTHON")
    if env:
        return env
    cand = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.access(cand, os.X_OK):
        return cand
    return shutil.which("micropython")


@pytest.fixture(scope="module")
def micropython():
    exe = _find_micropython()
    if not exe:
        pytest.fail("micropython binary not found (run `make venv`, or set "
                    "MICROPYTHON=/path/to/micropython)")
    return exe


def test_firmware_package_present():
    assert os.path.isfile(os.path.join(FIRMWARE, "triad", "__init__.py")), \
        "firmware/triad/__init__.py missing"
    assert any(name.startswith("triad.") for name, _ in MODULES), \
        "no modules found under firmware/triad/"


@pytest.mark.parametrize("name,rel", MODULES, ids=[m[0] for m in MODULES])
def test_imports_under_micropython(micropython, name, rel):
    path = os.path.join(FIRMWARE, rel)
    with open(path, encoding="utf-8") as f:
        src = f.read()
    if HARDWARE_MARKER.search(src):
        if path.startswith(DRIVERS + os.sep):
            pytest.skip("marked '# needs: hardware'")
        pytest.fail("'# needs: hardware' is only allowed under "
                    "firmware/triad/drivers/ (found in %s)" % rel)
    env = dict(os.environ)
    mpath = [FIRMWARE]
    if os.path.isdir(os.path.join(FIRMWARE, "lib")):
        mpath.append(os.path.join(FIRMWARE, "lib"))
    env["MICROPYPATH"] = os.pathsep.join(mpath)
    proc = subprocess.run(
        [micropython, "-c", "import %s\nprint('IMPORT-OK')" % name],
        cwd=FIRMWARE, env=env, capture_output=True, text=True, timeout=60,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "IMPORT-OK" in proc.stdout, \
        "micropython failed to import %s (rc=%s):\n%s" % (name, proc.returncode, out)


def _guarded(stack):
    """True if some enclosing try body has an ImportError handler."""
    for node, field in reversed(stack):
        if isinstance(node, ast.Try) and field == "body":
            for h in node.handlers:
                t = h.type
                names = t.elts if isinstance(t, ast.Tuple) else [t]
                for n in names:
                    if isinstance(n, ast.Name) and n.id in IMPORT_GUARDS:
                        return True
    return False


def _forbidden_imports(src, filename):
    tree = ast.parse(src, filename)
    bad = []

    def visit(node, stack):
        mods = []
        if isinstance(node, ast.Import):
            mods = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            mods = [node.module]
        for m in mods:
            if m.split(".")[0] in FORBIDDEN and not _guarded(stack):
                bad.append("line %d: %s" % (node.lineno, m))
        for field, value in ast.iter_fields(node):
            children = value if isinstance(value, list) else [value]
            for child in children:
                if isinstance(child, ast.AST):
                    visit(child, stack + [(node, field)])

    visit(tree, [])
    return bad


@pytest.mark.parametrize("rel", FILES, ids=FILES)
def test_no_cpython_only_imports(rel):
    path = os.path.join(FIRMWARE, rel)
    with open(path, encoding="utf-8") as f:
        src = f.read()
    bad = _forbidden_imports(src, path)
    assert not bad, "%s imports CPython-only modules outside try/except " \
        "ImportError: %s" % (rel, ", ".join(bad))


def test_forbidden_import_scanner():
    """The scanner itself: catches plain imports, honours ImportError guards."""
    assert _forbidden_imports("import os, typing\n", "x") == ["line 1: typing"]
    assert _forbidden_imports("from enum import Enum\n", "x") == ["line 1: enum"]
    assert _forbidden_imports("def f():\n    import functools\n", "x") == \
        ["line 2: functools"]
    guarded = ("try:\n    from typing import List\n"
               "except ImportError:\n    pass\n")
    assert _forbidden_imports(guarded, "x") == []
    guarded2 = ("try:\n    import abc\n"
                "except (ValueError, ModuleNotFoundError):\n    abc = None\n")
    assert _forbidden_imports(guarded2, "x") == []
    wrong_guard = "try:\n    import logging\nexcept Exception:\n    pass\n"
    assert _forbidden_imports(wrong_guard, "x") == ["line 2: logging"]
    in_handler = ("try:\n    import os\n"
                  "except ImportError:\n    import itertools\n")
    assert _forbidden_imports(in_handler, "x") == ["line 4: itertools"]
    assert _forbidden_imports("from . import enum\nimport enumx\n", "x") == []
