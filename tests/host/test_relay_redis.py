"""Two relays sharing rooms through Redis (issue 38, docs/relay.md): a
client on relay A plays a client on relay B; no ply is ever accepted twice.
The tests start Debian's redis-server themselves on a free loopback port
(`make redis-deps` installs it)."""
import random
import threading

import pytest

from host_tools.relay import rules
from host_tools.relay.client import Client, RelayError
from relay_kit import Relay, RedisServer, have_redis

pytestmark = pytest.mark.skipif(not have_redis(), reason="redis-server is not installed (make redis-deps)")


@pytest.fixture
def pair():
    with RedisServer() as redis:
        a = Relay(redis=redis.url)
        b = Relay(redis=redis.url)
        try:
            yield a, b
            assert a.alive() and b.alive(), "a relay died during the test"
        finally:
            a.stop()
            b.stop()


@pytest.mark.parametrize("name", ["nehren", "browne"])
def test_a_game_across_two_relays(pair, name):
    a, b = pair
    made = Client(a.url).create(name)  # made on A ...
    sides = list(made["seats"])
    clients = {}
    for i, side in enumerate(sides):  # ... the seats on A and B in turn
        clients[side] = Client((a if i % 2 == 0 else b).url)
        clients[side].join(made["room"], made["seats"][side])
    watch_a, watch_b = Client(a.url), Client(b.url)
    watch_a.watch(made["room"])
    watch_b.watch(made["room"])
    mirror = rules.Game(name)
    rng = random.Random(38)
    while not mirror.over():
        side = mirror.to_move()
        ev = clients[side].move(mirror.play(rng.choice(mirror.legal())))
        assert ev["ply"] == len(mirror.moves)
        for other, c in clients.items():
            if other != side:
                assert c.next() == ev
        assert watch_a.next() == ev and watch_b.next() == ev
    for c in list(clients.values()) + [watch_a, watch_b]:
        over = c.next()
        assert over["op"] == "over" and over["result"] == mirror.result()
    for r in (a, b):  # both relays hold the same record
        st = Client(r.url).watch(made["room"])
        assert st["moves"] == mirror.moves and st["result"] == mirror.result()


def test_two_relays_never_accept_the_same_ply(pair):
    # The seat to move is joined on both relays (a board and a page of the
    # same player, say) and sends a different legal move through each at the
    # same moment: exactly one is accepted, and both relays agree which.
    a, b = pair
    made = Client(a.url).create("nehren")
    room, tokens = made["room"], made["seats"]
    on_a = {s: Client(a.url) for s in tokens}
    on_b = {s: Client(b.url) for s in tokens}
    for s in tokens:
        on_a[s].join(room, tokens[s])
        on_b[s].join(room, tokens[s])
    watcher = Client(b.url)
    watcher.watch(room)
    mirror = rules.Game("nehren")
    rng = random.Random(7)
    for rnd in range(12):
        side = mirror.to_move()
        choices = rng.sample(mirror.legal(), 2)
        results = [None, None]

        def send(i, client, text):
            try:
                results[i] = client.move(text)
            except RelayError as e:
                results[i] = e

        ts = [threading.Thread(target=send, args=(0, on_a[side], choices[0])),
              threading.Thread(target=send, args=(1, on_b[side], choices[1]))]
        for t in ts:
            t.start()
        for t in ts:
            t.join(20)
        seen = watcher.next()
        assert seen["ply"] == rnd + 1
        mirror.play(seen["move"])
        assert seen["move"] in choices
        # One sender's move was accepted (its reply is the move everyone
        # saw), the other's refused; the record has one move for this ply.
        accepted = [r for r in results if isinstance(r, dict)]
        refused = [r for r in results if isinstance(r, RelayError)]
        assert accepted == [seen] and len(refused) == 1, results
        for c in list(on_a.values()) + list(on_b.values()):
            c.state()  # drop what each has pending: the next round starts level
        assert quiet_after(watcher)
    for r in (a, b):
        st = Client(r.url).watch(room)
        assert st["moves"] == mirror.moves


def quiet_after(client):
    try:
        msg = client.next(timeout=0.3)
    except TimeoutError:
        return True
    raise AssertionError("a second move for one ply: %r" % (msg,))


def test_a_move_the_store_does_not_confirm_is_never_counted_twice():
    # Redis stops answering mid-game: the move is refused with a reason (not
    # confirmed), the relay serves on; when Redis is back the room is read
    # from the record: the move is either there (and everyone gets it once)
    # or not (and sent again with its ply, it is made once).
    import os
    import signal

    with RedisServer() as redis:
        a = Relay(redis=redis.url)
        try:
            made = Client(a.url).create("nehren")
            clients = {s: Client(a.url) for s in made["seats"]}
            for s, c in clients.items():
                c.join(made["room"], made["seats"][s])
            clients["b"].move("a1a3")
            clients["w"].next()
            clients["w"].timeout = 60
            os.kill(redis.proc.pid, signal.SIGSTOP)  # Redis hangs ...
            try:
                with pytest.raises(RelayError, match="not confirmed"):
                    clients["w"].move("f6f4", ply=2)
            finally:
                os.kill(redis.proc.pid, signal.SIGCONT)  # ... and is back
            st = clients["w"].state()
            assert st["moves"] in (["a1a3"], ["a1a3", "f6f4"])
            if st["moves"] == ["a1a3"]:
                assert clients["w"].move("f6f4", ply=2)["ply"] == 2
            else:
                with pytest.raises(RelayError, match="not the next move|not your turn"):
                    clients["w"].move("f6f4", ply=2)
            assert clients["b"].next() == {"op": "move", "ply": 2, "seat": "w", "move": "f6f4"}
            with pytest.raises(TimeoutError):
                clients["b"].next(timeout=0.5)  # once, never twice
            assert Client(a.url).watch(made["room"])["moves"] == ["a1a3", "f6f4"]
            assert a.alive()
        finally:
            a.stop()
