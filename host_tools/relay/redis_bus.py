"""Relays sharing rooms through Redis (redis-py's asyncio client), as
lichess's socket servers share games: the room's record lives in Redis, and
every accepted move is published to the room's channel so that the relays
holding its other players deliver it.

Keys (PREFIX "triad:" by default):
  triad:room:<R>    hash: game, start, mode, seats (JSON of token digests), created
  triad:moves:<R>   list: the moves' JSON {"seat", "move"}, ply 1 first
  triad:events:<R>  channel: one JSON message per accepted move
                    {"origin": relay id, "room", "ply", "events": [...]}

Both keys expire --room-days after the room's last move, join or watch
(PEXPIRE, set again each time): Redis deletes the rooms nobody touches.

A move is checked by the relay that got it (against the list as it knows
it) and then appended by one Lua script that only appends when the room is
still there and its list still has ply-1 entries, and publishes in the same
step: Redis runs a script alone, so two relays can never both append a move
for the same ply, and the channel carries the moves in the list's order.

The rooms are only as safe as Redis keeps them: a relay refuses to start
against a Redis that persists nothing (no AOF, no RDB save points) unless
told --redis-volatile (check_persistence).
"""
import json
import time

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from host_tools.relay.store import DAY, RoomGone, RoomRecord, StoreError

POOL = 64  # connections a relay opens to Redis for its requests

APPEND = """
if redis.call('EXISTS', KEYS[3]) == 0 then
  return -1
end
if redis.call('LLEN', KEYS[1]) ~= tonumber(ARGV[1]) - 1 then
  return 0
end
redis.call('RPUSH', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[3], ARGV[4])
redis.call('PUBLISH', KEYS[2], ARGV[3])
return 1
"""


def _failed(e):
    return StoreError("Redis: %s" % (str(e) or type(e).__name__))


class RedisStore:
    def __init__(self, url, prefix="triad:", room_days=30.0):
        self.url = url
        self.prefix = prefix
        self.ttl_ms = max(1, int(room_days * DAY * 1000))
        # Requests give up after 5 s (a move is then refused, not held up),
        # over at most POOL connections (a burst of requests waits for one,
        # up to 5 s, rather than opening without bound); the channel has its
        # own connection, which may be idle for long.
        pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=POOL, timeout=5, decode_responses=True,
                                                        socket_timeout=5, socket_connect_timeout=5)
        self.r = aioredis.Redis(connection_pool=pool)
        self.sub = aioredis.from_url(url, decode_responses=True)
        self._append = self.r.register_script(APPEND)
        self.origin = None  # the relay's id, set by the server
        self._pubsub = None

    def _k(self, kind, room):
        return "%s%s:%s" % (self.prefix, kind, room)

    async def ping(self):
        try:
            await self.r.ping()
        except (RedisError, OSError) as e:
            raise _failed(e)

    async def run_id(self):
        """This Redis process's id: another after a restart."""
        try:
            return (await self.r.info("server")).get("run_id")
        except (RedisError, OSError) as e:
            raise _failed(e)

    async def check_persistence(self):
        """StoreError unless this Redis keeps its data over a restart (an
        append-only file, or at least one RDB save point)."""
        try:
            aof = (await self.r.config_get("appendonly")).get("appendonly", "")
            save = (await self.r.config_get("save")).get("save", "")
        except (RedisError, OSError) as e:
            raise StoreError("cannot ask Redis whether it persists (CONFIG GET: %s); if it does not, "
                             "--redis-volatile starts anyway" % (str(e) or type(e).__name__))
        if aof != "yes" and not save.strip():
            raise StoreError("Redis at %s keeps nothing over a restart (appendonly no, no save points): every "
                             "room would be lost; turn on appendonly (or save), or start with --redis-volatile"
                             % self.url)

    async def create(self, room, game, start, mode, seats):
        key = self._k("room", room)
        try:
            # HSETNX on the game field claims the id; the rest follows.
            if not await self.r.hsetnx(key, "game", game):
                return False
            async with self.r.pipeline(transaction=True) as p:
                p.hset(key, mapping={"start": start, "mode": mode or "", "seats": json.dumps(seats),
                                     "created": repr(time.time())})
                p.pexpire(key, self.ttl_ms)
                await p.execute()
        except (RedisError, OSError) as e:
            raise _failed(e)
        return True

    async def load(self, room):
        try:
            async with self.r.pipeline(transaction=True) as p:
                p.hgetall(self._k("room", room))
                p.lrange(self._k("moves", room), 0, -1)
                h, raw = await p.execute()
        except (RedisError, OSError) as e:
            raise _failed(e)
        if not h or "seats" not in h:
            return None
        moves = [json.loads(x)["move"] for x in raw]
        return RoomRecord(room, h["game"], h["start"], h["mode"] or None, json.loads(h["seats"]), moves)

    async def append(self, room, ply, seat, move, events):
        note = json.dumps({"origin": self.origin, "room": room, "ply": ply, "events": events})
        try:
            done = await self._append(keys=[self._k("moves", room), self._k("events", room), self._k("room", room)],
                                      args=[ply, json.dumps({"seat": seat, "move": move}), note, self.ttl_ms])
        except (RedisError, OSError) as e:
            raise _failed(e)
        if done == -1:
            raise RoomGone(room)
        return bool(done)

    async def touch(self, rooms):
        try:
            async with self.r.pipeline(transaction=False) as p:
                for room in rooms:
                    p.pexpire(self._k("room", room), self.ttl_ms)
                    p.pexpire(self._k("moves", room), self.ttl_ms)
                await p.execute()
        except (RedisError, OSError) as e:
            raise _failed(e)

    async def sweep(self, days):
        return []  # Redis expires the keys itself (PEXPIRE)

    async def listen(self, deliver, ready=None):
        """Call deliver(note) for every move another relay accepted, until
        cancelled; ready() once subscribed. One pattern subscription for
        every room: a relay drops the notes of rooms it holds no connection
        of (simple; a relay holding a small share of many rooms would
        subscribe per room)."""
        self._pubsub = ps = self.sub.pubsub(ignore_subscribe_messages=True)
        await ps.psubscribe(self.prefix + "events:*")
        if ready is not None:
            ready()
        async for msg in ps.listen():
            if msg.get("type") != "pmessage":
                continue
            try:
                note = json.loads(msg["data"])
            except ValueError:
                continue
            if note.get("origin") == self.origin:
                continue  # delivered by this relay when it accepted the move
            await deliver(note)

    async def close(self):
        for fn in ((self._pubsub.aclose if self._pubsub is not None else None), self.r.aclose,
                   self.r.connection_pool.disconnect, self.sub.aclose):
            if fn is None:
                continue
            try:
                await fn()
            except Exception:
                pass
