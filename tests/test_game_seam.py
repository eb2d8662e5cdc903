"""The game seam (docs/architecture.md): outside firmware/triad/games/, no
product file names a particular game's package; `triad.games.load` is the
only way to a game. Checked over the firmware, the simulator (its page
included) and the host tools, by reading their source."""
import ast
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PRODUCT = ("firmware", "simulator", "host_tools")
GAMES_DIR = os.path.join(ROOT, "firmware", "triad", "games")
GAME_NAMES = sorted(n for n in os.listdir(GAMES_DIR) if os.path.isdir(os.path.join(GAMES_DIR, n)) and not n.startswith("_"))
# A module path that reaches into a game's package.
REACH = re.compile(r"\btriad\.games\.(%s)\b|\bgames[/.](%s)\b" % ("|".join(GAME_NAMES), "|".join(GAME_NAMES)))


def _product_files():
    for top in PRODUCT:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            if os.path.commonpath([dirpath, GAMES_DIR]) == GAMES_DIR:
                continue
            for f in filenames:
                if f.endswith((".py", ".js", ".html")):
                    yield os.path.join(dirpath, f)


def _imports(path):
    """Every module an import statement names (the 'from' modules and the
    names imported from `triad.games`)."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield node.lineno, a.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.lineno, node.module
            if node.module == "triad.games":
                for a in node.names:
                    yield node.lineno, "triad.games." + a.name


def test_there_are_games_to_guard():
    assert "nehren" in GAME_NAMES


@pytest.mark.parametrize("path", sorted(_product_files()), ids=lambda p: os.path.relpath(p, ROOT))
def test_no_product_file_outside_the_games_names_a_game(path):
    bad = []
    if path.endswith(".py"):
        for line, mod in _imports(path):
            if REACH.search(mod):
                bad.append("line %d imports %s" % (line, mod))
    with open(path, encoding="utf-8") as f:
        for n, text in enumerate(f, 1):
            if REACH.search(text):
                bad.append("line %d: %s" % (n, text.strip()[:80]))
    assert not bad, "%s names a particular game (use triad.games.load):\n%s" % (os.path.relpath(path, ROOT), "\n".join(bad))


def test_the_checker_finds_a_reach_into_a_game(tmp_path):
    p = tmp_path / "x.py"
    p.write_text("from triad.games.nehren import core\n")
    assert any(REACH.search(m) for _, m in _imports(str(p)))
    p.write_text("from triad.games import nehren\n")
    assert any(REACH.search(m) for _, m in _imports(str(p)))
    p.write_text("from triad import games\ng = games.load('nehren')\n")
    assert not any(REACH.search(m) for _, m in _imports(str(p)))
