"""A small client of the relay (docs/relay.md), for terminals, bridges
(a board's `online`) and tests: websockets' sync client underneath, so it
needs no event loop; AsyncClient is the same over the asyncio client.

    c = Client("ws://127.0.0.1:8770/play")
    made = c.create("browne")            # {"op":"created","room":..,"seats":{"r":tok,..}}
    st = c.join(made["room"], made["seats"]["r"])   # the "state" message
    c.move("D2-D7@D2")                   # the relay's "move" broadcast of it
    ev = c.next(timeout=5)               # what the room says next ("move", "over")

Replies and the room's events share one stream: every request carries an
"id" that the relay copies into its reply (the sender's own copy of its
move's broadcast included), so a reply is never mistaken for the room's
news; the room's events that arrive meanwhile are kept, in order, for
next() (without the "id": as every connection gets them). Every refusal
raises RelayError with the relay's reason.
"""
import json
from collections import deque

from websockets.sync.client import connect

DEFAULT_TIMEOUT = 30.0  # seconds for a reply (a loaded relay may be slow; a hung one is not waited for)


class RelayError(Exception):
    """The relay refused a request ({"op":"error"}); str() is its reason."""


class Client:
    def __init__(self, url, timeout=DEFAULT_TIMEOUT, open_timeout=10.0):
        self.url = url
        self.timeout = timeout
        # legacy=True: connect now and return the connection (websockets 17's
        # way outside a with block).
        self.ws = connect(url, open_timeout=open_timeout, max_size=2 ** 20, compression=None, legacy=True)
        self.pending = deque()  # room events read while waiting for a reply
        self._ids = 0
        self.room = None
        self.seat = None
        self._token = None

    # -- the stream --------------------------------------------------------

    def send(self, msg):
        self.ws.send(json.dumps(msg))

    def _read(self, timeout):
        raw = self.ws.recv(timeout=timeout)
        return json.loads(raw)

    def next(self, timeout=None):
        """The room's next event ("move", "over", ...); TimeoutError if none
        comes within timeout (None: the client's timeout)."""
        if self.pending:
            return self.pending.popleft()
        msg = self._read(self.timeout if timeout is None else timeout)
        if msg.get("op") == "error":
            raise RelayError(msg.get("reason", ""))
        return msg

    def request(self, msg, ops=None, match=None):
        """Send msg with a fresh "id"; its reply (without the id), or
        RelayError if the relay refused it. (A move's reply is the sender's
        copy of the room's move event: next() does not give it again.)"""
        self._ids += 1
        rid = self._ids
        self.send(dict(msg, id=rid))
        while True:
            got = self._read(self.timeout)
            if got.get("id") != rid:
                if got.get("op") != "error":  # (an error is only ever a reply)
                    self.pending.append(got)
                continue
            del got["id"]
            if got.get("op") == "error":
                raise RelayError(got.get("reason", ""))
            return got

    # -- the ops -------------------------------------------------------------

    def create(self, game, position=None, mode=None):
        msg = {"op": "create", "game": game}
        if position is not None:
            msg["position"] = position
        if mode is not None:
            msg["mode"] = mode
        return self.request(msg, ("created",))

    def join(self, room, token):
        st = self.request({"op": "join", "room": room, "token": token}, ("state",))
        self.pending.clear()  # the state holds everything before it
        self.room, self.seat, self._token = room, st["seat"], token
        return st

    def rejoin(self):
        """After a lost connection: connect again and join (or watch) the same
        room; returns the whole state (the moves made meanwhile included),
        from which a bridge reconciles."""
        try:
            self.ws.close()
        except Exception:
            pass
        self.ws = connect(self.url, open_timeout=self.timeout, max_size=2 ** 20, compression=None, legacy=True)
        self.pending.clear()
        if self.seat is None:
            return self.watch(self.room)
        return self.join(self.room, self._token)

    def watch(self, room):
        st = self.request({"op": "watch", "room": room}, ("state",))
        self.pending.clear()
        self.room, self.seat = room, None
        return st

    def state(self):
        st = self.request({"op": "state"}, ("state",))
        self.pending = deque(m for m in self.pending if m.get("op") not in ("move", "over"))
        return st

    def board(self):
        return self.request({"op": "board"}, ("board",))

    def move(self, move, ply=None):
        """Play a move for this connection's seat; returns the relay's
        "move" message for it (its canonical text and ply). With `ply`, the
        relay refuses it unless it is exactly the next ply (a bridge
        re-sending after a lost connection never makes a move twice)."""
        msg = {"op": "move", "move": move}
        if ply is not None:
            msg["ply"] = ply
        return self.request(msg)

    def close(self):
        self.ws.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class AsyncClient:
    """Client over websockets' asyncio client (benchmarks, many rooms at once)."""

    def __init__(self, ws, timeout=DEFAULT_TIMEOUT):
        self.ws = ws
        self.timeout = timeout
        self.pending = deque()
        self.seat = None
        self._ids = 0

    @classmethod
    async def connect(cls, url, timeout=DEFAULT_TIMEOUT):
        from websockets.asyncio.client import connect as aconnect

        return cls(await aconnect(url, max_size=2 ** 20, compression=None), timeout)

    async def send(self, msg):
        await self.ws.send(json.dumps(msg))

    async def _read(self):
        import asyncio

        return json.loads(await asyncio.wait_for(self.ws.recv(), self.timeout))

    async def next(self):
        if self.pending:
            return self.pending.popleft()
        msg = await self._read()
        if msg.get("op") == "error":
            raise RelayError(msg.get("reason", ""))
        return msg

    async def next_or_error(self):
        """The next message, an error included (not raised)."""
        if self.pending:
            return self.pending.popleft()
        return await self._read()

    async def request(self, msg, ops=None, match=None):
        self._ids += 1
        rid = self._ids
        await self.send(dict(msg, id=rid))
        while True:
            m = await self._read()
            if m.get("id") != rid:
                if m.get("op") != "error":
                    self.pending.append(m)
                continue
            del m["id"]
            if m.get("op") == "error":
                raise RelayError(m.get("reason", ""))
            return m

    async def create(self, game, position=None, mode=None):
        msg = {"op": "create", "game": game}
        if position is not None:
            msg["position"] = position
        if mode is not None:
            msg["mode"] = mode
        return await self.request(msg, ("created",))

    async def join(self, room, token):
        st = await self.request({"op": "join", "room": room, "token": token}, ("state",))
        self.pending.clear()
        self.seat = st["seat"]
        return st

    async def watch(self, room):
        st = await self.request({"op": "watch", "room": room}, ("state",))
        self.pending.clear()
        return st

    async def move(self, move, ply=None):
        msg = {"op": "move", "move": move}
        if ply is not None:
            msg["ply"] = ply
        return await self.request(msg)

    async def close(self):
        await self.ws.close()
