# What a press of each of the board's four buttons does, in each of the
# turn machine's states (board/controller.py calls press() from its tick
# when the scan reports a button event). It is the controller's own part:
# it changes the controller's state as the tick does (CHOOSE -> PLAY, the
# self-test in and out, a new game), so it is not one of the modules that
# only read the controller (tests/test_layers.py); its own module because
# what the buttons mean is a job of its own, told in one place.
from triad.compat import const, ticks_add
from triad.board.states import PLAY, OVER, CHOOSE, SELFTEST
from triad.board.states import BTN_CONFIRM, BTN_NEW, BTN_HINT, BTN_MENU

VALUES_MS = const(5000)  # how long menu shows the pieces' values


def press(ctl, ev, now):
    """A button event ev (index * 2 + long, board/scan.py) on controller ctl."""
    btn = ev >> 1
    long = ev & 1
    st = ctl.state
    if st == SELFTEST:
        if btn == BTN_MENU and long:
            ctl.stop_selftest()
        else:
            ctl.selftest.note_button(ev)
        return
    if btn == BTN_NEW and (long or st == OVER):
        ctl.record.release_store()  # the player chose a new game
        ctl.new_game()
        return
    if btn == BTN_MENU and long:
        ctl.start_selftest()
        return
    m = ctl.matcher
    if st == CHOOSE:
        # The board cannot see the outcome of a step (a die turned in
        # place): menu or hint steps through them, confirm takes one.
        if (btn == BTN_MENU or btn == BTN_HINT) and not m.engine_move:
            ctl.choice_role = m.next_role(m.choice_site, ctl.choice_role)
        elif btn == BTN_CONFIRM:
            m.fix(m.choice_site, ctl.choice_role)  # match again with the outcome fixed
            ctl.state = PLAY
        return
    seats = ctl.seats
    if btn == BTN_CONFIRM and not long and st == PLAY and m.empty_turn:
        ctl.commit(m.empty_turn)  # the empty turn at once
        return
    if btn == BTN_HINT and (long or seats.choosing(now)):
        seats.next_seats(now)
    elif btn == BTN_CONFIRM and long:
        seats.next_level(now)
    elif btn == BTN_HINT and st == PLAY and not ((seats.bits | seats.remote) >> ctl.pos.side) & 1:
        seats.ask_hint(now)
    elif btn == BTN_MENU:
        ctl.values_until = ticks_add(now, VALUES_MS)
