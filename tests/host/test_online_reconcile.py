"""host_tools online's reconcile (the module's docstring): the board's game
against the room's, with a stand-in board and relay (no processes): what is
sent where, for each way the two can differ after a power cut, an unplugged
cable or a lost connection."""
import asyncio

from host_tools.relay import online
from host_tools.relay.rules import Game

START = Game("nehren").start


class FakeLink:
    game = "nehren"

    def __init__(self, start, moves, state="play"):
        self.start = start
        self.moves = list(moves)
        self.sent = []
        self.state = state

    def send(self, command, timeout=5.0):
        self.sent.append(command)
        if command.startswith("remote seats "):
            return "ok remote seats " + command.split()[2]
        if command.startswith("remote "):
            return "ok " + command
        if command.startswith("position "):
            self.start, self.moves = command[9:], []
            return "ok position"
        if command == "moves":
            return ("ok moves " + " ".join(self.moves)).rstrip()
        return "ok " + command

    def status(self):
        return {"start": self.start, "moves": " ".join(self.moves).split(), "state": self.state}


class FakeBoardThread:
    def __init__(self, link):
        self.link = link

    async def call(self, fn):
        return fn(self.link)


def bridge_for(link, room_moves, seat="b"):
    b = online.Bridge("fake", "ws://fake", "ROOM", "TOKEN", log=lambda text: None)
    b.bt = FakeBoardThread(link)
    b.board_ready = True
    b.game = Game("nehren", START, None, room_moves)
    b.seat = seat
    b.mode = None
    relay = []

    async def send(msg):
        relay.append(msg)

    b._send = send
    return b, relay


def game_moves(n):
    g = Game("nehren", START)
    for _ in range(n):
        g.play(g.legal()[0])
    return g.moves


def run(coro):
    return asyncio.run(coro)


def test_in_step_nothing_is_sent():
    R = game_moves(4)
    link = FakeLink(START, R)
    b, relay = bridge_for(link, R)
    run(b.reconcile())
    assert relay == []
    assert [c for c in link.sent if c.startswith(("remote ", "position"))] == ["remote seats w"]
    assert b.board_moves == R and b.base == 0


def test_the_tables_moves_the_room_missed_are_sent_once_each_with_their_ply():
    R = game_moves(5)  # b w b w b: the board (b) has the 5th, the room only 4
    link = FakeLink(START, R)
    b, relay = bridge_for(link, R[:4])
    run(b.reconcile())
    assert relay == [{"op": "move", "move": R[4], "ply": 5}]
    run(b.reconcile())  # (again, before the relay's echo: not sent twice)
    assert relay == [{"op": "move", "move": R[4], "ply": 5}]


def test_the_rooms_moves_made_meanwhile_are_lit_one_at_a_time():
    R = game_moves(6)
    link = FakeLink(START, R[:3])  # the board missed the room's 4th (w), 5th (b: its own), 6th
    b, relay = bridge_for(link, R)
    run(b.reconcile())
    assert relay == []
    assert [c for c in link.sent if c.startswith("remote ") and not c.startswith("remote seats")] == ["remote " + R[3]]


def test_a_board_whose_game_is_not_the_rooms_gets_the_rooms_position():
    R = game_moves(4)
    other = game_moves(6)
    g = Game("nehren", START, None, R)
    link = FakeLink(START, other[:1] if other[0] != R[0] else [Game("nehren").legal()[-1]])
    b, relay = bridge_for(link, R)
    run(b.reconcile())
    assert relay == [], "the board's moves were not the room's: none may reach the relay"
    assert ("position " + g.game.format_position(g.pos)) in link.sent
    assert b.base == 4 and b.board_moves == []


def test_a_board_started_from_a_later_position_of_the_room_is_in_step():
    R = game_moves(6)
    g = Game("nehren", START, None, R[:2])
    link = FakeLink(g.game.format_position(g.pos), R[2:5])
    b, relay = bridge_for(link, R, seat="b")
    run(b.reconcile())
    assert b.base == 2 and b.board_moves == R[2:5]
    assert relay == []
    assert link.sent[-1] == "remote " + R[5]


def test_the_simulated_person_plays_only_once_the_rooms_game_is_on_the_board():
    """(`--hand`) The person at a simulated board plays the table's seat
    (Hand.mine) only once the room's game is on the board: never a move of
    the board's own game while the room's position is still on its way
    (on the slow emulated chip there was time for one: the seeded game of
    tests/pico/test_online_pico.py went another way)."""
    R = game_moves(2)
    other = "w3w3w1w1w2w2/....../....../....../....../b3b3b1b1b2b2 b 0 0"
    link = FakeLink(other, [])
    b, relay = bridge_for(link, R)
    b.hand = online.Hand(3)
    seen = []
    send = link.send

    def watch(command, timeout=5.0):
        seen.append((command.split()[0], b.hand.mine))
        return send(command, timeout)

    link.send = watch
    run(b.reconcile())
    assert any(c == "position" for c, _ in seen), seen
    assert all(mine is None for c, mine in seen[:[c for c, _ in seen].index("position") + 1]), seen
    assert b.hand.mine == "b"
