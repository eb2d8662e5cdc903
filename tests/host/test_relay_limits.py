"""What one stranger may take from a relay (issue 45, docs/relay.md "Limits
and security"): connections an address holds, pages of other sites, rooms an
hour, rooms that end, private store files, start-up failures in one line, a
flood cut at once, a ply that is a number, the page's headers, health and
metrics. Real `python -m host_tools serve` processes on loopback, each test
bounded to a few dozen connections and a few seconds."""
import json
import os
import socket
import sqlite3
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from host_tools.relay.client import Client, RelayError
from relay_kit import ROOT, RedisServer, Relay, free_port, have_redis


def ws(url, source=None, **kw):
    """A raw WebSocket to the relay, from `source` (another loopback address) if given."""
    sock = None
    if source is not None:
        host, port = url.split("//")[1].split("/")[0].rsplit(":", 1)
        sock = socket.socket()
        sock.bind((source, 0))
        sock.connect((host, int(port)))
    return connect(url, sock=sock, compression=None, proxy=None, open_timeout=10, legacy=True, **kw)


def ask(conn, msg):
    conn.send(json.dumps(msg))
    return json.loads(conn.recv(timeout=10))


def status_of(excinfo):
    return excinfo.value.response.status_code


def http(relay, path, headers=None):
    base = relay.url.replace("ws://", "http://").rsplit("/", 1)[0]
    req = urllib.request.Request(base + path, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read().decode()


def handshakes(url, n):
    """n WebSocket handshakes from one address as fast as it can, each socket
    held open afterwards as a flooder holds them: the sockets, and how many
    got each HTTP status."""
    import base64

    host, port = url.split("//")[1].split("/")[0].rsplit(":", 1)
    socks, codes = [], {}
    for _ in range(n):
        s = socket.create_connection((host, int(port)), 10)
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall(("GET /play HTTP/1.1\r\nHost: %s:%s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (host, port, key)).encode())
        socks.append(s)
    for s in socks:
        s.settimeout(10)
        head = b""
        while b"\r\n" not in head:
            got = s.recv(64)
            if not got:
                break
            head += got
        code = int(head.split()[1]) if head.startswith(b"HTTP/") else None
        codes[code] = codes.get(code, 0) + 1
    return socks, codes


def open_files(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


def test_one_address_holds_at_most_its_share_of_connections():
    # The default, 64: the 65th WebSocket from 127.0.0.1 is refused at its
    # handshake (429); another address is still served; closing one frees
    # its slot. The relay raised its open-file limit at start, so the cap is
    # met long before the file limit.
    def low_files():
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (256, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

    r = Relay(preexec_fn=low_files)
    held, flood = [], []
    try:
        with open("/proc/%d/limits" % r.proc.pid) as f:
            soft = [line.split()[3] for line in f if line.startswith("Max open files")][0]
        assert soft == "unlimited" or int(soft) > 256, "the relay kept the open-file soft limit of 256"
        held = [ws(r.url) for _ in range(64)]
        with pytest.raises(InvalidStatus) as e:
            ws(r.url)
        assert status_of(e) == 429
        other = ws(r.url, source="127.0.0.2")  # 127.0.0.2 is loopback too: another address, still served
        assert ask(other, {"op": "games"})["op"] == "games"
        # A flood from the full address: 300 handshakes held open, every one
        # refused, and cut within about a second though the flooder never
        # closes them (websockets waited 10 s for it: a file each meanwhile).
        flood, codes = handshakes(r.url, 300)
        assert codes == {429: 300}, codes
        t0 = time.monotonic()
        while open_files(r.proc.pid) > 64 + 20 and time.monotonic() - t0 < 3.0:
            time.sleep(0.1)
        assert open_files(r.proc.pid) <= 64 + 20, "%d files open 3 s after the flood" % open_files(r.proc.pid)
        assert ask(other, {"op": "games"})["op"] == "games"
        held.pop().close()
        # The slot is free once the relay has seen the close: on a busy
        # machine that may take more than a moment, so the handshake is
        # tried again (429 meanwhile) for up to 5 s.
        t0 = time.monotonic()
        while True:
            try:
                again = ws(r.url)
                break
            except InvalidStatus as e:
                assert status_of(e) == 429
                assert time.monotonic() - t0 < 5.0, "closing a connection did not free its slot within 5 s"
                time.sleep(0.1)
        again.send(json.dumps({"op": "games"}))
        assert json.loads(again.recv(timeout=10))["op"] == "games"
        held.append(again)
        assert r.alive()
        status, _, text = http(r, "/metrics", {})
        # (the metrics page is one more connection from the address: refused too)
        assert status == 429
        other.close()
    finally:
        for c in held:
            c.close()
        for s in flood:
            s.close()
        r.stop()
    assert r.err.count("\n") <= 2, r.err[:2000]  # (it grew by thousands of lines a second)


@pytest.fixture
def relay(tmp_path):
    r = Relay(store=str(tmp_path / "relay.sqlite"), extra=["--allow-origin", "https://board.example"])
    yield r
    alive = r.alive()
    r.stop()
    assert alive, "the relay died during the test"


def test_a_page_of_another_site_is_refused(relay):
    port = relay.url.rsplit(":", 1)[1].split("/")[0]
    for origin in ("http://evil.example", "http://127.0.0.1:%d" % (int(port) + 1), "null",
                   "https://board.example.evil"):
        with pytest.raises(InvalidStatus) as e:
            ws(relay.url, origin=origin)
        assert status_of(e) == 403, origin
    # Its own page, a listed origin, and no Origin at all (boards, terminals) are served.
    for origin in ("http://127.0.0.1:%s" % port, "https://board.example", None):
        c = ws(relay.url, origin=origin)
        c.send(json.dumps({"op": "games"}))
        assert json.loads(c.recv(timeout=10))["op"] == "games"
        c.close()
    # A stranger's name pointed at this machine (DNS rebinding): its page's
    # Origin and Host agree, and still name no address of the relay's.
    assert handshake_status(relay.url, "evil.example:%s" % port, "http://evil.example:%s" % port) == 403
    assert handshake_status(relay.url, "localhost:%s" % port, "http://localhost:%s" % port) == 101
    assert handshake_status(relay.url, "board.example", "https://board.example") == 101  # (--allow-origin)
    text = http(relay, "/metrics")[2]
    assert 'triad_relay_refusals_total{reason="origin"} 5' in text


def handshake_status(url, host, origin):
    """The HTTP status of a WebSocket handshake sent with this Host and Origin."""
    import base64

    addr, port = url.split("//")[1].split("/")[0].rsplit(":", 1)
    with socket.create_connection((addr, int(port)), 10) as s:
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall(("GET /play HTTP/1.1\r\nHost: %s\r\nOrigin: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (host, origin, key)).encode())
        s.settimeout(10)
        head = b""
        while b"\r\n" not in head:
            got = s.recv(64)
            if not got:
                break
            head += got
    return int(head.split()[1])


def test_rooms_an_hour_are_counted_per_address_across_connections(relay):
    # The default, 60 an hour: three connections make 20 each (a connection's
    # own cap), a fourth connection's first is refused, and another address
    # still makes its rooms.
    for _ in range(3):
        with Client(relay.url) as c:
            for _ in range(20):
                c.create("nehren")
    with Client(relay.url) as c:
        with pytest.raises(RelayError, match="too many rooms"):
            c.create("nehren")
    other = ws(relay.url, source="127.0.0.2")
    assert ask(other, {"op": "create", "game": "browne"})["op"] == "created"
    other.close()


def test_rooms_nobody_touched_for_room_days_are_deleted(tmp_path):
    store = str(tmp_path / "relay.sqlite")
    with Relay(store=store) as r:
        c = Client(r.url)
        old, new = c.create("nehren"), c.create("nehren")
        p = Client(r.url)
        p.join(old["room"], old["seats"]["b"])
        p.move("a1a3")
        c.close()
        p.close()
    db = sqlite3.connect(store)
    day = 86400.0
    db.execute("UPDATE rooms SET touched=? WHERE id=?", (time.time() - 31 * day, old["room"]))
    db.execute("UPDATE rooms SET touched=? WHERE id=?", (time.time() - 29 * day, new["room"]))
    db.commit()
    db.close()
    with Relay(store=store) as r:  # --room-days 30, the default
        c = Client(r.url)
        with pytest.raises(RelayError, match="no room"):
            c.watch(old["room"])
        assert c.watch(new["room"])["moves"] == []
    db = sqlite3.connect(store)
    assert db.execute("SELECT COUNT(*) FROM moves WHERE room=?", (old["room"],)).fetchone()[0] == 0
    db.close()


@pytest.mark.skipif(not have_redis(), reason="redis-server is not installed (make redis-deps)")
def test_rooms_shared_through_redis_expire_after_room_days():
    # Redis deletes a room's keys --room-days after its last move, join or
    # watch (here 3 s): a room nobody is in goes; one a connection holds is
    # touched again while it is held, and stays.
    import redis

    with RedisServer() as server:
        with Relay(redis=server.url, extra=["--room-days", "%.8f" % (3.0 / 86400)]) as r:
            c = Client(r.url)
            left, held = c.create("nehren"), c.create("nehren")
            b = Client(r.url)
            b.join(left["room"], left["seats"]["b"])
            b.move("a1a3")
            b.close()
            watcher = Client(r.url)
            watcher.watch(held["room"])
            keys = redis.Redis.from_url(server.url)
            assert keys.exists("triad:room:" + left["room"], "triad:moves:" + left["room"]) == 2
            time.sleep(5.5)  # (3 s from its last touch; the relay's sweep runs every 0.75 s)
            assert keys.exists("triad:room:" + left["room"], "triad:moves:" + left["room"]) == 0
            with pytest.raises(RelayError, match="no room"):
                Client(r.url).watch(left["room"])
            assert keys.exists("triad:room:" + held["room"]) == 1
            assert Client(r.url).watch(held["room"])["moves"] == []
            keys.close()


def test_the_store_files_are_the_relays_alone(tmp_path):
    store = str(tmp_path / "relay.sqlite")
    old = os.umask(0o022)
    try:
        with Relay(store=store) as r:
            c = Client(r.url)
            made = c.create("nehren")
            c.join(made["room"], made["seats"]["b"])
            c.move("a1a3")
            files = [p for p in (store, store + "-wal", store + "-shm") if os.path.exists(p)]
            assert store + "-wal" in files
            for p in files:
                assert stat.S_IMODE(os.stat(p).st_mode) == 0o600, p
    finally:
        os.umask(old)


def serve_fails(args, tmp_path):
    p = subprocess.run([sys.executable, "-m", "host_tools", "serve", "--port", "0"] + args, cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode != 0 and p.stdout == "", (p.returncode, p.stdout)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("serve:") and "Traceback" not in p.stderr, p.stderr
    return lines[0]


def test_a_store_that_cannot_be_used_stops_the_start_in_one_line(tmp_path):
    (tmp_path / "file").write_text("x")
    (tmp_path / "junk.sqlite").write_bytes(b"not a database, not at all" * 200)
    (tmp_path / "dir.sqlite").mkdir()
    assert "store" in serve_fails(["--store", str(tmp_path / "file" / "relay.sqlite")], tmp_path)
    assert "not a database" in serve_fails(["--store", str(tmp_path / "junk.sqlite")], tmp_path)
    assert "store" in serve_fails(["--store", str(tmp_path / "dir.sqlite")], tmp_path)
    line = serve_fails(["--redis", "redis://127.0.0.1:%d/0" % free_port()], tmp_path)
    assert "cannot reach" in line
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        assert "cannot listen" in serve_fails(["--port", str(taken.getsockname()[1]), "--store", ":memory:"],
                                              tmp_path)
    finally:
        taken.close()
    assert "cannot listen on 127.0.0.1 port 70000" in serve_fails(["--port", "70000", "--store", ":memory:"], tmp_path)


@pytest.mark.skipif(not have_redis(), reason="redis-server is not installed (make redis-deps)")
def test_a_redis_that_keeps_nothing_is_refused_unless_volatile(tmp_path):
    with RedisServer(persist=False) as redis:
        line = serve_fails(["--redis", redis.url], tmp_path)
        assert "keeps nothing" in line and "--redis-volatile" in line
        with Relay(redis=redis.url, extra=["--redis-volatile"]) as r:
            assert Client(r.url).create("nehren")["op"] == "created"


def raw_flooder(url):
    """A WebSocket client at the socket level (the handshake, then masked
    text frames): it sends and never reads, as a flooder does."""
    import base64

    host, port = url.split("//")[1].split("/")[0].rsplit(":", 1)
    sock = socket.create_connection((host, int(port)), 10)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(("GET /play HTTP/1.1\r\nHost: %s:%s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (host, port, key)).encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    payload = json.dumps({"op": "state"}).encode()
    mask = os.urandom(4)
    frame = bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return sock, frame


def test_a_flood_is_closed_within_a_second(relay):
    # A connection that sends as fast as it can and reads nothing: cut
    # within a second of passing its limit (40 at once, then 200 refused in
    # a row), however full its own socket is. (It took 10 s: the relay
    # waited for a close handshake the flooder never read.)
    sock, frame = raw_flooder(relay.url)
    sock.settimeout(0.2)
    t0 = time.monotonic()
    closed = None
    while time.monotonic() - t0 < 20:
        try:
            sock.send(frame * 50)
        except socket.timeout:
            continue  # its buffers are full: the relay reads no more of it
        except OSError:
            closed = time.monotonic() - t0
            break
    sock.close()
    assert closed is not None, "the flooding connection was not closed in 20 s"
    assert closed < 2.0, "closed %.1f s after the flood began" % closed
    assert Client(relay.url).request({"op": "games"})["op"] == "games"  # the relay serves on


@pytest.mark.parametrize("ply", ["true", "1.0", "\"1\"", "[1]", "false"])
def test_a_ply_must_be_a_json_integer(relay, ply):
    c = Client(relay.url)
    made = c.create("nehren")
    c.join(made["room"], made["seats"]["b"])
    c.ws.send('{"op":"move","move":"a1a3","ply":%s,"id":9}' % ply)
    reply = json.loads(c.ws.recv(timeout=10))
    assert reply["op"] == "error" and "ply must be" in reply["reason"], reply
    assert c.state()["moves"] == []  # the room is unchanged
    assert c.move("a1a3", ply=1)["ply"] == 1


def test_the_page_sends_security_headers_and_no_version(relay):
    status, headers, body = http(relay, "/")
    assert status == 200 and "/play" in body
    policy = headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy and "connect-src 'self'" in policy
    assert "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]  # scripts by hash only
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    for path in ("/", "/nothing-here", "/healthz"):
        server = http(relay, path)[1].get("Server")
        assert server is None or not any(ch.isdigit() for ch in server), server
    c = ws(relay.url)
    server = c.response.headers.get("Server")
    assert server is None or not any(ch.isdigit() for ch in server), server
    c.close()


def test_health_and_metrics_on_the_relays_port(relay):
    assert http(relay, "/healthz")[:1] == (200,)
    c = Client(relay.url)
    made = c.create("nehren")
    c.join(made["room"], made["seats"]["b"])
    c.move("a1a3")
    c.ws.send(json.dumps({"op": "move", "move": "f6f4", "ply": True}))
    c.ws.recv(timeout=10)
    status, headers, text = http(relay, "/metrics")
    assert status == 200 and headers["Content-Type"].startswith("text/plain")
    metrics = dict(line.rsplit(" ", 1) for line in text.splitlines() if line and not line.startswith("#"))
    assert metrics["triad_relay_connections"] == "1"
    assert metrics["triad_relay_moves_total"] == "1"
    assert metrics["triad_relay_rooms_in_use"] == "1"
    assert metrics['triad_relay_refusals_total{reason="per_address"}'] == "0"
    assert metrics["triad_relay_store_failures_total"] == "0"
    assert "# TYPE triad_relay_moves_total counter" in text


def test_watchers_per_room_are_capped_and_players_still_join(tmp_path):
    with Relay(store=":memory:", extra=["--watchers-per-room", "3"]) as r:
        made = Client(r.url).create("nehren")
        watchers = [Client(r.url) for _ in range(3)]
        for w in watchers:
            w.watch(made["room"])
        late = Client(r.url)
        with pytest.raises(RelayError, match="3 watchers"):
            late.watch(made["room"])
        players = {s: Client(r.url) for s in made["seats"]}
        for s, p in players.items():
            assert p.join(made["room"], made["seats"][s])["seat"] == s  # players are not counted
        players["b"].move("a1a3")
        for w in watchers:
            assert w.next()["move"] == "a1a3"
        watchers.pop().close()
        time.sleep(0.3)
        assert late.watch(made["room"])["moves"] == ["a1a3"]


def test_a_thousand_watchers_are_held_to_the_cap_and_the_players_play_on():
    # 1,000 connections watch one room (the default cap, 200): 200 watch, 800
    # are told why; a move reaches the other player and every watcher.
    import asyncio
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 2400:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    from host_tools.relay.client import AsyncClient

    with Relay(store=":memory:", extra=["--max-per-address", "1100"]) as r:
        made = Client(r.url).create("nehren")
        players = {s: Client(r.url) for s in made["seats"]}
        for s, p in players.items():
            p.join(made["room"], made["seats"][s])

        async def crowd():
            async def one():
                c = await AsyncClient.connect(r.url, timeout=60)
                try:
                    await c.watch(made["room"])
                    return c
                except RelayError as e:
                    await c.close()
                    return str(e)

            got = []
            for i in range(0, 1000, 100):
                got += await asyncio.gather(*(one() for _ in range(100)))
            return got

        loop = asyncio.new_event_loop()
        try:
            got = loop.run_until_complete(crowd())
            watching = [g for g in got if not isinstance(g, str)]
            refused = [g for g in got if isinstance(g, str)]
            assert len(watching) == 200 and len(refused) == 800
            assert all("200 watchers" in g for g in refused)
            ev = players["b"].move("a1a3")
            assert players["w"].next(timeout=30) == ev

            async def heard():
                return await asyncio.gather(*(c.next() for c in watching))

            assert all(m == ev for m in loop.run_until_complete(heard()))
            async def leave():
                await asyncio.gather(*(c.close() for c in watching))

            loop.run_until_complete(leave())
        finally:
            loop.close()
        assert r.alive()
