"""The page's headline and its line in words never say the same thing twice
(issue 35, defect 13: Browne's page wrote the board's move, and the game's
end, in both). simulator/say.py's page_words is what the page and the
script's `say` line show."""
from simulator import say


def frame(**kw):
    f = {"power": True, "state": "play", "side": "r", "names": [], "moves": [], "position": "",
         "opponent": None, "lesson": None}
    f.update(kw)
    return f


def test_the_game_end_is_said_once():
    f = frame(state="over", winner="r", result={"head": "Red wins", "reason": "Blue has no pieces left"})
    head, line, fault = say.page_words(f)
    assert "wins" in head and "no pieces left" in head
    assert "wins" not in line and "no pieces left" not in line, line
    assert "new" in line  # what to do now


def test_the_boards_move_is_named_once():
    f = frame(opponent=["r"], engine_move="E3H6@C4", engine_words="lift E3, put it on H6")
    head, line, fault = say.page_words(f)
    assert "board" in head.lower()
    assert "board plays" not in line.lower() and "board's move" not in line.lower(), line
    assert "carry out its move for it: lift E3, put it on H6 (E3H6@C4)" in line

