"""The relay's store when it fails, and what a room costs to watch (issue 45,
docs/relay.md): a full disk is said to the mover and logged once per kind,
with its cause; a room no longer in the store is said to its connections; a
stored room is replayed through the rules core once, not once per watcher;
the players hear a move before the watchers. Most in process (server.Relay
over a SQLite file), so each is a fraction of a second; a disk that fills and
a read-only store under a real `serve` process, a few seconds."""
import asyncio
import ctypes
import errno
import json
import os
import random
import resource
import sqlite3
import subprocess
import sys

import pytest

from host_tools.relay import rules, server
from host_tools.relay.client import Client, RelayError
from host_tools.relay.rooms import Room
from host_tools.relay.store import SqliteStore
from relay_kit import ROOT, Relay


class Full:
    """The store's SQLite connection on a disk that has filled: every
    INSERT fails as SQLite fails then (SQLITE_FULL); reads still work."""

    def __init__(self, db):
        self.db = db
        self.full = True

    def execute(self, sql, *args):
        if self.full and sql.lstrip().upper().startswith("INSERT"):
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.db, name)


def said(conn):
    out = []
    while not conn.out.empty():
        item = conn.out.get_nowait()
        out.append(json.loads(item) if isinstance(item, str) else item)
    return out


async def ask(relay, conn, msg):
    """What the relay sends `conn` for one message (its reply, and the room's
    events to it meanwhile)."""
    await relay.answer(conn, json.dumps(msg))
    return said(conn)


def test_a_full_disk_is_said_to_the_mover_and_logged_once(tmp_path, capsys):
    async def go():
        store = SqliteStore(str(tmp_path / "relay.sqlite"))
        relay = server.Relay(store)
        host, b, w = server.Conn(None), server.Conn(None), server.Conn(None)
        made = (await ask(relay, host, {"op": "create", "game": "nehren"}))[0]
        await ask(relay, b, {"op": "join", "room": made["room"], "token": made["seats"]["b"]})
        await ask(relay, w, {"op": "join", "room": made["room"], "token": made["seats"]["w"]})
        store.db = Full(store.db)
        first = await ask(relay, b, {"op": "move", "move": "a1a3", "ply": 1, "id": 1})
        again = await ask(relay, b, {"op": "move", "move": "a1a3", "ply": 1, "id": 2})
        made2 = await ask(relay, host, {"op": "create", "game": "browne", "id": 3})
        heard = said(w)
        state = (await ask(relay, w, {"op": "state"}))[-1]
        store.db.full = False  # room on the disk again: the same move, once
        ok = await ask(relay, b, {"op": "move", "move": "a1a3", "ply": 1, "id": 4})
        await store.close()
        return first, again, made2, heard, state, ok, relay

    first, again, made2, heard, state, ok, relay = asyncio.run(go())
    for reply in (first, again):
        assert reply[-1]["op"] == "error", reply
        assert "the store failed (database or disk is full)" in reply[-1]["reason"]
        assert "not confirmed" in reply[-1]["reason"] and "did not answer" not in reply[-1]["reason"]
    assert made2[-1]["op"] == "error" and "the store failed (database or disk is full)" in made2[-1]["reason"]
    assert heard == [] and state["moves"] == []  # nobody heard of a move the store did not take
    assert ok == [{"op": "move", "ply": 1, "seat": "b", "move": "a1a3", "id": 4}]
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err  # three failures of one kind: one line
    assert err[0].startswith("relay: the store failed: database or disk is full")
    assert sum(relay.metrics.store_failures.values()) == 3
    assert "triad_relay_store_failures_total 3" in relay.metrics_text()


def test_healthz_says_when_the_store_fails(tmp_path):
    class Broken(SqliteStore):
        async def ping(self):
            raise server.StoreError("disk I/O error")

    class Conn:
        def respond(self, status, text):
            from websockets.http11 import Response
            from websockets.datastructures import Headers

            return Response(int(status), status.phrase, Headers(), text.encode())

    class Req:
        path = "/healthz"
        headers = {}

    relay = server.Relay(Broken(":memory:"))
    resp = asyncio.run(relay.process_request(Conn(), Req()))
    assert resp.status_code == 503 and b"disk I/O error" in resp.body
    relay.store = SqliteStore(":memory:")
    assert asyncio.run(relay.process_request(Conn(), Req())).status_code == 200


def test_a_stored_room_is_replayed_once_not_per_watcher(tmp_path, monkeypatch):
    # A 60-ply game in the store, no connection in it (a relay restarted):
    # 50 watchers come and go one after another. The rules core replays its
    # moves once (then the room's position is kept), not 50 times.
    path = str(tmp_path / "relay.sqlite")
    mirror = rules.Game("nehren")
    import random

    rng = random.Random(45)

    async def make():
        store = SqliteStore(path)
        relay = server.Relay(store)
        host = server.Conn(None)
        made = (await ask(relay, host, {"op": "create", "game": "nehren"}))[0]
        seats = {s: server.Conn(None) for s in made["seats"]}
        for s, c in seats.items():
            await ask(relay, c, {"op": "join", "room": made["room"], "token": made["seats"][s]})
        while len(mirror.moves) < 60 and not mirror.over():
            side = mirror.to_move()
            text = mirror.play(rng.choice(mirror.legal()))
            got = await ask(relay, seats[side], {"op": "move", "move": text})
            assert [m for m in got if m["op"] == "move"][-1]["move"] == text
        await store.close()
        return made

    made = asyncio.run(make())
    plays = [0]
    real = rules.Game.play

    def counted(self, text):
        plays[0] += 1
        return real(self, text)

    monkeypatch.setattr(rules.Game, "play", counted)

    async def watch():
        store = SqliteStore(path)
        relay = server.Relay(store)  # a fresh relay: nothing in memory
        for _ in range(50):
            c = server.Conn(None)
            st = (await ask(relay, c, {"op": "watch", "room": made["room"]}))[0]
            assert st["moves"] == mirror.moves
            relay.rooms.leave(c.room, c)  # the connection closes
        await store.close()
        return relay

    relay = asyncio.run(watch())
    assert plays[0] == len(mirror.moves), "%d moves replayed for %d watchers of a %d-ply game" % (
        plays[0], 50, len(mirror.moves))
    assert relay.rooms.loads == 1


def test_players_hear_a_move_before_the_watchers():
    from host_tools.relay.store import RoomRecord

    order = []

    class C:
        def __init__(self, name, seat, rank):
            self.name, self.seat, self.rank = name, seat, rank
            self.seen, self.told_over, self.own = 0, False, None

        def __hash__(self):  # the room's set of connections then holds the players last
            return self.rank

        def send(self, msg):
            order.append(self.name)

    g = rules.Game("nehren")
    room = Room(RoomRecord("R", "nehren", g.start, None, {}, []))
    for i in range(50):
        room.add(C("watcher%d" % i, None, i))
    room.add(C("black", "b", 100))
    room.add(C("white", "w", 101))
    room.game.play("a1a3")
    room.deliver()
    assert sorted(order[:2]) == ["black", "white"] and len(order) == 52
    assert room.watchers == 50


def test_a_room_gone_from_the_store_is_said_to_its_connections(tmp_path):
    async def go():
        store = SqliteStore(str(tmp_path / "relay.sqlite"))
        relay = server.Relay(store)
        host, b, w = server.Conn(None), server.Conn(None), server.Conn(None)
        made = (await ask(relay, host, {"op": "create", "game": "nehren"}))[0]
        await ask(relay, b, {"op": "join", "room": made["room"], "token": made["seats"]["b"]})
        await ask(relay, w, {"op": "watch", "room": made["room"]})
        store.db.execute("DELETE FROM rooms")  # (expired, or lost with its store)
        reply = await ask(relay, b, {"op": "move", "move": "a1a3", "id": 1})
        heard = said(w)
        after = await ask(relay, w, {"op": "state", "id": 2})
        await store.close()
        return made, reply, heard, after

    made, reply, heard, after = asyncio.run(go())
    assert reply[0]["op"] == "gone" and reply[0]["room"] == made["room"]
    assert reply[-1]["op"] == "error" and "no longer in the store" in reply[-1]["reason"]
    assert heard == [{"op": "gone", "room": made["room"], "reason": heard[0]["reason"]}]
    assert "gone" in heard[0]["reason"]
    assert after == [{"op": "error", "reason": "join or watch a room first", "id": 2}]


@pytest.mark.parametrize("bad", [True, 1.0, "1", None])
def test_ply_true_or_a_float_changes_nothing(tmp_path, bad):
    async def go():
        relay = server.Relay(SqliteStore(":memory:"))
        c = server.Conn(None)
        made = (await ask(relay, c, {"op": "create", "game": "nehren"}))[0]
        await ask(relay, c, {"op": "join", "room": made["room"], "token": made["seats"]["b"]})
        msg = {"op": "move", "move": "a1a3", "ply": bad}
        if bad is None:
            msg["ply"] = 2.0
        reply = await ask(relay, c, msg)
        st = await ask(relay, c, {"op": "state"})
        return reply, st

    reply, st = asyncio.run(go())
    assert reply[-1]["op"] == "error" and "ply must be" in reply[-1]["reason"]
    assert st[-1]["moves"] == []


def small_disk(path, size):
    """A tmpfs of `size` bytes mounted at `path` (a real disk that fills);
    False where this user may not mount one."""
    try:
        return subprocess.run(["mount", "-t", "tmpfs", "-o", "size=%d,mode=0700" % size, "tmpfs", str(path)],
                              capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def small_files():
    """(In the relay's process, where no tmpfs can be mounted) files of at
    most 64 KiB: the store's writes fail past it, as on a full disk."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536))


def test_a_disk_that_fills_under_a_running_relay(tmp_path):
    # A real relay, its store on a 256 KiB disk that another file fills
    # mid-game: the mover is told the store failed and why (it was "the
    # store did not answer", words for Redis, and nothing was logged), the
    # other player hears nothing, the log has one line for every failure of
    # the kind; the disk freed, the same move is taken once.
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = small_disk(disk, 256 * 1024)
    try:
        r = Relay(store=str(disk / "relay.sqlite"), preexec_fn=None if mounted else small_files)
        try:
            made = Client(r.url).create("nehren")
            seats = {s: Client(r.url) for s in made["seats"]}
            for s, c in seats.items():
                c.join(made["room"], made["seats"][s])
            mirror, rng = rules.Game("nehren"), random.Random(45)
            if mounted:
                with open(disk / "filler", "wb", buffering=0) as f:  # the rest of the disk, taken
                    try:
                        while True:
                            f.write(b"\0" * 4096)
                    except OSError as e:
                        assert e.errno == errno.ENOSPC, e
            refused = None
            while refused is None and len(mirror.moves) < 300 and not mirror.over():
                side, text = mirror.to_move(), rng.choice(mirror.legal())
                other = [s for s in seats if s != side][0]
                try:
                    ev = seats[side].move(text, ply=len(mirror.moves) + 1)
                except RelayError as e:
                    refused = (side, text, other)
                    reasons = [str(e)]
                    break
                mirror.play(text)
                assert seats[other].next() == ev
            assert refused is not None, "%d moves on a full disk, none refused" % len(mirror.moves)
            side, text, other = refused
            for _ in range(2):
                with pytest.raises(RelayError) as e:
                    seats[side].move(text, ply=len(mirror.moves) + 1)
                reasons.append(str(e.value))
            cause = "database or disk is full" if mounted else "disk I/O error"
            for reason in reasons:
                assert reason.startswith("the store failed (%s)" % cause), reason
            assert seats[other].request({"op": "state"})["moves"] == mirror.moves  # nobody heard of it
            if mounted:
                os.remove(disk / "filler")
                ev = seats[side].move(text, ply=len(mirror.moves) + 1)
                assert ev == {"op": "move", "ply": len(mirror.moves) + 1, "seat": side, "move": text}
                assert seats[other].next() == ev
                mirror.play(text)
                assert Client(r.url).watch(made["room"])["moves"] == mirror.moves  # once
            assert r.alive()
        finally:
            r.stop()
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(disk)], capture_output=True, timeout=10)
    log = r.err.splitlines()
    assert log == ["relay: the store failed: %s (said to the client; logged once for this kind)" % cause], log


def without_root_override():
    """(In the relay's process) root without CAP_DAC_OVERRIDE/READ_SEARCH:
    file modes hold for it as for any user."""
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH: out of the bounding set, so the exec loses them
        if libc.prctl(24, cap, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def test_a_read_only_store_stops_the_start_in_one_line(tmp_path):
    # A store file the relay may read but not write, and a writable file in
    # a folder it may not write (SQLite's -wal cannot be made): `serve` exits
    # 1 with one line beginning "serve:" (a read-only store was a traceback).
    ro, rodir = tmp_path / "ro", tmp_path / "rodir"
    ro.mkdir()
    rodir.mkdir()
    for d in (ro, rodir):
        db = sqlite3.connect(str(d / "relay.sqlite"))
        db.execute("CREATE TABLE t (x)")
        db.commit()
        db.close()
    os.chmod(ro / "relay.sqlite", 0o444)
    os.chmod(rodir / "relay.sqlite", 0o666)
    os.chmod(rodir, 0o555)
    try:
        for store in (ro / "relay.sqlite", rodir / "relay.sqlite"):
            try:
                p = subprocess.run([sys.executable, "-m", "host_tools", "serve", "--port", "0", "--store", str(store)],
                                   cwd=ROOT, capture_output=True, text=True, timeout=60,
                                   preexec_fn=without_root_override if os.geteuid() == 0 else None)
            except subprocess.SubprocessError as e:
                pytest.skip("root cannot give up its file-mode override here: %s" % e)
            lines = p.stderr.strip().splitlines()
            assert p.returncode == 1 and p.stdout == "", (p.returncode, p.stdout, p.stderr)
            assert len(lines) == 1 and lines[0].startswith("serve: cannot use the store %s: " % store), p.stderr
    finally:
        os.chmod(rodir, 0o755)
