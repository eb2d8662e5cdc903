"""Relays sharing rooms through Redis (redis-py's asyncio client), as
lichess's socket servers share games: the room's record lives in Redis, and
every accepted move is published to the room's channel so that the relays
holding its other players deliver it.

Keys (PREFIX "triad:" by default):
  triad:room:<R>    hash: game, start, mode, seats (JSON of token digests), created
  triad:moves:<R>   list: the moves' JSON {"seat", "move"}, ply 1 first
  triad:events:<R>  channel: one JSON message per accepted move
                    {"origin": relay id, "room", "ply", "events": [...]}

A move is checked by the relay that got it (against the list as it knows
it) and then appended by one Lua script that only appends when the list
still has ply-1 entries and publishes in the same step: Redis runs a script
alone, so two relays can never both append a move for the same ply, and the
channel carries the moves in the list's order.
"""
import json
import time

import redis.asyncio as aioredis

APPEND = """
if redis.call('LLEN', KEYS[1]) ~= tonumber(ARGV[1]) - 1 then
  return 0
end
redis.call('RPUSH', KEYS[1], ARGV[2])
redis.call('PUBLISH', KEYS[2], ARGV[3])
return 1
"""


class RedisStore:
    def __init__(self, url, prefix="triad:"):
        self.url = url
        self.prefix = prefix
        # Requests give up after 5 s (a move is then refused, not held up);
        # the channel has its own connection, which may be idle for long.
        self.r = aioredis.from_url(url, decode_responses=True, socket_timeout=5, socket_connect_timeout=5)
        self.sub = aioredis.from_url(url, decode_responses=True)
        self._append = self.r.register_script(APPEND)
        self.origin = None  # the relay's id, set by the server
        self._pubsub = None

    def _k(self, kind, room):
        return "%s%s:%s" % (self.prefix, kind, room)

    async def ping(self):
        await self.r.ping()

    async def create(self, room, game, start, mode, seats):
        key = self._k("room", room)
        # HSETNX on the game field claims the id; the rest follows.
        if not await self.r.hsetnx(key, "game", game):
            return False
        await self.r.hset(key, mapping={"start": start, "mode": mode or "", "seats": json.dumps(seats),
                                        "created": repr(time.time())})
        return True

    async def load(self, room):
        from host_tools.relay.store import RoomRecord

        async with self.r.pipeline(transaction=True) as p:
            p.hgetall(self._k("room", room))
            p.lrange(self._k("moves", room), 0, -1)
            h, raw = await p.execute()
        if not h or "seats" not in h:
            return None
        moves = [json.loads(x)["move"] for x in raw]
        return RoomRecord(room, h["game"], h["start"], h["mode"] or None, json.loads(h["seats"]), moves)

    async def append(self, room, ply, seat, move, events):
        note = json.dumps({"origin": self.origin, "room": room, "ply": ply, "events": events})
        done = await self._append(keys=[self._k("moves", room), self._k("events", room)],
                                  args=[ply, json.dumps({"seat": seat, "move": move}), note])
        return bool(done)

    async def listen(self, deliver):
        """Call deliver(note) for every move another relay accepted, until
        cancelled. One pattern subscription for every room: a relay drops
        the notes of rooms it holds no connection of (simple; a relay
        holding a small share of many rooms would subscribe per room)."""
        self._pubsub = ps = self.sub.pubsub(ignore_subscribe_messages=True)
        await ps.psubscribe(self.prefix + "events:*")
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
        if self._pubsub is not None:
            await self._pubsub.aclose()
        await self.r.aclose()
        await self.sub.aclose()
