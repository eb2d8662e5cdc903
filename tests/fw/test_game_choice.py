# A board whose description names several games: the protocol's `game`
# lists and switches them, each keeps its own saved game, and menu held at
# power-up steps to the next game. Over fake pins, CPython and MicroPython.
from test_app_tick import Serial, tmp_dir, rm_tree
from test_scan import World, fresh_rp2, forget_rp2
from triad.boards import hex_v1

BROWNE_MOVE = "E3-H6@C4"
LOADED = "R:C1,D1,D2,E1,E2,E3,F2,F3,G3 G:A3,A4,A5,B4,B5,B6,C5,C6,C7 B:G7,G8,G9,H7,H8,H9,I7,I8,I9 g"


class TwoGames:
    """hex_v1 (61 cells) playing Browne's game and Nehren's (on 36 of them)."""

    def __init__(self):
        for k in dir(hex_v1):
            if not k.startswith("_"):
                setattr(self, k, getattr(hex_v1, k))
        self.GAMES = ("browne", "nehren")


def boot(root, menu_held=False):
    from triad.app import App

    d = TwoGames()
    w = World(d)
    if menu_held:
        w.buttons_down[3] = 1
    rp2 = fresh_rp2(w)
    serial = Serial()
    out = []
    serial.write = out.append
    app = App(d, rp2.Hardware(d), serial, 7, root)
    return app, out


def test_the_protocol_switches_games_and_each_keeps_its_save():
    root = tmp_dir()
    try:
        app, out = boot(root)
        assert app.game.NAME == "browne"
        p = app.protocol
        assert p.execute("game") == "ok game browne (browne nehren)"
        # (Green to move: not the start the board had, which is Red's. Sent
        # and not set out, the game is only in memory: the switch
        # writes it first, docs/store.md.)
        assert p.execute("position " + LOADED) == "ok position"
        assert p.execute("game chess").startswith("err value game is one of browne nehren")
        assert p.execute("game nehren") == "ok game nehren"
        assert app.game.NAME == "nehren" and app.ctl.game.NAME == "nehren"
        assert app.protocol.execute("hello").endswith("game nehren")
        # Back to Browne: its loaded game resumes from its own save.
        assert app.protocol.execute("game browne") == "ok game browne"
        assert app.ctl.record.start_text == LOADED
        # The choice survives a power cut.
        app2, _ = boot(root)
        assert app2.game.NAME == "browne"
    finally:
        forget_rp2()
        rm_tree(root)


def test_menu_held_at_power_up_steps_to_the_next_game():
    root = tmp_dir()
    try:
        app, _ = boot(root)
        assert app.game.NAME == "browne"
        app2, _ = boot(root, menu_held=True)
        assert app2.game.NAME == "nehren"
        app3, _ = boot(root)
        assert app3.game.NAME == "nehren"
    finally:
        forget_rp2()
        rm_tree(root)
