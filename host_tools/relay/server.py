"""The relay's WebSocket service: JSON text messages at /play (docs/relay.md),
the play page at /. Built on websockets' asyncio server: it does the framing,
the HTTP upgrade, pings and the protocol-level size cap; this module only
reads messages and answers them.

Whatever a connection sends, the worst it gets is {"op":"error"} (or, for a
flood or a message over the protocol cap, its own connection closed): a
handler's exception is caught per message, the room is unchanged and the
relay serves on.
"""
import asyncio
import json
import os
import secrets
import sys
import time
from http import HTTPStatus

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

from host_tools.relay import rules
from host_tools.relay.rooms import Rooms, digest, dumps, secret

PATH = "/play"
MAX_MESSAGE = 4096  # characters of one message the relay reads; longer: an error
PROTOCOL_MAX = 65536  # bytes of one frame websockets accepts at all; longer: connection closed (1009)
RATE = 20.0  # messages a second a connection may send, on average
BURST = 40  # and at once
FLOOD_CLOSE = 200  # refused for rate in a row: the connection is closed (1008)
MAX_CREATES = 20  # rooms one connection may create
MAX_QUEUE = 2000  # messages waiting for a slow reader: beyond, it is closed (it can join again)
MAX_CONNECTIONS = 20000
PAGE = os.path.join(os.path.dirname(__file__), "page.html")


class Conn:
    """One WebSocket connection: its room and seat, its outgoing queue."""

    def __init__(self, ws):
        self.ws = ws
        self.room = None
        self.seat = None
        self.seen = 0
        self.told_over = False
        self.creates = 0
        self.tokens = float(BURST)
        self.stamp = time.monotonic()
        self.flood = 0
        self.out = asyncio.Queue()
        self.dropped = False
        self.closing = False
        self.req = None  # the "id" of the request being answered
        self.own = None  # (ply, id) of this connection's move being delivered

    def reply(self, msg):
        """A reply to the request being handled: with its "id" if it had one."""
        if self.req is not None:
            msg = dict(msg, id=self.req)
        self.send(msg)

    def send(self, msg):
        if self.out.qsize() >= MAX_QUEUE:
            # A reader this far behind is closed rather than held in memory;
            # it can join again and gets the whole state.
            if not self.dropped:
                self.dropped = True
                asyncio.ensure_future(self.ws.close(1008, "too slow to read the room"))
            return
        self.out.put_nowait(dumps(msg))

    def allow(self):
        """Token bucket: True if this message is within the rate limit."""
        now = time.monotonic()
        self.tokens = min(float(BURST), self.tokens + (now - self.stamp) * RATE)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.flood = 0
            return True
        self.flood += 1
        return False


class Relay:
    def __init__(self, store, relay_id=None):
        self.store = store
        self.rooms = Rooms(store)
        self.id = relay_id or secrets.token_hex(8)
        self.conns = 0
        self.moves = 0  # accepted here (bench)
        if hasattr(store, "origin"):
            store.origin = self.id

    # -- the connection's life ---------------------------------------------

    async def handler(self, ws):
        if ws.request.path.split("?")[0] != PATH:
            await ws.close(1008, "the relay's path is %s" % PATH)
            return
        if self.conns >= MAX_CONNECTIONS:
            await ws.close(1013, "the relay is full")
            return
        self.conns += 1
        conn = Conn(ws)
        writer = asyncio.create_task(self._writer(conn))
        try:
            async for raw in ws:
                if not conn.allow():
                    if conn.flood >= FLOOD_CLOSE:
                        # Closed after what it was sent so far (its answers
                        # in order, then the close): it reads why.
                        conn.closing = True
                        conn.out.put_nowait((1008, "too many messages"))
                        break
                    conn.req = request_id(raw)
                    conn.reply(error("too many messages: at most %d a second" % RATE))
                    conn.req = None
                    continue
                conn.req = request_id(raw)
                try:
                    await self.on_message(conn, raw)
                except rules.Refused as e:
                    conn.reply(error(str(e)))
                except ConnectionClosed:
                    raise
                except Exception as e:  # a bug must not take the relay down: say so, serve on
                    conn.reply(error("the relay could not do that (%s)" % type(e).__name__))
                finally:
                    conn.req = None
        except ConnectionClosed:
            pass
        finally:
            self.conns -= 1
            if conn.room is not None:
                self.rooms.leave(conn.room, conn)
            if conn.closing:
                try:
                    await asyncio.wait_for(writer, 10)
                except (asyncio.TimeoutError, asyncio.CancelledError):
                    pass
            writer.cancel()

    async def _writer(self, conn):
        try:
            while True:
                item = await conn.out.get()
                if isinstance(item, tuple):
                    await conn.ws.close(*item)
                    return
                await conn.ws.send(item)
        except (ConnectionClosed, asyncio.CancelledError):
            pass

    # -- messages ----------------------------------------------------------

    async def on_message(self, conn, raw):
        if not isinstance(raw, str):
            raise rules.Refused("messages are JSON text, not binary")
        if len(raw) > MAX_MESSAGE:
            raise rules.Refused("message too long: at most %d characters" % MAX_MESSAGE)
        try:
            msg = json.loads(raw)
        except ValueError:
            raise rules.Refused("not JSON")
        if not isinstance(msg, dict):
            raise rules.Refused("a message is a JSON object with an \"op\"")
        op = msg.get("op")
        fn = OPS.get(op) if isinstance(op, str) else None
        if fn is None:
            raise rules.Refused("unknown op %s (one of %s)" % (json.dumps(op)[:40], ", ".join(sorted(OPS))))
        await fn(self, conn, msg)

    async def op_create(self, conn, msg):
        if conn.creates >= MAX_CREATES:
            raise rules.Refused("a connection creates at most %d rooms" % MAX_CREATES)
        position = msg.get("position")
        mode = msg.get("mode")
        g = rules.Game(msg.get("game"), position, mode)
        seats = {side: secret(18) for side in g.sides}
        for _ in range(8):
            room = secret(6)
            if await self.store.create(room, g.name, g.start, g.mode, {s: digest(t) for s, t in seats.items()}):
                break
        else:
            raise rules.Refused("could not make a room: try again")
        conn.creates += 1
        # The only message that ever carries tokens, to the creator alone.
        conn.reply({"op": "created", "room": room, "seats": seats, "game": g.name, "position": g.start,
                   "mode": g.mode})

    async def _enter(self, conn, msg, seat_wanted):
        room_id = msg.get("room")
        if not isinstance(room_id, str) or not room_id or len(room_id) > 64:
            raise rules.Refused("room must be a room's id")
        room = await self.rooms.get(room_id)
        if room is None:
            raise rules.Refused("no room %s" % json.dumps(room_id))
        room = await self._fresh(room)
        seat = None
        if seat_wanted:
            seat = room.seat_of(msg.get("token"))
            if seat is None:
                raise rules.Refused("wrong token for room %s" % room_id)
        if conn.room is not None:
            self.rooms.leave(conn.room, conn)
        if self.rooms.live.get(room.id) is not room:  # (left and dropped just now)
            room = await self.rooms.get(room_id)
        conn.room, conn.seat = room, seat
        conn.seen = len(room.game.moves)
        conn.told_over = room.game.over()
        room.conns.add(conn)
        conn.reply(room.state(seat))

    async def op_join(self, conn, msg):
        await self._enter(conn, msg, True)

    async def op_watch(self, conn, msg):
        await self._enter(conn, msg, False)

    async def _room(self, conn):
        if conn.room is None:
            raise rules.Refused("join or watch a room first")
        return await self._fresh(conn.room)

    async def _fresh(self, room):
        """The room, read again from the record first if a move's append went
        unanswered (Relay.op_move)."""
        if room.stale:
            async with room.lock:
                if room.stale:
                    room.reload(await self.store.load(room.id))
                    room.stale = False
            room.deliver()
        return room

    async def op_games(self, conn, msg):
        conn.reply({"op": "games", "games": rules.catalogue()})

    async def op_state(self, conn, msg):
        room = await self._room(conn)
        room.catch_up(conn)
        conn.reply(room.state(conn.seat))

    async def op_board(self, conn, msg):
        room = await self._room(conn)
        room.catch_up(conn)
        conn.reply(room.board(conn.seat))

    async def op_review(self, conn, msg):
        """A finished game looked back on (issue 46): `python -m host_tools
        review`'s lines, worked out once a room (off the event loop, at the
        board's effort) and kept. Asked again while it is being worked out
        (every seat's page at the game's end, or one page's clicks), the
        one analysis is awaited: a room costs the relay's CPU one review."""
        room = await self._room(conn)
        g = room.game
        if not g.over():
            raise rules.Refused("a game is reviewed once it is over")
        key = len(g.moves)
        cached = getattr(room, "review_lines", None)
        if cached is None or cached[0] != key:
            work = asyncio.get_running_loop().run_in_executor(None, _review_lines, g)
            cached = room.review_lines = (key, work)
        try:
            lines = await asyncio.shield(cached[1])
        except Exception:
            room.review_lines = None  # (the next ask tries again)
            raise
        conn.reply({"op": "review", "room": room.id, "lines": lines})

    async def op_move(self, conn, msg):
        room = await self._room(conn)
        if conn.seat is None:
            raise rules.Refused("watchers cannot move")
        text = msg.get("move")
        async with room.lock:
            g = room.game
            if g.over():
                raise rules.Refused("the game is over (%s)" % g.reason())
            if conn.seat != g.to_move():
                raise rules.Refused("not your turn: %s to move" % g.to_move())
            ply = len(g.moves) + 1
            want = msg.get("ply")
            if want is not None and want != ply:
                raise rules.Refused("ply %s is not the next move: the next is ply %d" % (json.dumps(want)[:20], ply))
            canon, _ = g.check(text)
            g.play(canon)
            events = [{"op": "move", "ply": ply, "seat": conn.seat, "move": canon}]
            if g.over():
                events.append({"op": "over", "room": room.id, "ply": ply, "result": g.result(),
                               "reason": g.reason()})
            try:
                ok = await self.store.append(room.id, ply, conn.seat, canon, events)
            except Exception:
                # The store did not answer: the move may or may not be in the
                # record (a command sent before a timeout can still run). The
                # room here goes back to the moves known recorded and is read
                # from the record again before its next use; if the record
                # took the move, every connection gets it then.
                room.game = rules.Game(g.name, g.start, g.mode, g.moves[:-1])
                room.stale = True
                raise rules.Refused("the store did not answer: the move is not confirmed; if it was recorded "
                                    "it comes as a move, else send it again (with \"ply\": %d)" % ply)
            if not ok:
                # Another relay's player took this ply first: the record wins.
                rec = await self.store.load(room.id)
                room.reload(rec)
                room.deliver()
                raise rules.Refused("the game moved on before your move: %s to move" % (room.game.to_move(),))
            self.moves += 1
            if conn.req is not None:
                conn.own = (ply, conn.req)
        room.deliver()
        conn.own = None

    # -- notes from other relays (Redis) -------------------------------------

    async def on_note(self, note):
        room = self.rooms.live.get(note.get("room"))
        if room is None:
            return
        ply = note.get("ply")
        async with room.lock:
            g = room.game
            if isinstance(ply, int) and len(g.moves) == ply - 1:
                ev = (note.get("events") or [{}])[0]
                try:
                    g.play(ev.get("move"))
                except rules.Refused:
                    room.reload(await self.store.load(room.id))
            elif isinstance(ply, int) and len(g.moves) < ply:
                room.reload(await self.store.load(room.id))
        room.deliver()

    async def follow(self):
        """Listen to the other relays' notes; if the link to Redis breaks,
        listen again and reload every room held here (notes missed
        meanwhile are in the record), delivering what was missed."""
        while True:
            try:
                await self.store.listen(self.on_note)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                print("relay: Redis channel lost (%s); again in 1 s" % type(e).__name__, file=sys.stderr, flush=True)
                await asyncio.sleep(1.0)
                for room in list(self.rooms.live.values()):
                    try:
                        async with room.lock:
                            rec = await self.store.load(room.id)
                            if rec is not None:
                                room.reload(rec)
                        room.deliver()
                    except Exception:
                        break  # Redis still away: the next round tries again

    # -- HTTP: the page --------------------------------------------------------

    def process_request(self, connection, request):
        path = request.path.split("?")[0]
        if path == PATH:
            return None  # the WebSocket
        if path in ("/", "/index.html"):
            with open(PAGE, "rb") as f:
                body = f.read()
            resp = connection.respond(HTTPStatus.OK, "")
            resp.body = body
            del resp.headers["Content-Type"]
            del resp.headers["Content-Length"]
            resp.headers["Content-Type"] = "text/html; charset=utf-8"
            resp.headers["Content-Length"] = str(len(body))
            resp.headers["Cache-Control"] = "no-store"
            return resp
        return connection.respond(HTTPStatus.NOT_FOUND, "not found: the page is /, the relay is %s\n" % PATH)


def request_id(raw):
    """The request's "id" (a string of at most 64 characters or an integer)
    to copy into its reply, or None: read without trusting the message."""
    if not isinstance(raw, str) or len(raw) > MAX_MESSAGE or '"id"' not in raw:
        return None
    try:
        msg = json.loads(raw)
    except Exception:  # not JSON, or nested past the parser's depth (RecursionError)
        return None
    rid = msg.get("id") if isinstance(msg, dict) else None
    if isinstance(rid, bool) or not isinstance(rid, (str, int)):
        return None
    if isinstance(rid, str) and len(rid) > 64 or isinstance(rid, int) and abs(rid) > 2 ** 53:
        return None
    return rid


def _review_lines(g):
    """The review's lines of a room's finished game (rules.Game)."""
    from host_tools import records, review
    from triad.board.review_mode import BOARD_NODES

    rec = records.Record(start=g.start, moves=list(g.moves), game=g.game,
                         settings={"mode": g.mode} if g.mode else None)
    return review.lines(rec, BOARD_NODES)


def error(reason):
    return {"op": "error", "reason": reason}


OPS = {
    "create": Relay.op_create,
    "join": Relay.op_join,
    "watch": Relay.op_watch,
    "move": Relay.op_move,
    "state": Relay.op_state,
    "board": Relay.op_board,
    "games": Relay.op_games,
    "review": Relay.op_review,
}


def open_store(path, redis_url):
    if redis_url:
        from host_tools.relay.redis_bus import RedisStore

        return RedisStore(redis_url)
    from host_tools.relay.store import SqliteStore

    return SqliteStore(path)


async def run(host, port, store_path, redis_url=None, ready=None, stop=None):
    """Serve until `stop` (a future) is done; prints the serving line."""
    store = open_store(store_path, redis_url)
    relay = Relay(store)
    listener = None
    if redis_url:
        await store.ping()
        listener = asyncio.create_task(relay.follow())
    async with serve(relay.handler, host, port, process_request=relay.process_request,
                     max_size=PROTOCOL_MAX, max_queue=64, compression=None) as server:
        sock = server.sockets[0].getsockname()
        shown = "[%s]" % host if ":" in host else host
        print("serving ws://%s:%d%s" % (shown, sock[1], PATH), flush=True)
        if ready is not None:
            ready(relay, sock[1])
        if stop is None:
            stop = asyncio.get_running_loop().create_future()
            import signal

            for sig in (signal.SIGTERM, signal.SIGINT):
                asyncio.get_running_loop().add_signal_handler(sig, stop.set_result, None)
        await stop
    if listener is not None:
        listener.cancel()
    await store.close()
    return 0


def add_parser(sub):
    p = sub.add_parser("serve", help="run a relay: boards, pages and terminals play rooms over WebSocket")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8770, help="port (default 8770; 0: any free one, printed)")
    p.add_argument("--store", default="triad-relay.sqlite",
                   help="the SQLite file of the rooms (default triad-relay.sqlite; :memory: keeps nothing)")
    p.add_argument("--redis", metavar="URL", help="share rooms with other relays through Redis (redis://host:port/0); "
                   "the rooms are then kept in Redis, not --store")
    p.set_defaults(fn=cmd_serve)


def cmd_serve(args):
    try:
        return asyncio.run(run(args.host, args.port, args.store, args.redis))
    except OSError as e:
        raise SystemExit("host_tools serve: %s" % e)
