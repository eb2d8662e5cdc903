"""The rooms a relay holds in memory: each room's game (rules.Game, rebuilt
from the store) and the connections in it. Events are never kept: what a
connection is sent is derived from the room's game and what that
connection has already seen (Seat.seen), so a move is delivered exactly once
to each connection whichever way the relay learnt of it (its own player, a
note from another relay, a reload from the store)."""
import asyncio
import hashlib
import hmac
import json
import secrets

from host_tools.relay import rules


def secret(nbytes):
    """secrets.token_urlsafe(nbytes), drawn again while it begins with '-'.
    A seat's token and a room's id are typed after an option on a command
    line (`--token T`, `--room R`), where a leading '-' reads as another
    option. Drawing again keeps the text uniform over the other 63/64 of the
    strings: 18 bytes lose 0.023 of their 144 bits."""
    while True:
        text = secrets.token_urlsafe(nbytes)
        if not text.startswith("-"):
            return text


def digest(token):
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class Room:
    def __init__(self, record):
        self.id = record.room
        self.seat_digests = dict(record.seats)
        self.game = rules.Game(record.game, record.start, record.mode, record.moves)
        self.conns = set()
        # One move at a time per room in this process (a move's check and its
        # append to the store are one step).
        self.lock = asyncio.Lock()
        self.stale = False  # True: read the room from the record before using it

    def seat_of(self, token):
        """The side whose token this is, or None. Every seat is compared, in
        constant time each (hmac.compare_digest), whatever matches."""
        if not isinstance(token, str):
            return None
        d = digest(token)
        found = None
        for side, ref in self.seat_digests.items():
            if hmac.compare_digest(d, ref):
                found = side
        return found

    def reload(self, record):
        self.game = rules.Game(record.game, record.start, record.mode, record.moves)

    def state(self, seat):
        g = self.game
        msg = {"op": "state", "room": self.id, "game": g.name, "position": g.start, "moves": list(g.moves),
               "seat": seat, "to_move": g.to_move(), "mode": g.mode, "seats": list(g.sides),
               "names": dict(zip(g.sides, g.game.SIDE_NAMES)), "title": g.game.TITLE,
               "ply": len(g.moves)}
        if g.over():
            msg["result"] = g.result()
            msg["reason"] = g.reason()
        return msg

    def board(self, seat):
        from host_tools.board_text import render

        g = self.game
        msg = {"op": "board", "room": self.id, "ply": len(g.moves), "to_move": g.to_move(),
               "position": g.game.format_position(g.pos),
               "text": render(g.pos, colour=False, game=g.game)}
        if seat is not None and seat == g.to_move():
            msg["legal"] = g.legal()
        return msg

    def catch_up(self, conn):
        """Queue for conn every move it has not seen, then the end."""
        g = self.game
        while conn.seen < len(g.moves):
            i = conn.seen
            ev = {"op": "move", "ply": i + 1, "seat": g.seats[i], "move": g.moves[i]}
            if conn.own is not None and conn.own[0] == i + 1:
                ev["id"] = conn.own[1]  # the sender's copy answers its request
            conn.send(ev)
            conn.seen = i + 1
        if g.over() and not conn.told_over:
            conn.told_over = True
            conn.send({"op": "over", "room": self.id, "ply": len(g.moves), "result": g.result(),
                       "reason": g.reason()})

    def deliver(self):
        for c in list(self.conns):
            self.catch_up(c)


class Rooms:
    """The rooms with at least one connection here, by id."""

    def __init__(self, store):
        self.store = store
        self.live = {}
        self._loading = {}

    async def get(self, room_id):
        r = self.live.get(room_id)
        if r is not None:
            return r
        rec = await self.store.load(room_id)
        if rec is None:
            return None
        r = self.live.get(room_id)  # loaded meanwhile by another connection
        if r is None:
            r = self.live[room_id] = Room(rec)
        return r

    def leave(self, room, conn):
        room.conns.discard(conn)
        if not room.conns and self.live.get(room.id) is room:
            del self.live[room.id]  # reloaded from the store when someone comes back


def dumps(msg):
    return json.dumps(msg, separators=(",", ":"))
