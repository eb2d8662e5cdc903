"""The relay's WebSocket service: JSON text messages at /play (docs/relay.md),
the play page at /, /healthz and /metrics for whoever runs it. Built on
websockets' asyncio server: it does the framing, the HTTP upgrade, pings and
the protocol-level size cap; this module only reads messages and answers
them, and keeps what one address may take within the limits (Limits).

Whatever a connection sends, the worst it gets is {"op":"error"} (or, for a
flood or a message over the protocol cap, its own connection closed): a
handler's exception is caught per message, the room is unchanged and the
relay serves on. A store that fails is said to the client and logged once
per kind of failure, with its cause.
"""
import asyncio
import base64
import collections
import concurrent.futures
import hashlib
import json
import os
import re
import secrets
import sys
import time
from http import HTTPStatus

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from host_tools.relay import rules
from host_tools.relay.rooms import Rooms, digest, dumps, secret
from host_tools.relay.store import RoomGone, StoreError

PATH = "/play"
MAX_MESSAGE = 4096  # characters of one message the relay reads; longer: an error
PROTOCOL_MAX = 65536  # bytes of one frame websockets accepts at all; longer: connection closed (1009)
RATE = 20.0  # messages a second a connection may send, on average
BURST = 40  # and at once
FLOOD_CLOSE = 200  # refused for rate in a row: the connection is closed (1008)
FLOOD_GRACE = 0.5  # seconds a flooder's answers may take to go before its connection is cut
CLOSE_WAIT = 1.0  # seconds a closed or refused connection's client has to close its end before it is cut
MAX_CREATES = 20  # rooms one connection may create
MAX_QUEUE = 2000  # messages waiting for a slow reader: beyond, it is closed (it can join again)
MAX_CONNECTIONS = 20000  # a relay's connections (less if the open-file limit is lower: fd_budget)
PAGE = os.path.join(os.path.dirname(__file__), "page.html")
HOUR = 3600.0


class Limits:
    """What one address, one room and the relay may take (serve's options)."""

    def __init__(self, max_per_address=64, allow_origins=(), rooms_per_hour=60, room_days=30.0,
                 watchers_per_room=200, max_connections=MAX_CONNECTIONS):
        self.max_per_address = max_per_address
        self.allow_origins = frozenset(o.rstrip("/") for o in allow_origins)
        self.rooms_per_hour = rooms_per_hour
        self.room_days = room_days
        self.watchers_per_room = watchers_per_room
        self.max_connections = max_connections


def fd_budget(wanted=MAX_CONNECTIONS, spare=64):
    """Raise this process's open-file soft limit to its hard limit and
    return the connections that fit under it (`spare` files kept for the
    store, the log and the listening sockets): the relay's connection cap
    is met before the file limit, never after."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = wanted + spare
        if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard) and soft < want:
            new = want if hard == resource.RLIM_INFINITY else min(hard, want)
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
            soft = new
    except (ImportError, ValueError, OSError):
        return wanted
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, soft - spare))


class Metrics:
    """Counters for /metrics (Prometheus text)."""

    def __init__(self):
        self.moves = 0
        self.refused = collections.Counter()  # reason label -> count
        self.store_failures = collections.Counter()  # kind -> count
        self.connections_total = 0


class Conn:
    """One WebSocket connection: its room and seat, its outgoing queue."""

    def __init__(self, ws, addr=None):
        self.ws = ws
        self.addr = addr
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


def counted_connection(relay):
    """websockets' ServerConnection, counted per address from the moment the
    TCP connection is accepted (a handshake not yet finished holds a file
    too) until it is gone."""

    class Counted(ServerConnection):
        def connection_made(self, transport):
            super().connection_made(transport)
            self.relay_over = relay.arrived(self)

        def connection_lost(self, exc):
            super().connection_lost(exc)
            relay.departed(self)

    return Counted


def address_host(host):
    """True if a Host header names an IP address or localhost (with or
    without a port): names no stranger can point elsewhere."""
    import ipaddress

    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        if rest and not re.fullmatch(r":[0-9]+", rest):
            return False
    else:
        name, _, port = host.partition(":")
        if port and not port.isdigit():
            return False
    if name == "localhost":
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def address(connection):
    try:
        peer = connection.transport.get_extra_info("peername")
    except Exception:
        peer = None
    if isinstance(peer, tuple) and peer:
        host = peer[0]
        return host[7:] if host.startswith("::ffff:") else host  # IPv4 seen through IPv6
    return str(peer)


class Relay:
    def __init__(self, store, relay_id=None, limits=None):
        self.store = store
        self.limits = limits or Limits()
        self.rooms = Rooms(store)
        self.id = relay_id or secrets.token_hex(8)
        self.conns = 0
        self.metrics = Metrics()
        self.by_address = {}  # address -> connections open from it (TCP, handshake or not)
        self.tcp = 0  # all those connections
        self.created_at = {}  # address -> deque of monotonic times of its rooms created this hour
        self.logged = set()  # kinds of store failure already logged
        self.page = None  # (body, script hashes) of page.html, read once
        self.review_pool = None  # the reviews' one thread (op_review), made when first wanted
        self.reviews_queued = 0  # reviews asked for and not yet worked out
        if hasattr(store, "origin"):
            store.origin = self.id

    @property
    def moves(self):  # (the bench and tests read it)
        return self.metrics.moves

    # -- what one address may take -------------------------------------------

    def arrived(self, connection):
        """A TCP connection accepted: None, or the reason it is refused at
        its handshake (too many from its address; the relay full)."""
        addr = address(connection)
        connection.relay_addr = addr
        n = self.by_address.get(addr, 0) + 1
        self.by_address[addr] = n
        self.tcp += 1
        if n > self.limits.max_per_address:
            return "per_address"
        if self.tcp > self.limits.max_connections:
            return "full"
        return None

    def departed(self, connection):
        addr = getattr(connection, "relay_addr", None)
        n = self.by_address.get(addr, 0) - 1
        if n > 0:
            self.by_address[addr] = n
        else:
            self.by_address.pop(addr, None)
        self.tcp -= 1

    def refuse(self, reason):
        self.metrics.refused[reason] += 1

    def origin_allowed(self, request):
        """No Origin (a board, a terminal, a program), the relay's own
        (scheme://host:port as the request reached it, by an address), or
        one given by --allow-origin. The relay's own counts only when the
        Host is an IP address or localhost: under a name it may be a
        stranger's site whose name was pointed at this machine (DNS
        rebinding), whose page's Origin and Host then agree; a name the
        relay is served under is given with --allow-origin."""
        origin = request.headers.get("Origin")
        if origin is None:
            return True
        origin = origin.rstrip("/")
        if origin in self.limits.allow_origins:
            return True
        host = request.headers.get("Host", "")
        return address_host(host) and origin in ("http://" + host, "https://" + host)

    def may_create(self, conn):
        """Count a room against its address's hour; Refused past the limit."""
        if conn.creates >= MAX_CREATES:
            self.refuse("rooms_per_connection")
            raise rules.Refused("a connection creates at most %d rooms" % MAX_CREATES)
        now = time.monotonic()
        times = self.created_at.get(conn.addr)
        if times is None:
            times = self.created_at[conn.addr] = collections.deque()
        while times and now - times[0] >= HOUR:
            times.popleft()
        if len(times) >= self.limits.rooms_per_hour:
            self.refuse("rooms_per_hour")
            wait = int(HOUR - (now - times[0])) + 1
            raise rules.Refused("too many rooms: at most %d an hour from one address (the next in %d s)"
                                % (self.limits.rooms_per_hour, wait))
        times.append(now)

    def forget_hours(self):
        now = time.monotonic()
        for addr, times in list(self.created_at.items()):
            while times and now - times[0] >= HOUR:
                times.popleft()
            if not times:
                del self.created_at[addr]

    # -- a store that fails ----------------------------------------------------

    def store_failed(self, e):
        """Log the first failure of each kind, with its cause; count them all."""
        text = str(e) or type(e).__name__
        kind = re.sub(r"[^a-z]+", "_", text.lower())[:60].strip("_") or "unknown"
        self.metrics.store_failures[kind] += 1
        if kind not in self.logged and len(self.logged) < 100:
            self.logged.add(kind)
            print("relay: the store failed: %s (said to the client; logged once for this kind)" % text,
                  file=sys.stderr, flush=True)
        return text

    def gone(self, room, why="it is no longer in the store"):
        """The room has left the store (expired, or lost with a Redis that
        kept nothing): each connection in it is told, and leaves it."""
        self.rooms.drop(room.id)
        for c in list(room.conns):
            room.remove(c)
            c.room, c.seat = None, None
            c.send({"op": "gone", "room": room.id, "reason": "room %s is gone: %s" % (room.id, why)})

    # -- the connection's life ---------------------------------------------

    async def handler(self, ws):
        if ws.request.path.split("?")[0] != PATH:
            await ws.close(1008, "the relay's path is %s" % PATH)
            return
        if self.conns >= self.limits.max_connections:
            self.refuse("full")
            await ws.close(1013, "the relay is full")
            return
        self.conns += 1
        self.metrics.connections_total += 1
        conn = Conn(ws, getattr(ws, "relay_addr", None))
        writer = asyncio.create_task(self._writer(conn))
        try:
            async for raw in ws:
                if not conn.allow():
                    if conn.flood >= FLOOD_CLOSE:
                        # Closed after what it was sent so far (its answers
                        # in order, then the close) if it reads them now; a
                        # flooder that does not read is cut at once.
                        self.refuse("flood")
                        conn.closing = True
                        conn.out.put_nowait((1008, "too many messages"))
                        break
                    self.refuse("rate")
                    conn.req = request_id(raw)
                    conn.reply(error("too many messages: at most %d a second" % RATE))
                    conn.req = None
                    continue
                await self.answer(conn, raw)
        except ConnectionClosed:
            pass
        finally:
            self.conns -= 1
            if conn.room is not None:
                self.rooms.leave(conn.room, conn)
            if conn.closing:
                # Its answers and the close frame get FLOOD_GRACE to go, then
                # the TCP connection is cut: a flooder gets no close handshake
                # to drag out (websockets waits up to 10 s for one).
                try:
                    await asyncio.wait_for(asyncio.shield(writer), FLOOD_GRACE)
                except (asyncio.TimeoutError, asyncio.CancelledError):
                    pass
                ws.transport.abort()
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

    async def answer(self, conn, raw):
        """One message, answered: its reply, or an error with the reason."""
        conn.req = request_id(raw)
        try:
            await self.on_message(conn, raw)
        except rules.Refused as e:
            conn.reply(error(str(e)))
        except StoreError as e:
            conn.reply(error("the store failed (%s): nothing was changed; try again later" % self.store_failed(e)))
        except ConnectionClosed:
            raise
        except Exception as e:  # a bug must not take the relay down: say so, serve on
            conn.reply(error("the relay could not do that (%s)" % type(e).__name__))
        finally:
            conn.req = None

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
        position = msg.get("position")
        mode = msg.get("mode")
        g = rules.Game(msg.get("game"), position, mode)
        self.may_create(conn)
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
        elif room.watchers >= self.limits.watchers_per_room and conn not in room.conns:
            self.refuse("watchers_per_room")
            raise rules.Refused("room %s has %d watchers, the most it takes: try again later"
                                % (room_id, self.limits.watchers_per_room))
        if conn.room is not None:
            self.rooms.leave(conn.room, conn)
        if self.rooms.live.get(room.id) is not room:  # (left and dropped just now)
            room = await self.rooms.get(room_id)
            if room is None:
                raise rules.Refused("no room %s" % json.dumps(room_id))
        conn.room, conn.seat = room, seat
        conn.seen = len(room.game.moves)
        conn.told_over = room.game.over()
        self.rooms.enter(room, conn)
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
        unanswered (Relay.op_move); Refused if it is gone from the store."""
        if room.stale:
            async with room.lock:
                if room.stale:
                    rec = await self.store.load(room.id)
                    if rec is None:
                        self.gone(room)
                        raise rules.Refused("no room %s: it is no longer in the store" % json.dumps(room.id))
                    room.reload(rec)
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
            # One review at a time on one thread of its own, a short queue
            # behind it: reviews a stranger asks for in many finished rooms
            # wait their turn (or are refused), and the players' moves keep
            # the rest of the relay's CPU.
            if self.reviews_queued >= MAX_REVIEWS_QUEUED:
                self.refuse("reviews_queued")
                raise rules.Refused("the relay is busy looking back on other games: ask again in a minute")
            if self.review_pool is None:
                self.review_pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="review")
            self.reviews_queued += 1
            work = asyncio.get_running_loop().run_in_executor(self.review_pool, _review_lines, g)
            work.add_done_callback(self._review_done)
            cached = room.review_lines = (key, work)
        try:
            lines = await asyncio.shield(cached[1])
        except Exception:
            room.review_lines = None  # (the next ask tries again)
            raise
        conn.reply({"op": "review", "room": room.id, "lines": lines})

    def _review_done(self, _work):
        self.reviews_queued -= 1

    async def op_move(self, conn, msg):
        room = await self._room(conn)
        if conn.seat is None:
            raise rules.Refused("watchers cannot move")
        text = msg.get("move")
        want = msg.get("ply")
        if want is not None and (type(want) is not int):
            raise rules.Refused("ply must be a whole number (a JSON integer), not %s" % json.dumps(want)[:20])
        async with room.lock:
            g = room.game
            if g.over():
                raise rules.Refused("the game is over (%s)" % g.reason())
            if conn.seat != g.to_move():
                raise rules.Refused("not your turn: %s to move" % g.to_move())
            ply = len(g.moves) + 1
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
            except RoomGone:
                self.gone(room)
                raise rules.Refused("no room %s: it is no longer in the store" % json.dumps(room.id))
            except Exception as e:
                # The store failed or did not answer: the move may or may not
                # be in the record (a command sent before a timeout can still
                # run). The room here goes back to the moves known recorded
                # and is read from the record again before its next use; if
                # the record took the move, every connection gets it then.
                room.game = rules.Game(g.name, g.start, g.mode, g.moves[:-1])
                room.stale = True
                why = self.store_failed(e)
                raise rules.Refused("the store failed (%s): the move is not confirmed; if it was recorded "
                                    "it comes as a move, else send it again (with \"ply\": %d)" % (why, ply))
            if not ok:
                # Another relay's player took this ply first: the record wins.
                rec = await self.store.load(room.id)
                if rec is None:
                    self.gone(room)
                    raise rules.Refused("no room %s: it is no longer in the store" % json.dumps(room.id))
                room.reload(rec)
                room.deliver()
                raise rules.Refused("the game moved on before your move: %s to move" % (room.game.to_move(),))
            self.metrics.moves += 1
            room.used = time.monotonic()
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
                    rec = await self.store.load(room.id)
                    if rec is None:
                        self.gone(room)
                        return
                    room.reload(rec)
            elif isinstance(ply, int) and len(g.moves) < ply:
                rec = await self.store.load(room.id)
                if rec is None:
                    self.gone(room)
                    return
                room.reload(rec)
        room.deliver()

    async def follow(self):
        """Listen to the other relays' notes; if the link to Redis breaks,
        listen again every second and read the rooms again (resync). The
        loss is logged once, with its cause, and the link's return once (not
        a line a second while Redis is away)."""
        lost = [False]

        def back():
            if lost[0]:
                lost[0] = False
                print("relay: Redis channel back", file=sys.stderr, flush=True)

        while True:
            try:
                await self.store.listen(self.on_note, back)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if not lost[0]:
                    lost[0] = True
                    print("relay: Redis channel lost (%s: %s); listening again every second"
                          % (type(e).__name__, str(e)[:200]), file=sys.stderr, flush=True)
                await asyncio.sleep(1.0)
                await self.resync()

    async def watch_redis(self, every=2.0):
        """Notice a Redis that restarted (its run_id changes; redis-py's
        channel reconnects by itself and would not say): the notes sent
        meanwhile are lost, and a Redis that kept nothing lost the rooms."""
        last = None
        while True:
            try:
                rid = await self.store.run_id()
                if last is not None and rid != last:
                    print("relay: Redis restarted; reading the rooms again", file=sys.stderr, flush=True)
                    await self.resync()
                last = rid
            except asyncio.CancelledError:
                raise
            except Exception:
                pass  # away: a request meanwhile says so; checked again
            await asyncio.sleep(every)

    async def resync(self):
        """Read every room with a connection here again from the record
        (notes missed meanwhile are in it; the idle ones are forgotten and
        read again when wanted), deliver what was missed, and tell a room's
        connections if it is gone (a Redis restarted without its data)."""
        self.rooms.drop_idle()
        for room in list(self.rooms.live.values()):
            try:
                async with room.lock:
                    rec = await self.store.load(room.id)
                    if rec is None:
                        self.gone(room, "Redis no longer has it (restarted without its data?)")
                        continue
                    room.reload(rec)
                room.deliver()
            except Exception:
                break  # Redis still away: the next round tries again

    async def upkeep(self):
        """Every so often: rooms joined or watched lately count as touched;
        rooms untouched for --room-days leave the store and the memory; the
        per-address hours forget what is past."""
        days = self.limits.room_days
        every = max(0.5, min(HOUR, days * 86400.0 / 4))
        while True:
            try:
                entered, self.rooms.entered = self.rooms.entered, set()
                held = {rid for rid, r in self.rooms.live.items() if r.conns}
                if entered | held:
                    await self.store.touch(sorted(entered | held))
                for rid in await self.store.sweep(days):
                    room = self.rooms.live.get(rid)
                    if room is not None and not room.conns:
                        self.rooms.drop(rid)
                self.rooms.drop_idle(older_than=days * 86400.0)
                self.forget_hours()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self.store_failed(e)
            await asyncio.sleep(every)

    # -- HTTP: the page, health and metrics -----------------------------------

    async def process_request(self, connection, request):
        over = getattr(connection, "relay_over", None)
        if over == "per_address":
            self.refuse("per_address")
            return plain(connection, HTTPStatus.TOO_MANY_REQUESTS,
                         "too many connections from your address: at most %d at once\n" % self.limits.max_per_address)
        if over == "full":
            self.refuse("full")
            return plain(connection, HTTPStatus.SERVICE_UNAVAILABLE, "the relay is full: try again later\n")
        path = request.path.split("?")[0]
        if path == PATH:
            if not self.origin_allowed(request):
                self.refuse("origin")
                return plain(connection, HTTPStatus.FORBIDDEN,
                             "a page from another site may not use this relay (Origin refused)\n")
            return None  # the WebSocket
        if path in ("/", "/index.html"):
            body, hashes = self.page_body()
            resp = plain(connection, HTTPStatus.OK, "")
            resp.body = body
            set_header(resp, "Content-Type", "text/html; charset=utf-8")
            set_header(resp, "Content-Length", str(len(body)))
            resp.headers["Cache-Control"] = "no-store"
            resp.headers["Content-Security-Policy"] = csp(hashes, request.headers.get("Host", ""))
            return resp
        if path == "/healthz":
            try:
                await asyncio.wait_for(self.store.ping(), 3.0)
            except Exception as e:
                return plain(connection, HTTPStatus.SERVICE_UNAVAILABLE,
                             "the store failed: %s\n" % (self.store_failed(e) if isinstance(e, StoreError)
                                                        else type(e).__name__))
            return plain(connection, HTTPStatus.OK, "ok\n")
        if path == "/metrics":
            resp = plain(connection, HTTPStatus.OK, self.metrics_text())
            set_header(resp, "Content-Type", "text/plain; version=0.0.4; charset=utf-8")
            return resp
        if path.startswith(("/static/", "/api/")):
            # The page's script, style and board drawing, and what it draws
            # of a room (host_tools/relay/view.py), with the page's headers.
            from host_tools.relay import view

            try:
                resp = await view.respond(self, connection, request)
            except StoreError as e:
                return plain(connection, HTTPStatus.SERVICE_UNAVAILABLE, "the store failed: %s\n" % self.store_failed(e))
            for name, value in SECURITY_HEADERS:
                resp.headers[name] = value
            return resp
        return plain(connection, HTTPStatus.NOT_FOUND,
                     "not found: the page is /, the relay is %s (and /healthz, /metrics)\n" % PATH)

    def page_body(self):
        if self.page is None:
            with open(PAGE, "rb") as f:
                body = f.read()
            self.page = (body, inline_script_hashes(body))
        return self.page

    def metrics_text(self):
        m = self.metrics
        lines = [
            "# HELP triad_relay_connections WebSocket connections open now.",
            "# TYPE triad_relay_connections gauge",
            "triad_relay_connections %d" % self.conns,
            "# HELP triad_relay_connections_total WebSocket connections served since the start.",
            "# TYPE triad_relay_connections_total counter",
            "triad_relay_connections_total %d" % m.connections_total,
            "# HELP triad_relay_rooms Rooms held in memory (with a connection here, or among the last used).",
            "# TYPE triad_relay_rooms gauge",
            "triad_relay_rooms %d" % len(self.rooms.live),
            "# HELP triad_relay_rooms_in_use Rooms with at least one connection here.",
            "# TYPE triad_relay_rooms_in_use gauge",
            "triad_relay_rooms_in_use %d" % sum(1 for r in self.rooms.live.values() if r.conns),
            "# HELP triad_relay_moves_total Moves accepted and recorded by this relay.",
            "# TYPE triad_relay_moves_total counter",
            "triad_relay_moves_total %d" % m.moves,
            "# HELP triad_relay_refusals_total Connections, messages and requests refused by a limit, by reason.",
            "# TYPE triad_relay_refusals_total counter",
        ]
        for reason in REFUSALS:
            lines.append('triad_relay_refusals_total{reason="%s"} %d' % (reason, m.refused.get(reason, 0)))
        lines += ["# HELP triad_relay_store_failures_total Store operations that failed, by kind.",
                  "# TYPE triad_relay_store_failures_total counter",
                  "triad_relay_store_failures_total %d" % sum(m.store_failures.values())]
        for kind, n in sorted(m.store_failures.items()):
            lines.append('triad_relay_store_failures_by_kind_total{kind="%s"} %d' % (kind, n))
        return "\n".join(lines) + "\n"


REFUSALS = ("per_address", "full", "origin", "rate", "flood", "rooms_per_hour", "rooms_per_connection",
            "watchers_per_room", "reviews_queued")
MAX_REVIEWS_QUEUED = 8  # finished games waiting for the reviews' thread

SECURITY_HEADERS = (
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
)


def set_header(resp, name, value):
    del resp.headers[name]
    resp.headers[name] = value


def plain(connection, status, text):
    """An HTTP response with the relay's security headers."""
    resp = connection.respond(status, text)
    for name, value in SECURITY_HEADERS:
        resp.headers[name] = value
    return resp


def inline_script_hashes(body):
    """'sha256-...' of each inline <script> of the page, for its
    Content-Security-Policy: the page's own scripts run, nothing injected."""
    out = []
    for m in re.finditer(rb"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", body, re.S | re.I):
        out.append("'sha256-%s'" % base64.b64encode(hashlib.sha256(m.group(1)).digest()).decode())
    return out


HOST_RE = re.compile(r"^[A-Za-z0-9.\-]+(:[0-9]+)?$|^\[[0-9A-Fa-f:.]+\](:[0-9]+)?$")


def csp(hashes, host):
    """The page's policy: scripts the relay serves or the page's own inline
    ones (by hash), styles its own (inline allowed: styles run no code),
    connections to this relay only, never framed."""
    connect = "'self'"
    if HOST_RE.match(host or ""):
        connect += " ws://%s wss://%s" % (host, host)
    return ("default-src 'self'; script-src 'self' %s; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
            "connect-src %s; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
            % (" ".join(hashes), connect)).replace("script-src 'self' ;", "script-src 'self';")


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


async def _op_rematch(relay, conn, msg):
    from host_tools.relay.rematch import op_rematch  # (issue 43: the next game, sides rotated)

    await op_rematch(relay, conn, msg)


OPS["rematch"] = _op_rematch


class StartError(Exception):
    """The relay cannot start: its text is the one line serve prints."""


def open_store(path, redis_url, room_days=30.0):
    if redis_url:
        from host_tools.relay.redis_bus import RedisStore

        return RedisStore(redis_url, room_days=room_days)
    from host_tools.relay.store import SqliteStore

    return SqliteStore(path)


async def run(host, port, store_path, redis_url=None, ready=None, stop=None, limits=None, redis_volatile=False):
    """Serve until `stop` (a future) is done; prints the serving line.
    StartError (one line, the cause) if the store or the address cannot be
    used."""
    limits = limits or Limits()
    try:
        store = open_store(store_path, redis_url, limits.room_days)
    except StoreError as e:
        raise StartError(str(e))
    except Exception as e:  # (redis-py refusing the URL, say)
        raise StartError("cannot use the store: %s: %s" % (type(e).__name__, e))
    relay = Relay(store, limits=limits)
    tasks = []
    try:
        try:
            if redis_url:
                await store.ping()
                if not redis_volatile:
                    await store.check_persistence()
            await store.sweep(limits.room_days)
        except StoreError as e:
            raise StartError(str(e) if redis_url is None or str(e).startswith("Redis at") or "CONFIG" in str(e)
                             else "cannot reach %s: %s" % (redis_url, e))
        try:
            server = await serve(relay.handler, host, port, process_request=relay.process_request,
                                 max_size=PROTOCOL_MAX, max_queue=64, compression=None, server_header=None,
                                 # (websockets' 10 s: a flooder whose handshakes are refused,
                                 # and never closes its end, held a file each for 10 s)
                                 close_timeout=CLOSE_WAIT,
                                 create_connection=counted_connection(relay))
        except (OSError, OverflowError) as e:  # (OverflowError: a port past 65535)
            raise StartError("cannot listen on %s port %s: %s" % (host, port, getattr(e, "strerror", None) or e))
        async with server:
            if redis_url:
                tasks.append(asyncio.create_task(relay.follow()))
                tasks.append(asyncio.create_task(relay.watch_redis()))
            tasks.append(asyncio.create_task(relay.upkeep()))
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
    finally:
        for t in tasks:
            t.cancel()
        await store.close()
    return 0


def positive_int(text):
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        import argparse

        raise argparse.ArgumentTypeError("must be a whole number of 1 or more, not %r" % text)
    return n


def positive_float(text):
    try:
        x = float(text)
    except ValueError:
        x = 0.0
    if not x > 0 or x != x or x == float("inf"):
        import argparse

        raise argparse.ArgumentTypeError("must be a number above 0, not %r" % text)
    return x


def add_parser(sub):
    p = sub.add_parser("serve", help="run a relay: boards, pages and terminals play rooms over WebSocket")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8770, help="port (default 8770; 0: any free one, printed)")
    p.add_argument("--store", default="triad-relay.sqlite",
                   help="the SQLite file of the rooms (default triad-relay.sqlite; :memory: keeps nothing)")
    p.add_argument("--redis", metavar="URL", help="share rooms with other relays through Redis (redis://host:port/0); "
                   "the rooms are then kept in Redis, not --store; Redis must persist (appendonly or save)")
    p.add_argument("--redis-volatile", action="store_true",
                   help="start even if Redis keeps nothing over a restart (every room is lost with it)")
    p.add_argument("--max-per-address", type=positive_int, default=64, metavar="N",
                   help="connections one address may hold at once (default 64; beyond: HTTP 429)")
    p.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                   help="a page origin that may connect besides the relay's own address (its name behind a TLS "
                   "proxy: https://relay.example; another site) (repeatable; others: HTTP 403)")
    p.add_argument("--rooms-per-hour", type=positive_int, default=60, metavar="N",
                   help="rooms one address may create an hour (default 60)")
    p.add_argument("--room-days", type=positive_float, default=30.0, metavar="D",
                   help="rooms nobody moved in, joined or watched for D days are deleted (default 30)")
    p.add_argument("--watchers-per-room", type=positive_int, default=200, metavar="N",
                   help="watchers one room takes at once (default 200; players are not counted)")
    p.set_defaults(fn=cmd_serve)


def cmd_serve(args):
    limits = Limits(max_per_address=args.max_per_address, allow_origins=args.allow_origin,
                    rooms_per_hour=args.rooms_per_hour, room_days=args.room_days,
                    watchers_per_room=args.watchers_per_room, max_connections=fd_budget())
    try:
        return asyncio.run(run(args.host, args.port, args.store, args.redis, limits=limits,
                               redis_volatile=args.redis_volatile))
    except StartError as e:
        print("serve: %s" % e, file=sys.stderr, flush=True)
        return 1
    except OSError as e:
        print("serve: %s" % e, file=sys.stderr, flush=True)
        return 1
