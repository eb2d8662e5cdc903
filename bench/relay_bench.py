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
  rooms<N>.*       moves_per_s and hop p50/p99 with N rooms (10, 100,
                   1,000) playing at once
  watch_state_cpu_ratio  the relay's CPU for a watch of a stored 150-ply
                   room nobody else holds, over its CPU for a state
                   (issue 45: at most 5)

The bench's one client address holds thousands of connections and makes
thousands of rooms an hour: its relays are started with the per-address
limits raised (BENCH_LIMITS).

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


BENCH_LIMITS = ["--max-per-address", "19000", "--rooms-per-hour", "1000000", "--watchers-per-room", "1000"]


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
    for `seconds`: (moves accepted, seconds, hop latencies in ms). The
    rooms' first games are made and joined before the clock starts (1,000
    rooms take longer to open than the run lasts on a loaded machine)."""
    scripts = random_games(min(rooms * 4, 400), seed)
    first = []
    for i in range(0, rooms, 50):
        first += await asyncio.gather(*(seat_pair(url_a, url_b) for _ in range(min(50, rooms - i))))
    deadline = time.monotonic() + seconds
    hops = []
    count = [0]
    refused = []

    async def one(k):
        n = 0
        pair = first[k]
        while time.monotonic() < deadline:
            made, seats = pair if pair is not None else await seat_pair(url_a, url_b)
            pair = None
            for side, text in scripts[(k * 4 + n) % len(scripts)]:
                if time.monotonic() >= deadline:
                    break
                other = [c for s, c in seats.items() if s != side][0]
                t0 = time.perf_counter()
                await seats[side].send({"op": "move", "move": text})
                mine = await seats[side].next_or_error()  # its own copy, or why it was refused
                if mine.get("op") == "error":
                    refused.append(mine.get("reason", ""))
                    break  # (this room's game ends here; a new room follows)
                ev = await other.next()
                hops.append((time.perf_counter() - t0) * 1000.0)
                assert ev["move"] == text, ev
                count[0] += 1
            n += 1
            for c in seats.values():
                await c.close()

    t = time.monotonic()
    await asyncio.gather(*(one(k) for k in range(rooms)))
    took = time.monotonic() - t
    if refused:
        print("relay bench: %d moves refused, e.g. %r" % (len(refused), sorted(set(refused))[:3]), file=sys.stderr,
              flush=True)
    return count[0], took, hops


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100.0 * len(xs)))] if xs else float("nan")


def cpu_s(pid):
    """User + system CPU seconds the process has used (/proc/PID/stat)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / float(os.sysconf("SC_CLK_TCK"))


def long_game(plies, seed):
    """A random legal Nehren game of `plies` moves that has not ended: each
    move drawn among those that do not end it ((side, move) pairs)."""
    rng = random.Random(seed)
    g = rules.Game("nehren")
    while len(g.moves) < plies:
        legal = g.legal()
        rng.shuffle(legal)
        for text in legal:
            if not rules.Game("nehren", moves=g.moves + [text]).over():
                g.play(text)
                break
        else:
            break  # every move ends it: the game as long as it got
    return list(zip(g.seats, g.moves))


async def watch_vs_state(url, rooms=40, plies=150, seed=45):
    """`rooms` stored rooms of the same `plies`-move Nehren game, nobody in
    them: (their ids, plies)."""
    script = long_game(plies, seed)
    made = []

    async def make_room():
        m, seats = await seat_pair(url, url)
        for side, text in script:
            while True:
                try:
                    await seats[side].move(text)
                    break
                except Exception as e:  # the rate limit (20 a second a connection): wait a little
                    if "too many messages" not in str(e):
                        raise
                    await asyncio.sleep(0.2)
        for c in seats.values():
            await c.close()
        made.append(m["room"])

    for i in range(0, rooms, 10):
        await asyncio.gather(*(make_room() for _ in range(min(10, rooms - i))))
    return made, len(script)


async def watchers(url, room_ids):
    """One connection watching each room, alone in it, its rate bucket full."""
    conns = [await AsyncClient.connect(url) for _ in room_ids]
    for c, r in zip(conns, room_ids):
        await c.watch(r)
    await asyncio.sleep(2.2)  # the rate bucket full again (40)
    return conns


async def fire(conns, room_ids, each, op):
    async def one(c, r):
        for _ in range(each):
            if op == "state":
                await c.request({"op": "state"})
            else:
                await c.request({"op": "watch", "room": r})

    await asyncio.gather(*(one(c, r) for c, r in zip(conns, room_ids)))


def watch_state_ratio(relay, tag, each=35):
    """Watch vs state CPU: the same connections (one alone in each stored
    room) send `each` states, then (the bucket refilled) `each` watches of
    their room. A watch that replayed the room's moves cost ~76 states."""
    async def go():
        rooms, plies = await watch_vs_state(relay.url)
        # Each connection alone in its room: a watch leaves the room and
        # enters it again, which replayed its moves when the room was
        # dropped with its last connection; now its position is kept.
        conns = await watchers(relay.url, rooms)
        c0 = cpu_s(relay.proc.pid)
        await fire(conns, rooms, each, "state")
        c1 = cpu_s(relay.proc.pid)
        await asyncio.sleep(2.2)
        await fire(conns, rooms, each, "watch")
        c2 = cpu_s(relay.proc.pid)
        for c in conns:
            await c.close()
        return plies, len(rooms) * each, c1 - c0, c2 - c1

    plies, n, cs, cw = asyncio.run(go())
    print("relay.%s.state_cpu: %.3f ms (relay CPU a state of a %d-ply room, %d requests)"
          % (tag, 1000.0 * cs / n, plies, n), flush=True)
    print("relay.%s.watch_cpu: %.3f ms (relay CPU a watch of the same room by a connection alone in it)"
          % (tag, 1000.0 * cw / n), flush=True)
    print("relay.%s.watch_state_cpu_ratio: %.2f x (issue 45: at most 5)" % (tag, cw / max(cs, 1e-9)), flush=True)


def figures(tag, relays, args):
    n, grown, alive = asyncio.run(hold_rooms(relays, args.rooms))
    print("relay.%s.rooms_held: %d rooms (%d connections; %d of %d sampled answered)"
          % (tag, n, 2 * n, alive, len(range(0, n, max(1, n // 100)))), flush=True)
    print("relay.%s.memory_per_room: %.1f KB (RSS growth of the relay process%s)"
          % (tag, grown / float(n), "es" if len(relays) > 1 else ""), flush=True)
    for level in args.levels:
        cpu0 = sum(cpu_s(r.proc.pid) for r in relays)
        moves, took, hops = asyncio.run(busy_rooms(relays[0].url, relays[-1].url, level, args.seconds))
        cpu = sum(cpu_s(r.proc.pid) for r in relays) - cpu0
        name = "alone" if level == 1 else "rooms%d" % level
        print("relay.%s.%s.moves_per_s: %.0f moves/s (%d moves in %.1f s, %d rooms playing at once)"
              % (tag, name, moves / took, moves, took, level), flush=True)
        # The relays' own CPU a move (the rooms' creation and joins included):
        # what the machine's load does not change, unlike the others.
        print("relay.%s.%s.cpu_per_move: %.2f ms (relay CPU time, %s)"
              % (tag, name, 1000.0 * cpu / max(1, moves), "both relays" if len(relays) > 1 else "one process"),
              flush=True)
        print("relay.%s.%s.move_hop_p50: %.2f ms" % (tag, name, pct(hops, 50)), flush=True)
        print("relay.%s.%s.move_hop_p99: %.2f ms" % (tag, name, pct(hops, 99)), flush=True)
    watch_state_ratio(relays[0], tag)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rooms", type=int, default=2000)
    ap.add_argument("--busy", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=8.0)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    args.levels = (1, 10, 100, 1000)
    # A SIGTERM (bench.py's timeout, a person) unwinds through the finally
    # blocks below, so the relays and redis-server it started stop too.
    import signal

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.quick:
        args.rooms, args.busy, args.seconds = 300, 10, 3.0
        args.levels = (1, 10, 100)
    with tempfile.TemporaryDirectory(prefix="triad-relay-bench-") as d:
        with Relay(store=os.path.join(d, "rooms.sqlite"), extra=BENCH_LIMITS) as r:
            figures("one", [r], args)
    if not have_redis():
        print("relay.redis.SKIPPED: redis-server is not installed (make redis-deps)", flush=True)
        return 0
    with RedisServer() as redis:
        a = Relay(redis=redis.url, extra=BENCH_LIMITS)
        b = Relay(redis=redis.url, extra=BENCH_LIMITS)
        try:
            figures("redis_pair", [a, b], args)
        finally:
            a.stop()
            b.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
