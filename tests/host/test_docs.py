"""The docs say what the firmware does (issue 16.10): the README's example
move is legal in its own start position, docs/protocol.md names every
setting, event and state the board sends, and each game has a rules card."""
import os
import re
from array import array

import pytest

from triad import games
from host_tools import games as host_games

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def read(name):
    with open(os.path.join(ROOT, name), encoding="utf-8") as f:
        return f.read()


def legal(G, pos):
    buf = array("i", bytes(4 * G.MAX_MOVES))
    return {G.format_move(pos, buf[k]) for k in range(G.gen(pos, buf, 0))}


def test_readme_example_moves_are_legal_in_its_start_position():
    G = games.load("nehren")
    text = read("README.md")
    section = text[text.index("## Notation"):]
    start = re.search(r"```\n(\S+ [bw] \d \d)\n```", section).group(1)
    pos = G.parse_position(start)
    moves = re.search(r"Moves: `(\w+)`.*?`(\w+)` with the removal", section, re.S)
    plain, with_removal = moves.group(1), moves.group(2)
    assert plain in legal(G, pos), (plain, start)
    # The removal example uses the same die's move.
    assert with_removal.startswith(plain + "x")


def test_protocol_doc_names_every_setting_event_and_state():
    doc = read("docs/protocol.md")
    for words in ("`opponent`", "`level`", "`evt think <move>`", "`evt saved", "`evt unsaved",
                  "`evt notice", "game <game>", "sides bw", "draw repetition"):
        assert words in doc, words
    assert "later version" not in doc  # note2-triads is read by the rules core now
    for name in games.NAMES:
        G = games.load(name)
        for phase in G.PHASE_NAMES:
            assert "`%s`" % phase in doc, (name, phase)


def test_protocol_doc_lists_the_settings_the_board_reports():
    from triad.board import protocol

    doc = read("docs/protocol.md")
    for wire, _ in protocol.BOARD_SETTINGS + protocol.BOARD_SETTINGS_AFTER:
        assert "| `%s` |" % wire in doc, wire


@pytest.mark.parametrize("name", games.NAMES)
def test_every_game_has_a_rules_card(name):
    G = games.load(name)
    rules = host_games.words(G, "RULES", "")
    assert rules and "0.8 s" in rules and len(rules) < 1200


def test_nehrens_rules_card_covers_the_game():
    rules = host_games.words(games.load("nehren"), "RULES")
    for words in ("straight line", "never", "Triad", "both colours", "all the same value",
                  "all different", "off the board", "three Triads", "Note 2", "third time", "200 moves"):
        assert words in rules, words
    assert "Note 2" in read("README.md") and "Rules of Nehren's Triad" in read("README.md")


def _face_table_names():
    """The names in the first column of docs/architecture.md's face table."""
    import re

    doc = read("docs/architecture.md")
    sec = doc[doc.index("## The game face"):doc.index("## How the controller")]
    sec = sec[sec.index("| name | what |"):]
    names = set()
    for line in sec.splitlines()[2:]:
        if not line.startswith("|"):
            break
        names |= set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)", line.split("|")[1]))
    return names


def test_the_face_table_is_the_face():
    from triad.games import face

    assert _face_table_names() == set(face.NAMES)


def test_every_game_states_every_name_of_the_face_with_one_type():
    from triad.games import face

    loaded = [games.load(name) for name in games.NAMES]
    for name in face.NAMES:
        values = [getattr(G, name) for G in loaded]
        kinds = {"callable" if callable(v) else type(v).__name__ for v in values if v is not None}
        # One type per name; a hook may be None only where its default is None.
        assert len(kinds) == 1, (name, kinds)
        if name in face.DEFAULTS and face.DEFAULTS[name] is not None:
            assert None not in values, name
        if name in face.REQUIRED:
            assert None not in values, name


def test_a_game_without_a_required_name_is_refused_by_name():
    import types

    from triad.games import face

    fake = types.ModuleType("fake")
    fake.NAME = "fake"
    with pytest.raises(ImportError, match="TITLE"):
        face.fill(fake)
    assert not hasattr(fake, "LESSONS")  # changed nothing


def test_outcome_text_takes_the_draw_in_every_game():
    for name in games.NAMES:
        G = games.load(name)
        pos = G.parse_position(G.START)
        assert G.outcome_text(pos, 0) == G.outcome_text(pos) == ""
