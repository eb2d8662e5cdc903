"""The rooms a relay holds in memory: each room's game (rules.Game, rebuilt
from the store) and the connections in it. Events are never kept: what a
connection is sent is derived from the room's game and what that
connection has already seen (Seat.seen), so a move is delivered exactly once
to each connection whichever way the relay learnt of it (its own player, a
note from another relay, a reload from the store).

A room stays in memory (its game: the position the rules core reached) while
a connection is in it, and after, among the last CACHE rooms used: a join or
a watch of a room held costs what a `state` costs, and a room's moves are
replayed through the rules core once when it is loaded, never per
connection."""
import asyncio
import collections
import time
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
        self.watchers = 0  # connections in self.conns without a seat
        self.used = time.monotonic()  # last join, watch or move here
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
        """Every connection's news: the players' first, then the watchers'
        (each writer is woken in this order, so a crowd of watchers does
        not stand between one player and the next)."""
        conns = list(self.conns)
        for c in conns:
            if c.seat is not None:
                self.catch_up(c)
        for c in conns:
            if c.seat is None:
                self.catch_up(c)

    def add(self, conn):
        self.conns.add(conn)
        if conn.seat is None:
            self.watchers += 1
        self.used = time.monotonic()

    def remove(self, conn):
        if conn in self.conns:
            self.conns.discard(conn)
            if conn.seat is None:
                self.watchers -= 1


CACHE = 1000  # rooms kept in memory with no connection in them (the last used)


class Rooms:
    """The rooms held in memory, by id (live): those with a connection here,
    and the last CACHE used without one (idle, oldest first)."""

    def __init__(self, store, cache=CACHE):
        self.store = store
        self.live = {}
        self.idle = collections.OrderedDict()
        self.cache = cache
        self.entered = set()  # ids joined or watched since the last sweep (their expiry starts again)
        self.loads = 0  # rooms read from the store and replayed (a test counts them)

    async def get(self, room_id):
        r = self.live.get(room_id)
        if r is not None:
            return r
        rec = await self.store.load(room_id)
        if rec is None:
            return None
        r = self.live.get(room_id)  # loaded meanwhile by another connection
        if r is None:
            self.loads += 1
            r = self.live[room_id] = Room(rec)
            self._idle(r)
        return r

    def enter(self, room, conn):
        self.idle.pop(room.id, None)
        room.add(conn)
        self.entered.add(room.id)

    def leave(self, room, conn):
        room.remove(conn)
        if not room.conns and self.live.get(room.id) is room:
            self._idle(room)

    def _idle(self, room):
        """Keep a room nobody is in among the last CACHE used."""
        self.idle[room.id] = room
        self.idle.move_to_end(room.id)
        while len(self.idle) > self.cache:
            rid, _ = self.idle.popitem(last=False)
            self.live.pop(rid, None)

    def drop(self, room_id):
        """Forget a room (gone from the store, or expired)."""
        self.idle.pop(room_id, None)
        self.live.pop(room_id, None)

    def drop_idle(self, older_than=None):
        """Forget the idle rooms (all, or those unused for `older_than` s)."""
        now = time.monotonic()
        for rid, room in list(self.idle.items()):
            if older_than is None or now - room.used > older_than:
                self.drop(rid)


def dumps(msg):
    return json.dumps(msg, separators=(",", ":"))
