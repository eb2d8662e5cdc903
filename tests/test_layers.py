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


# -- the board's parts: the lights read a small public view of the controller,
# nobody outside it writes its fields (issue 27) -----------------------------

import ast  # noqa: E402

BOARD = os.path.join(ROOT, "firmware", "triad", "board")
# The controller's parts the view reaches into (board/matcher.py's verdict,
# board/seats.py's play, board/game_record.py's game in progress).
PARTS = ("matcher", "seats", "record")
LIGHTS_VIEW_MAX = 25


def _chain(node):
    """'a.b.c' for an attribute chain rooted at a name, else None."""
    names = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    names.append(node.id)
    return ".".join(reversed(names))


def _controller_field(chain, roots):
    """The controller field a chain reads ('state', 'matcher.nxt'), or None
    when it is not rooted at a name standing for the controller (or one of
    its parts: roots maps such names to their prefix)."""
    parts = chain.split(".")
    for k in (2, 1):
        root = ".".join(parts[:k])
        if root in roots and len(parts) > k:
            rest = ([roots[root]] if roots[root] else []) + parts[k:]
            return ".".join(rest[:2] if rest[0] in PARTS else rest[:1])
    return None


def _fields(path, roots):
    """(fields read, places that write one) of the controller in a module."""
    with open(path) as f:
        tree = ast.parse(f.read())
    read, written = set(), []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for t in targets:
            while isinstance(t, ast.Subscript):
                t = t.value  # (a buffer of the controller's written in place)
            c = _chain(t) if isinstance(t, ast.Attribute) else None
            if c and _controller_field(c, roots):
                written.append("%s:%d %s" % (os.path.basename(path), node.lineno, c))
        if isinstance(node, ast.Attribute):
            c = _chain(node)
            f = _controller_field(c, roots) if c else None
            if f:
                read.add(f)
    # (a chain's prefixes are no fields of their own: 'matcher' of 'matcher.nxt')
    read = {f for f in read if not any(g != f and g.startswith(f + ".") for g in read)}
    return read, written


def test_the_lights_read_a_small_public_view_and_write_nothing():
    read, written = _fields(os.path.join(BOARD, "lights.py"), {"ctl": "", "mt": "matcher"})
    assert not written, written
    private = sorted(f for f in read if any(p.startswith("_") for p in f.split(".")))
    assert not private, private
    assert len(read) <= LIGHTS_VIEW_MAX, sorted(read)
    # (the check reads what it should: the state and the matcher's results)
    assert "state" in read and "matcher.nxt" in read and "matcher.expected" in read, sorted(read)


def test_nothing_outside_the_controller_assigns_its_fields():
    mods = ["protocol.py", "lessons.py", "review_mode.py", "sound.py", "lights.py", os.path.join("..", "app.py")]
    bad = []
    for m in mods:
        _, written = _fields(os.path.join(BOARD, m), {"ctl": "", "self.ctl": "", "mt": "matcher"})
        bad += written
    assert not bad, bad


def test_the_view_check_sees_a_write_and_a_private_read(tmp_path):
    # (the two checks above can fail: a module that writes a field and reads
    # a private one is caught)
    p = tmp_path / "m.py"
    p.write_text("def f(ctl):\n    ctl.matcher.nxt[0] = 1\n    return ctl._rest + ctl.record.history[0]\n")
    read, written = _fields(str(p), {"ctl": ""})
    assert written and "_rest" in read and "record.history" in read


def test_the_controller_stays_the_turn_machine():
    # It grew back to 466 lines once after its split (issue 47.6): a job of
    # its own goes to a module of its own, named for it (board/presses.py:
    # the buttons), not packed into fewer lines.
    with open(os.path.join(BOARD, "controller.py")) as f:
        n = len(f.read().splitlines())
    assert n < 450, "controller.py has %d lines: give a job its own module" % n
