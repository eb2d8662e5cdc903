# The simulator's board as a seat of a relay's room (issue 43): the board
# on the page plays that seat as `host_tools online` makes a real board do
# (its Bridge, host_tools/relay/online.py, unchanged), over the page's own
# serial line; the other seats are remote seats, their moves lit on the
# board and said in words on the page (simulator/say.py), and the person at
# the page carries them out.
#
#   python -m simulator --relay ws://HOST:PORT/play --room R --token T [--game G] [--port P]
#
# or from the page's "Play someone not here" panel (make a room on a relay,
# or paste an invitation: simulator/actions.py, op "relay").
import asyncio
import json
import threading
import time
import urllib.parse
import urllib.request

from host_tools.link import Link, LinkError
from simulator.hardware import SimError

LOG_KEEP = 12  # the bridge's last lines, shown on the page


class PageLink(Link):
    """The WebSim's serial line as a host tool's link: commands go through
    the page's own serial line (so they show in its log), events are
    heard as the firmware writes them."""

    def __init__(self, websim):
        Link.__init__(self)
        self.ws = websim
        websim.sim.listeners.append(self._heard)

    def _heard(self, kind, payload):
        if kind == "serial" and isinstance(payload, str) and payload.startswith("evt "):
            with self._cond:
                self._events.append(payload)
                self._cond.notify_all()

    def write_raw(self, data):
        raise LinkError("the page's board takes whole lines (send)")

    def send(self, command, timeout=5.0):
        try:
            return self.ws.command(command)
        except SimError as e:
            raise LinkError(str(e))

    def status(self, timeout=5.0):
        from host_tools.link import parse_full

        with self._cond:
            self._events = type(self._events)(e for e in self._events if not e.startswith("evt full "))
        reply = self.send("status", timeout)
        if reply != "ok status":
            raise LinkError("status refused: " + reply)
        with self._cond:
            lines = [e for e in self._events if e.startswith("evt full ")]
            kept = [e for e in self._events if not e.startswith("evt full ")]
            self._events.clear()
            self._events.extend(kept)
        return parse_full(lines)


def page_base(server):
    """The relay's page address (http) from its WebSocket address."""
    u = urllib.parse.urlsplit(server)
    return urllib.parse.urlunsplit(("https" if u.scheme == "wss" else "http", u.netloc, "", "", ""))


def parse_invitation(text):
    """(server, room, token) from a seat's link (http://HOST:PORT/?room=R#token=T)
    or its terminal line (... --server URL --room R --token T); ValueError if
    it is neither."""
    text = (text or "").strip()
    words = text.split()
    if "--room" in words and "--token" in words and "--server" in words:
        get = lambda k: words[words.index(k) + 1] if words.index(k) + 1 < len(words) else ""
        return get("--server"), get("--room"), get("--token")
    u = urllib.parse.urlsplit(text)
    q = urllib.parse.parse_qs(u.query)
    frag = urllib.parse.parse_qs(u.fragment)
    room = (q.get("room") or [""])[0]
    token = (frag.get("token") or q.get("token") or [""])[0]
    if u.scheme not in ("http", "https") or not u.netloc or not room or not token:
        raise ValueError("not a seat's invitation: paste its link (http://HOST:PORT/?room=R#token=T)")
    return ("wss" if u.scheme == "https" else "ws") + "://" + u.netloc + "/play", room, token


class RelaySeat:
    """A Bridge from the page's board to a room, in a thread of its own,
    and what the page shows of it (WebSim.relay)."""

    def __init__(self, websim, server, room, token):
        self.ws = websim
        self.server, self.room, self.token = server, room, token
        self.lines = []
        self.view = None
        self.stopping = False
        self.bridge = None
        websim.relay = self.shown()

    def log(self, text):
        self.lines = (self.lines + [text])[-LOG_KEEP:]
        self.ws.add_log("# relay: " + text)
        self.publish()

    def shown(self):
        b = self.bridge
        if b is not None:
            self.room = b.room  # (a rematch moves the seat to a new room)
        return {"server": self.server, "room": self.room, "page": page_base(self.server) + "/?room=" + self.room,
                "seat": b.seat if b is not None else None, "lines": list(self.lines),
                "seats": (self.view or {}).get("seats"), "watchers": (self.view or {}).get("watchers"),
                "over": bool(b is not None and b.over)}

    def publish(self):
        self.ws.relay = self.shown()
        self.ws.bump()

    def start(self):
        from host_tools.relay.online import Bridge

        link = PageLink(self.ws)
        self.bridge = Bridge(lambda: link, self.server, self.room, self.token, log=self.log, exit_when_over=False)
        self.bridge.follow_rematch = True  # (the same people: this board goes on to the room's rematch)
        threading.Thread(target=self._run, name="relay-seat", daemon=True).start()
        threading.Thread(target=self._watch, name="relay-view", daemon=True).start()
        return self

    def _run(self):
        try:
            asyncio.run(self.bridge.run(until=lambda b: self.stopping))
        except (Exception, SystemExit) as e:  # (said on the page, never a silent end)
            self.log("the link to the room stopped: %s: %s" % (type(e).__name__, e))

    def _watch(self):
        # Who is connected to the room now, from the relay's page API.
        while not self.stopping and not self.ws.stopping:
            url = page_base(self.server) + "/api/room?room=" + urllib.parse.quote(self.bridge.room)
            try:
                with urllib.request.urlopen(url, timeout=5) as r:
                    v = json.loads(r.read().decode())
                self.view = {"seats": v.get("seats"), "watchers": v.get("watchers")}
            except Exception:
                self.view = None
            self.publish()
            time.sleep(2.0)

    def stop(self):
        self.stopping = True


def create_room(server, game):
    """A new room of `game` on the relay: its created reply (tokens)."""
    from host_tools.relay.client import Client

    with Client(server) as c:
        return c.create(game)


def seat_link(server, room, token):
    """A seat's invitation link as the relay's page reads it (the token in the fragment)."""
    return page_base(server) + "/?room=%s#token=%s" % (urllib.parse.quote(room), urllib.parse.quote(token))


def start(ws, server, room, token):
    if getattr(ws, "relay_seat", None) is not None:
        raise SimError("the board already plays a seat of room %s" % ws.relay_seat.room)
    ws.relay_seat = RelaySeat(ws, server, room, token).start()
    return ws.relay_seat


def page_action(ws, a):
    """The page's "Play someone not here" (POST /api/act, op "relay"):
    {"make": SERVER} makes a room of the board's game on that relay, the
    board plays its first seat and the others' invitations come back;
    {"invitation": TEXT} plays the seat of a pasted invitation (the
    simulator restarts as the room's game's board first if it is another)."""
    from simulator.game import GAME

    if getattr(ws, "relay_seat", None) is not None:
        raise SimError("the board already plays a seat of room %s" % ws.relay_seat.room)
    if a.get("make"):
        server = str(a["make"]).strip()
        if not server.startswith(("ws://", "wss://")):
            raise SimError("the relay's address is ws://HOST:PORT/play (as `host_tools serve` prints it)")
        try:
            made = create_room(server, GAME.NAME)
        except Exception as e:
            raise SimError("the relay at %s did not make a room: %s" % (server, e))
        sides = list(made["seats"])
        start(ws, server, made["room"], made["seats"][sides[0]])
        return {"room": made["room"], "seat": sides[0], "watch": page_base(server) + "/?room=" + made["room"],
                "invite": {s: seat_link(server, made["room"], made["seats"][s]) for s in sides[1:]}}
    try:
        server, room, token = parse_invitation(a.get("invitation"))
    except ValueError as e:
        raise SimError(str(e))
    from host_tools.relay.online import _room_game

    game = _room_game(server, room)
    if game is None:
        raise SimError("the relay at %s has no room %s (or cannot be reached)" % (server, room))
    if game != GAME.NAME:
        from simulator.choice import board_for_game

        if ws.restart is None:
            raise SimError("the room plays %s: start the simulator with --game %s" % (game, game))
        ws.add_log("· the room plays %s: the simulator restarts as its board" % game)
        threading.Timer(0.3, ws.restart, args=(board_for_game(game), ["--relay", server, "--room", room,
                                                                      "--token", token])).start()
        return {"room": room, "restart": game}
    start(ws, server, room, token)
    return {"room": room}
