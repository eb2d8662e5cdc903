# The remote seat kind (docs/protocol.md, "Remote seats"): a side whose
# moves come over the serial line. Its move is shown in light as the
# board's own engine move is, and committed only from the table; the table
# cannot move for it otherwise; a bad `remote` line changes nothing.
# Under CPython and the MicroPython unix port.
from test_protocol import Board, MemFs
from ctlrig import Rig
from triad.board import controller as C
from triad.board.store import Settings
from triad.games.nehren import notation

# Black to move; White's die on e5 (a 2) may go to e3 as a 2 ... any legal move.
POS = "....../....../..b1.../....../w2b2..../.....w1 b 0 0"


def _remote_board(position=POS):
    b = Board(position)
    assert b.reply("remote seats w") == "ok remote seats w"
    return b


def _play_black(b):
    # Black's c3 (a 1) to c4 as a 2? c3 shows 1: it moves 2 or 3 cells turned
    # to that value; take the first legal move and carry it out.
    ctl = b.rig.ctl
    m = ctl.pos.legal_moves()[0]
    _carry_out(b.rig, m)
    return notation.format_move(m)


def _carry_out(rig, m):
    fr = notation.cell_name(m & 127)
    to = notation.cell_name((m >> 7) & 127)
    rig.lift(fr)
    rig.place(to, 1500)
    rem = (m >> 18) & 127
    if rem:
        rig.lift(notation.cell_name(rem), 1500)


def _white_move(ctl):
    return ctl.pos.legal_moves()[0]


def test_remote_seats_are_set_told_and_saved():
    b = Board(POS)
    assert b.reply("remote") == "ok remote off -"
    lines = b.send("remote seats w\n")
    assert lines[-1] == "ok remote seats w"
    assert ("remote", "seats w") in b.rig.events.seen  # (the seats' events: the rig's here)
    assert b.rig.ctl.record.settings.get("remote") == 2
    assert b"remote=2" in b.rig.ctl.record.settings.fs.files["settings.txt"]
    assert b.reply("remote") == "ok remote w -"
    # Bad seat words change nothing.
    for bad in ("remote seats x", "remote seats", "remote seats w b", "remote seats bx"):
        assert b.reply(bad).startswith("err value "), bad
    assert b.rig.ctl.seats.remote == 2
    # The board's own seat is never a remote one: choosing it frees the seat.
    b.rig.ctl.seats.set(2)
    assert b.rig.ctl.seats.remote == 0 and b.rig.ctl.seats.bits == 2
    assert b.reply("remote seats w") == "ok remote seats w"
    assert b.rig.ctl.seats.bits == 0 and b.rig.ctl.seats.remote == 2


def test_remote_seats_come_back_after_a_power_cut():
    fs = MemFs()
    s = Settings("", {"brightness": 64, "next_start": 0, "note2_triads": 0, "opponent": 0, "level": 3, "remote": 0}, fs)
    rig = Rig(POS, settings=s)
    rig.ctl.set_remote(2)
    again = Rig(settings=Settings("", {"opponent": 0, "level": 3, "remote": 0}, fs))
    # (as App starts: the settings, then the saved game)
    again.ctl.use_settings(again.ctl.record.settings)
    assert again.ctl.seats.remote == 2 and again.ctl.seats.bits == 0
    pos = notation.parse_position(POS)
    black = pos.legal_moves()[0]
    again.ctl.load(POS, [notation.format_move(black)])
    again.occ[:] = again.ctl.expected
    again.wait(1000)
    assert again.ctl.state == C.PLAY and again.ctl.pos.side == 1
    before = again.moves()
    _carry_out(again, again.ctl.pos.legal_moves()[0])  # White's move at the table, after the power cut
    assert again.moves() == before, "a remote seat's move was taken from the table after a power cut"


def test_the_table_cannot_move_for_a_remote_seat_before_its_move_comes():
    b = _remote_board()
    ctl = b.rig.ctl
    black = _play_black(b)
    assert b.rig.moves() == black and ctl.pos.side == 1
    m = _white_move(ctl)
    errors = ctl.errors
    _carry_out(b.rig, m)  # White's move made at the table: not the table's to make
    assert b.rig.moves() == black, "the board committed a remote seat's move the line never sent"
    assert ctl.errors > errors and ctl.in_error


def test_bad_remote_lines_change_nothing():
    b = _remote_board()
    ctl = b.rig.ctl
    before = b.game()
    # Black (the table's side) is to move: no remote move is taken.
    assert b.reply("remote " + notation.format_move(ctl.pos.legal_moves()[0])).startswith("err turn ")
    black = _play_black(b)
    before = b.game()
    for bad in ("remote zz", "remote e5e3 e4 e4 e4 e4", "remote a1a2", "remote e5e9", "remote c3c4"):
        r = b.reply(bad)
        assert r.startswith("err "), (bad, r)
        assert b.game() == before and ctl.engine_move == 0, bad
    assert b.reply("remote zz").startswith("err notation ")
    assert b.rig.moves() == black


def test_a_remote_move_lights_as_the_boards_own_move_and_commits_when_carried_out():
    b = _remote_board()
    ctl = b.rig.ctl
    _play_black(b)
    b.rig.wait(1000)
    m = _white_move(ctl)
    text = notation.format_move(m)
    lines = b.send("remote %s\n" % text)
    assert lines[-1] == "ok remote " + text
    assert "evt remote " + text in lines
    assert b.reply("remote") == "ok remote w " + text
    assert ctl.engine_move == m
    # The same light as the board's own engine move: the same frames, tick
    # by tick, as a board whose engine chose m in the same position.
    eng = Rig()
    eng.ctl.load(POS, ctl.record.moves_text().split())  # (the same game: its last move lit too)
    eng.occ[:] = eng.ctl.expected
    eng.wait(1000)
    eng.ctl.seats.set(2)
    eng.ctl.seats.stop()
    eng.ctl.matcher.set_engine_move(m)  # (what seats.collect does with the engine's answer)
    eng.now = b.rig.now
    frames_remote, frames_engine = [], []
    for _ in range(120):
        b.rig.now += 10
        b.rig.tick()
        eng.now += 10
        eng.tick()
        frames_remote.append(bytes(b.rig.frame[: 3 * 36]))
        frames_engine.append(bytes(eng.frame[: 3 * 36]))
    assert frames_remote == frames_engine
    assert len(set(frames_remote)) > 4  # (it breathes: the frames are not all alike)
    # Sent again (a reconnection): the same move, nothing changes; another: refused.
    assert b.reply("remote " + text) == "ok remote " + text
    other = [x for x in ctl.pos.legal_moves() if x != m][0]
    assert b.reply("remote " + notation.format_move(other)).startswith("err busy ")
    assert ctl.engine_move == m
    # Another White move at the table is refused; the one sent commits.
    before = b.rig.moves()
    _carry_out(b.rig, other)
    assert b.rig.moves() == before
    b.rig.ctl.errors = 0
    # (put it back: the board matches the game again)
    b.rig.occ[:] = ctl.expected
    b.rig.changed = b.rig.now
    b.rig.wait(1000)
    n = len(b.out)
    _carry_out(b.rig, m)
    assert b.rig.moves() == before + " " + text
    assert "evt move %s\n" % text in b.out[n:]
    assert ctl.engine_move == 0 and ctl.pos.side == 0
    assert b.reply("remote") == "ok remote w -"


def test_the_tick_allocates_nothing_while_a_remote_seat_is_awaited():
    from triad.compat import micropython

    b = _remote_board()
    _play_black(b)
    rig = b.rig
    rig.wait(100)
    rig.lift("e5")  # a White die lifted at the table: refused, nothing matched
    micropython.heap_lock()
    try:
        for _ in range(50):
            rig.now += 10
            rig.tick()
    finally:
        micropython.heap_unlock()
    assert rig.ctl.state == C.PLAY and rig.ctl.pos.side == 1


def test_a_game_of_remote_moves_from_the_start():
    # Black local, White remote, a few turns each: every remote move commits
    # once carried out, and the move list is the game's.
    b = Board(notation.START)
    assert b.reply("remote seats w") == "ok remote seats w"
    ctl = b.rig.ctl
    played = []
    for turn in range(6):
        m = ctl.pos.legal_moves()[0]
        text = notation.format_move(m)
        if ctl.pos.side == 1:
            assert b.reply("remote " + text) == "ok remote " + text
        _carry_out(b.rig, m)
        played.append(text)
        assert b.rig.moves() == " ".join(played)
