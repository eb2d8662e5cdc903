"""Issue 38, `make bench`: the time from a move committed on one simulated
board to its light on the other, through a real relay on loopback.

Two simulated boards (tests/host/online_board.py: `host_tools online`'s
bridge and a simulated person; one process each) play whole games of
Nehren's Triad in a room of a relay process on 127.0.0.1: for one relay,
and for two relays sharing the room through Redis (a board on each; Debian's
redis-server on a free loopback port, skipped without it). Each bridge logs,
on the host's monotonic clock (one clock for every process on the machine),
when the board's commit event came in ("commit") and when the board answered
`ok remote` for the room's move ("lit": the board draws it on its next
tick, at most 10 ms later). For every ply the other board lit:
latency = lit - commit. Bounded: GAMES games, each stopped after PLIES
moves at most, each board process killed after TIMEOUT s.

Prints "online.<setup>_commit_to_light_p50: <ms> ms" (p50, p99, and the
count of moves measured).
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests", "host"))

from relay_kit import Relay, RedisServer, have_redis  # noqa: E402

HARNESS = os.path.join(ROOT, "tests", "host", "online_board.py")
GAMES = 4
PLIES = 60
TIMEOUT = 300


def play(urls, room, seats, tmp, seed):
    procs, stats = [], []
    for i, (side, token) in enumerate(seats.items()):
        path = os.path.join(tmp, "stats-%d-%s.jsonl" % (seed, side))
        stats.append(path)
        procs.append(subprocess.Popen(
            [sys.executable, HARNESS, "--port", "sim:%d" % (seed * 10 + i), "--server", urls[i % len(urls)],
             "--room", room, "--token=" + token, "--seed", str(seed * 10 + i), "--game", "nehren",
             "--plies", str(PLIES), "--quiet", "--stats", path],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    for p in procs:
        try:
            p.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            for q in procs:
                q.kill()
            raise SystemExit("online_latency: a board did not finish within %d s" % TIMEOUT)
    commits, lits = {}, {}
    for path in stats:
        with open(path) as f:
            for line in f:
                ply, ev, t = json.loads(line)
                (commits if ev == "commit" else lits)[ply] = t
    return [(lits[p] - commits[p]) * 1000 for p in commits if p in lits]


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def measure(urls, tmp):
    from host_tools.relay.client import Client

    lat = []
    for g in range(GAMES):
        with Client(urls[0]) as c:
            made = c.create("nehren")
        lat += play(urls, made["room"], made["seats"], tmp, g + 1)
    return lat


def report(name, lat):
    if not lat:
        print("online.%s_commit_to_light: SKIPPED no move measured" % name)
        return
    print("online.%s_commit_to_light_p50: %.1f ms" % (name, pct(lat, 0.5)))
    print("online.%s_commit_to_light_p99: %.1f ms" % (name, pct(lat, 0.99)))
    print("online.%s_moves_measured: %d moves" % (name, len(lat)))


def main():
    with tempfile.TemporaryDirectory(prefix="triad-online-bench-") as tmp:
        with Relay(store=os.path.join(tmp, "one.sqlite")) as r:
            report("one_relay", measure([r.url], tmp))
        if not have_redis():
            print("online.two_relays_commit_to_light: SKIPPED no redis-server (make redis-deps)")
            return 0
        with RedisServer() as redis:
            with Relay(store=os.path.join(tmp, "a.sqlite"), redis=redis.url) as a, \
                    Relay(store=os.path.join(tmp, "b.sqlite"), redis=redis.url) as b:
                report("two_relays_redis", measure([a.url, b.url], tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
