"""The page's actions (simulator/actions.py) answered in process: each op
the page sends gets an answer, never an exception that drops the page's
request (an import inside the action function once made the module's GAME
unbound for every op but one: the box gave no piece, with no word why)."""
from simulator.web import Running


def test_the_box_gives_a_piece_and_a_wrong_one_is_refused_in_words(tmp_path):
    from simulator.game import GAME

    with Running(state_dir=str(tmp_path), seed=3) as run:
        ws = run.websim
        run.wait_ready()
        side = GAME.SIDES[0]
        label = GAME.LABELS[0] if GAME.LABELS else None
        got = ws.act([{"op": "take", "colour": side, "value": label}])
        assert got["ok"], got
        assert len(ws.frame()["hand"]) == 1  # the piece is in the hand
        bad = ws.act([{"op": "take", "colour": "no such side", "value": None}])
        assert not bad["ok"] and "a piece is one of" in bad["error"], bad
        assert len(ws.frame()["hand"]) == 1  # nothing changed
        assert ws.act([{"op": "button", "name": "hint", "down": True},
                       {"op": "button", "name": "hint", "down": False}])["ok"]
