"""A new user's way into a relay's room (issue 38; README "Playing someone
who is not at the table"): the invitation's tokens and room ids are typed
after `--token` / `--room` on a command line, so none may begin with '-'
(argparse reads such a word as an option) and a dash-led one from elsewhere
must still be taken; `play --server URL --create GAME` prints the
invitations; and the README's own commands, copied as they are, start a
relay, make a room and join it from a terminal, a simulated board and a
watcher."""
import asyncio
import json
import os
import random
import re
import secrets
import shlex
import subprocess
import sys
import time

import pytest

from host_tools.relay import rules, server
from host_tools.relay.client import Client
from host_tools.relay.rooms import digest
from host_tools.relay.store import SqliteStore
from relay_kit import ROOT, Relay

PY = sys.executable


def test_tokens_and_room_ids_never_begin_with_a_dash(monkeypatch):
    # secrets made to draw a dash-led text every other time: what the
    # relay hands out must still never begin with '-', and stay 24 (a
    # token) and 8 (a room) url-safe characters that join the room.
    real = secrets.token_urlsafe
    calls = []

    def dashed(n):
        calls.append(n)
        text = real(n)
        return "-" + text[1:] if len(calls) % 2 == 1 else text

    monkeypatch.setattr(secrets, "token_urlsafe", dashed)

    async def go():
        relay = server.Relay(SqliteStore(":memory:"))
        conn = server.Conn(None)
        made = []
        for game in rules.NAMES:
            await relay.on_message(conn, json.dumps({"op": "create", "game": game}))
            made.append(json.loads(conn.out.get_nowait()))
        for m in made:
            await relay.on_message(conn, json.dumps({"op": "join", "room": m["room"],
                                                     "token": next(iter(m["seats"].values()))}))
            m["joined"] = json.loads(conn.out.get_nowait())
        await relay.store.close()
        return made

    made = asyncio.run(go())
    assert calls, "the relay did not draw its secrets from secrets.token_urlsafe"
    for m in made:
        assert m["op"] == "created", m
        assert not m["room"].startswith("-") and len(m["room"]) == 8
        for side, token in m["seats"].items():
            assert not token.startswith("-"), (side, token)
            assert len(token) == 24 and re.fullmatch(r"[A-Za-z0-9_-]+", token)
        assert m["joined"]["op"] == "state" and m["joined"]["seat"] == next(iter(m["seats"]))


@pytest.fixture
def dashed_room(tmp_path):
    """A relay whose store holds a Nehren room with a dash-led id and
    dash-led tokens (as an older relay made them), ready to be joined."""
    store = str(tmp_path / "relay.sqlite")
    room, tokens = "-room1234", {"b": "-" + secrets.token_urlsafe(18)[1:], "w": "--" + secrets.token_urlsafe(18)[2:]}
    g = rules.Game("nehren")

    async def put():
        s = SqliteStore(store)
        assert await s.create(room, "nehren", g.start, None, {k: digest(t) for k, t in tokens.items()})
        await s.close()

    asyncio.run(put())
    r = Relay(store=store)
    yield r, room, tokens
    r.stop()


def test_a_dash_led_token_and_room_are_taken_on_the_command_line(dashed_room):
    relay, room, tokens = dashed_room
    white = Client(relay.url)
    assert white.join(room, tokens["w"])["seat"] == "w"
    # The terminal: `--room -room1234 --token -...` as typed, no `=`.
    p = subprocess.Popen([PY, "-m", "host_tools", "play", "--server", relay.url, "--room", room, "--token",
                          tokens["b"], "--color", "never"], cwd=ROOT, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        p.stdin.write("a1a3\n")
        p.stdin.flush()
    except BrokenPipeError:
        pass
    try:
        ev = white.next(timeout=30)
    except TimeoutError:
        p.kill()
        raise AssertionError("the terminal did not play: %s" % (p.communicate()[1][-1000:],))
    assert ev["move"] == "a1a3"
    white.move("f6f4")
    p.stdin.write("quit\n")
    p.stdin.flush()
    out, err = p.communicate(timeout=30)
    assert p.returncode == 0, err
    assert "you play Black" in out and "1. Black a1a3" in out
    # The board's bridge: joined as White with `--token --...` (two dashes).
    proc = subprocess.Popen([PY, "-m", "host_tools", "online", "--port", "sim:1", "--server", relay.url,
                             "--room", room, "--token", tokens["w"]], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        line = ""
        end = time.monotonic() + 60
        while time.monotonic() < end and "joined room" not in line:
            line = proc.stdout.readline()
            if not line:
                break
        assert "joined room %s as w" % room in line, line
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
    # A missing value is still an error, not a token named "--watch".
    p = subprocess.run([PY, "-m", "host_tools", "play", "--server", relay.url, "--room", room, "--token", "--watch"],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "--token: expected one argument" in p.stderr


README = os.path.join(ROOT, "README.md")
URL_IN_README = "ws://127.0.0.1:8770/play"


def readme_commands():
    """The commands of README's "Playing someone who is not at the table",
    as a new user copies them (lines of its code blocks)."""
    with open(README, encoding="utf-8") as f:
        text = f.read()
    a = text.index("## Playing someone who is not at the table")
    b = text.index("\n## ", a + 10)
    blocks = re.findall(r"```\n(.*?)```", text[a:b], re.S)
    return [ln for blk in blocks for ln in blk.splitlines() if ln.startswith(".venv/bin/python -m host_tools ")]


def argv_of(line, url=None, room=None, token=None):
    """A README line as argv: its `.venv/bin/python` is this Python, its
    relay the test's, ROOM and TOKEN the invitation's."""
    if url:
        line = line.replace(URL_IN_README, url)
    if room:
        line = line.replace("ROOM", room)
    if token:
        line = line.replace("TOKEN", token)
    argv = shlex.split(line)
    assert argv[0] == ".venv/bin/python"
    return [PY] + argv[1:]


def wait_line(proc, needle, timeout=60):
    """Read proc's lines until one holds `needle`: all read, joined."""
    end = time.monotonic() + timeout
    seen = []
    while time.monotonic() < end:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        if needle in line:
            return "".join(seen)
    raise AssertionError("no %r in:\n%s" % (needle, "".join(seen)[-2000:]))


def test_the_readme_commands_start_invite_and_join(tmp_path):
    cmds = readme_commands()
    serve = [c for c in cmds if " serve " in c]
    create = [c for c in cmds if "--create" in c]
    board = [c for c in cmds if " online " in c and "--port sim" in c]
    device = [c for c in cmds if " online " in c and "/dev/tty" in c]
    term = [c for c in cmds if " play " in c and "--token TOKEN" in c]
    watch = [c for c in cmds if " play " in c and "--watch" in c]
    assert all(len(x) == 1 for x in (serve, create, board, device, term, watch)), cmds
    # The board's command is the device's with the simulator (and its person) instead.
    assert device[0].replace("--port /dev/ttyACM0", "--port sim --hand") == board[0]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    procs = []

    def start(argv, **kw):
        p = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                             **kw)
        procs.append(p)
        return p

    try:
        # 1. The relay, as the README starts it (on a free port, its store here).
        argv = argv_of(serve[0])
        argv[argv.index("--port") + 1] = "0"
        relay = start(argv + ["--store", str(tmp_path / "relay.sqlite")])
        url = wait_line(relay, "serving ws://", 60).split()[1]
        # 2. The invitations.
        made = subprocess.run(argv_of(create[0], url), cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert made.returncode == 0, made.stderr
        room = re.search(r"^room (\S+): Browne's Triad", made.stdout, re.M).group(1)
        seats = dict(re.findall(r"^\w+ \((\w)\): token (\S+)$", made.stdout, re.M))
        assert sorted(seats) == ["b", "g", "r"]
        base = url.replace("ws://", "http://").rsplit("/", 1)[0]
        for side, token in seats.items():
            # Each seat's lines are the README's commands filled in.
            # (each line starts with this Python's full path and the tool's
            # folder, so that it runs as printed from any folder: issue 43)
            for kind, line in (("terminal", term[0]), ("board", device[0])):
                shown = re.search(r"^  %s: +(\S+ \S+ .*--token %s)$" % (kind, re.escape(token)), made.stdout, re.M)
                assert shown, (kind, side, made.stdout)
                words = shlex.split(shown.group(1))
                assert words[:2] == [PY, os.path.join(ROOT, "host_tools")]
                assert words[2:] == argv_of(line, url, room, token)[3:]
            sim = re.search(r"^  simulator: +(.*--token %s)$" % re.escape(token), made.stdout, re.M)
            assert shlex.split(sim.group(1)) == [PY, os.path.join(ROOT, "simulator"), "--relay", url, "--room", room,
                                                 "--token", token]
            assert "%s/?room=%s#token=%s" % (base, room, token) in made.stdout  # (the token in the fragment)
        for line in made.stdout.splitlines():
            assert "token=" not in line.split("#")[0], line
        assert "%s/?room=%s\n" % (base, room) in made.stdout
        watcher_client = Client(url)
        assert watcher_client.watch(room)["moves"] == []
        # 3. Red from a (simulated) board, 5. Green from a terminal, the
        # watcher in a terminal; Blue through the page's protocol.
        red = start(argv_of(board[0], url, room, seats["r"]))
        green = start(argv_of(term[0], url, room, seats["g"]) + ["--color", "never"], stdin=subprocess.PIPE)
        watch_p = start(argv_of(watch[0], url, room) + ["--color", "never"])
        blue = Client(url)
        assert blue.join(room, seats["b"])["seat"] == "b"
        mirror = rules.Game("browne")
        rng = random.Random(7)
        # (Browne's turn passes on by its rules, not always r g b: play at
        # least 6 plies, then on to Green's turn, when the terminal reads.)
        while len(mirror.moves) < 6 or mirror.to_move() != "g":
            assert len(mirror.moves) < 30 and not mirror.over()
            side = mirror.to_move()
            if side == "g":
                text = rng.choice(mirror.legal())
                green.stdin.write(text + "\n")
                green.stdin.flush()
            elif side == "b":
                blue.move(rng.choice(mirror.legal()))
            ev = None
            end = time.monotonic() + 120
            while ev is None:
                assert time.monotonic() < end, "no move %d in 120 s" % (len(mirror.moves) + 1)
                if red.poll() is not None:  # the board's bridge gave up: say why
                    raise AssertionError("the board's command stopped: %s" % red.communicate()[0][-2000:])
                try:
                    ev = watcher_client.next(timeout=1)
                except TimeoutError:
                    pass
            assert ev["op"] == "move" and ev["ply"] == len(mirror.moves) + 1 and ev["seat"] == side, ev
            if side == "g":
                assert ev["move"] == text
            mirror.play(ev["move"])
        # A printed line run as printed from another folder, with none of
        # the project's environment (no venv on the PATH): the watcher's.
        line = re.search(r"^  terminal: +(.*--watch)$", made.stdout, re.M).group(1)
        bare = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONUNBUFFERED": "1"}
        far = subprocess.run(shlex.split(line) + ["--until-ply", "1", "--color", "never"], cwd=str(tmp_path),
                             capture_output=True, text=True, timeout=60, env=bare)
        assert far.returncode == 0 and "1. Red " + mirror.moves[0] in far.stdout, far.stdout + far.stderr
        plies = len(mirror.moves)
        green.stdin.write("quit\n")  # Green's turn again: the terminal leaves
        green.stdin.flush()
        try:
            g_out, _ = green.communicate(timeout=30)
        except subprocess.TimeoutExpired as e:
            raise AssertionError("the terminal did not leave: %s" % (e.output or "")[-3000:])
        assert green.returncode == 0, g_out[-2000:]
        names = {"r": "Red", "g": "Green", "b": "Blue"}
        assert set(mirror.seats) == set(names)  # all three seats played
        for i, (seat, text) in enumerate(zip(mirror.seats, mirror.moves)):
            assert "%d. %s %s" % (i + 1, names[seat], text) in g_out, g_out[-2000:]
        wait_line(watch_p, "%d. %s %s" % (plies, names[mirror.seats[-1]], mirror.moves[-1]), 60)
        # The board lit and carried out every move made elsewhere.
        last = max(i for i, seat in enumerate(mirror.seats) if seat != "r") + 1
        seen = wait_line(red, "move %d carried out: " % last, 120)
        red.terminate()
        r_out = seen + red.communicate(timeout=30)[0]
        assert "joined room %s as r" % room in r_out
        for ply in range(1, plies + 1):
            if mirror.seats[ply - 1] != "r":
                assert "move %d carried out: %s" % (ply, mirror.moves[ply - 1]) in r_out, r_out[-2000:]
        # Red's simulator line, run as printed from another folder (without
        # opening a browser): the simulator's board takes Red's seat.
        end = time.monotonic() + 30
        while room_seat_connected(base, room, "r"):  # (the board's bridge gone first)
            assert time.monotonic() < end, "Red's board still counted connected"
            time.sleep(0.2)
        line = re.search(r"^  simulator: +(.*--token %s)$" % re.escape(seats["r"]), made.stdout, re.M).group(1)
        sim = subprocess.Popen(shlex.split(line) + ["--no-browser", "--port", "0", "--state-dir", str(tmp_path / "sim")],
                               cwd=str(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=bare)
        procs.append(sim)
        wait_line(sim, "plays a seat of room %s at %s" % (room, url), 60)
        end = time.monotonic() + 60
        while not room_seat_connected(base, room, "r"):
            assert time.monotonic() < end and sim.poll() is None, "the simulator did not take Red's seat"
            time.sleep(0.3)
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
                try:
                    p.communicate(timeout=30)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.communicate()


def room_seat_connected(base, room, side):
    """Whether the relay counts `side` of `room` connected (GET /api/room)."""
    import json
    import urllib.request

    with urllib.request.urlopen("%s/api/room?room=%s" % (base, room), timeout=10) as r:
        return any(s["side"] == side and s["connected"] for s in json.loads(r.read())["seats"])
