# The controller knows no game: driven here by tests/fw/tinygame.py (three
# sides, three sites, a hidden spin picked on the buttons) and a board of
# three sides' status LEDs. Runs under CPython and MicroPython.
import tinygame
from triad.games import face

G = face.fill(tinygame)  # as triad.games.load() hands a game to the board
from triad.board import controller as C
from triad.board import palette as pal
from siterig import SiteRig


class Board:
    N_SITES = 3
    N_STATUS = 6
    STATUS_TURN = bytes((0, 1, 2))
    STATUS_SCORE = (bytes((3,)), bytes((4,)), bytes((5,)))


class Rig(SiteRig):
    def __init__(self, position=G.START):
        SiteRig.__init__(self, G, Board, position)

    def seen_over(self, slot, ms):
        out = []
        end = self.now + ms
        while self.now < end:
            self.wait(10)
            c = self.slot(slot)
            if c not in out:
                out.append(c)
        return out


def test_three_sides_take_turns_and_the_turn_light_follows():
    rig = Rig()
    assert rig.ctl.state == C.PLAY
    assert rig.slot(3 + 0) == pal.TURN  # side x's turn LED (status slot 0)
    rig.set(0, 0)  # lift the token from p
    assert rig.slot(0) == pal.SOURCE
    assert rig.slot(1) == G.ROLE_RGB[2] and rig.slot(2) == G.ROLE_RGB[2]  # where it may go
    rig.set(2, 1, 1500)  # put it on r
    assert rig.ctl.record.moves_text() == "pr"
    assert rig.ctl.pos.side == 1
    assert rig.slot(3 + 1) == pal.TURN and rig.slot(3 + 0) == (0, 0, 0)
    rig.set(2, 0)
    rig.set(1, 1, 1500)
    assert rig.ctl.pos.side == 2 and rig.ctl.record.moves_text() == "pr rq"


def test_a_hidden_spin_is_picked_on_the_buttons():
    rig = Rig()
    rig.set(0, 0, 100)
    rig.set(0, 1, 100)  # lifted and put back: a spin, but red or blue?
    assert rig.ctl.state == C.CHOOSE
    assert G.ROLE_RGB[0] in rig.seen_over(0, 1500)
    rig.press(C.BTN_MENU)
    assert G.ROLE_RGB[1] in rig.seen_over(0, 1500)
    rig.press(C.BTN_CONFIRM)
    rig.wait(50)
    assert rig.ctl.record.moves_text() == "spinb"
    assert rig.ctl.pos.spins[0] == 1
    assert rig.slot(3 + 3) == pal.STATUS_ON  # x's score LED (status slot 3)


def test_a_wrong_site_is_an_error_and_nothing_commits():
    rig = Rig()
    rig.set(1, 1, 2000)  # an object on q while the token stays on p
    assert rig.ctl.record.moves_text() == "" and rig.ctl.errors == 1
    assert pal.ERROR in rig.seen_over(1, 600)
    rig.set(1, 0, 1500)
    assert rig.ctl.state == C.PLAY


def test_the_game_ends_with_its_winner():
    rig = Rig("p z 022 0")  # four turns played: z moves, then the fifth ends it
    rig.set(0, 0, 100)
    rig.set(0, 1, 100)
    rig.press(C.BTN_CONFIRM)
    rig.wait(50)
    assert rig.ctl.state == C.OVER
    assert ("over", "z") in rig.events.seen


def test_the_board_plays_a_seat_of_three():
    rig = Rig()
    rig.ctl.seats.set_opponent(0)  # the board plays x: its quick move is the last one, spin blue
    rig.wait(50)
    assert rig.ctl.engine_move
    rig.set(0, 0, 100)
    rig.set(0, 1, 1000)  # one outcome is allowed: no choice to make
    assert rig.ctl.record.moves_text() == "spinb"
