"""The relay's figures (issue 38; docs/performance.md, "The relay"): for one
relay (SQLite store) and for two relays sharing rooms through Redis:

  rooms_held       live rooms (two seated connections each) one relay
                   process holds at once, and its memory per room
  moves_per_s      moves accepted per second by the relay(s), many rooms
                   playing at once (each move judged by the rules core and
                   stored)
  cpu_per_move     the relays' CPU time a move (what a loaded machine does
                   not change)
  move_hop_p50/p99 ms from a seat sending its move to the other seat
                   receiving it (on the other relay in the pair)
  alone_hop_p50/p99 the same with one room playing alone

Everything runs on this machine's loopback (127.0.0.1), bounded in rooms and
seconds, and stops by itself. Prints `name: value unit` lines.

    python bench/relay_bench.py [--rooms N] [--busy N] [--seconds S] [--quick]
"""
import argparse
import asyncio
import os
import random
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests", "host"))

from host_tools.relay import rules  # noqa: E402
from host_tools.relay.client import AsyncClient  # noqa: E402
from relay_kit import Relay, RedisServer, have_redis  # noqa: E402


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def seat_pair(url_a, url_b, game="nehren"):
    host = await AsyncClient.connect(url_a)
    made = await host.create(game)
    await host.close()
    sides = list(made["seats"])
    a = await AsyncClient.connect(url_a)
    b = await AsyncClient.connect(url_b)
    await a.join(made["room"], made["seats"][sides[0]])
    await b.join(made["room"], made["seats"][sides[1]])
    return made, {sides[0]: a, sides[1]: b}


async def hold_rooms(relays, n):
    """n rooms, their seats spread over the relays; (rooms, RSS growth KB)."""
    before = sum(rss_kb(r.proc.pid) for r in relays)
    pairs = []
    for i in range(0, n, 50):
        batch = [seat_pair(relays[0].url, relays[-1].url) for _ in range(min(50, n - i))]
        pairs += await asyncio.gather(*batch)
    await asyncio.sleep(0.5)
    grown = sum(rss_kb(r.proc.pid) for r in relays) - before
    # Every room still answers: a state round trip through one seat of each.
    alive = 0
    for _, seats in pairs[:: max(1, n // 100)]:
        c = next(iter(seats.values()))
        st = await c.request({"op": "state"})
        alive += st["op"] == "state"
    for _, seats in pairs:
        for c in seats.values():
            await c.close()
    return len(pairs), grown, alive


def random_games(n, seed):
    """n random legal Nehren games (side, move) lists, made before the clock
    starts so that the clients' own work does not weigh on the figures."""
    out = []
    for k in range(n):
        rng = random.Random(seed * 1000 + k)
        g = rules.Game("nehren")
        moves = []
        while not g.over():
            side = g.to_move()
            moves.append((side, g.play(rng.choice(g.legal()))))
        out.append(moves)
    return out


async def busy_rooms(url_a, url_b, rooms, seconds, seed=38):
    """Rooms playing random legal Nehren games (a new room when one ends)
    for `seconds`: (moves accepted, seconds, hop latencies in ms)."""
    scripts = random_games(rooms * 4, seed)
    deadline = time.monotonic() + seconds
    hops = []
    count = [0]

    async def one(k):
        n = 0
        while time.monotonic() < deadline:
            made, seats = await seat_pair(url_a, url_b)
            for side, text in scripts[(k * 4 + n) % len(scripts)]:
                if time.monotonic() >= deadline:
                    break
                other = [c for s, c in seats.items() if s != side][0]
                t0 = time.perf_counter()
                await seats[side].send({"op": "move", "move": text})
                ev = await other.next()
                hops.append((time.perf_counter() - t0) * 1000.0)
                assert ev["move"] == text, ev
                await seats[side].next()  # its own copy
                count[0] += 1
            n += 1
            for c in seats.values():
                await c.close()

    t = time.monotonic()
    await asyncio.gather(*(one(k) for k in range(rooms)))
    return count[0], time.monotonic() - t, hops


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100.0 * len(xs)))] if xs else float("nan")


def cpu_s(pid):
    """User + system CPU seconds the process has used (/proc/PID/stat)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / float(os.sysconf("SC_CLK_TCK"))


def figures(tag, relays, args):
    n, grown, alive = asyncio.run(hold_rooms(relays, args.rooms))
    print("relay.%s.rooms_held: %d rooms (%d connections; %d of %d sampled answered)"
          % (tag, n, 2 * n, alive, len(range(0, n, max(1, n // 100)))), flush=True)
    print("relay.%s.memory_per_room: %.1f KB (RSS growth of the relay process%s)"
          % (tag, grown / float(n), "es" if len(relays) > 1 else ""), flush=True)
    cpu0 = sum(cpu_s(r.proc.pid) for r in relays)
    moves, took, hops = asyncio.run(busy_rooms(relays[0].url, relays[-1].url, args.busy, args.seconds))
    cpu = sum(cpu_s(r.proc.pid) for r in relays) - cpu0
    print("relay.%s.moves_per_s: %.0f moves/s (%d moves in %.1f s, %d rooms playing at once)"
          % (tag, moves / took, moves, took, args.busy), flush=True)
    # The relays' own CPU a move (the room's creation and joins included):
    # what the machine's load does not change, unlike the two above.
    print("relay.%s.cpu_per_move: %.2f ms (relay CPU time, %s)"
          % (tag, 1000.0 * cpu / max(1, moves), "both relays" if len(relays) > 1 else "one process"), flush=True)
    print("relay.%s.move_hop_p50: %.2f ms" % (tag, pct(hops, 50)), flush=True)
    print("relay.%s.move_hop_p99: %.2f ms" % (tag, pct(hops, 99)), flush=True)
    # One room playing alone: the hop a player feels, without the queue of
    # the other rooms' moves in the client and the relay.
    moves, took, hops = asyncio.run(busy_rooms(relays[0].url, relays[-1].url, 1, min(3.0, args.seconds), seed=7))
    print("relay.%s.alone_hop_p50: %.2f ms (one room playing, %d moves)" % (tag, pct(hops, 50), moves), flush=True)
    print("relay.%s.alone_hop_p99: %.2f ms" % (tag, pct(hops, 99)), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rooms", type=int, default=2000)
    ap.add_argument("--busy", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=8.0)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    # A SIGTERM (bench.py's timeout, a person) unwinds through the finally
    # blocks below, so the relays and redis-server it started stop too.
    import signal

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.quick:
        args.rooms, args.busy, args.seconds = 300, 10, 3.0
    with tempfile.TemporaryDirectory(prefix="triad-relay-bench-") as d:
        with Relay(store=os.path.join(d, "rooms.sqlite")) as r:
            figures("one", [r], args)
    if not have_redis():
        print("relay.redis.SKIPPED: redis-server is not installed (make redis-deps)", flush=True)
        return 0
    with RedisServer() as redis:
        a = Relay(redis=redis.url)
        b = Relay(redis=redis.url)
        try:
            figures("redis_pair", [a, b], args)
        finally:
            a.stop()
            b.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
