# The simulator's board as a seat of a relay's room (issue 43): the board
# on the page plays that seat as `host_tools online` makes a real board do
# (its Bridge, host_tools/relay/online.py), over the page's own serial line;
# the other seats are remote seats, their moves lit on the board and said
# in words on the page (simulator/say.py), and the person at the page
# carries them out.
#
#   python -m simulator --relay ws://HOST:PORT/play --room R --token T [--game G] [--port P]
#
# The simulator never imports the host tools (docs/architecture.md, the
# layers): given --relay, it runs this host tool in its place
# (`host_tools sim-seat`, the same arguments), which serves the simulator
# with its board in the room. The page's "Play someone not here" (make a
# room on a relay, or paste an invitation: simulator/invitation.py)
# restarts the simulator so.
import asyncio
import json
import sys
import threading
import time
import urllib.parse
import urllib.request

from host_tools.link import Link, LinkError
from simulator.invitation import page_base, seat_link

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
        # (imported here: the simulator's board is chosen, by TRIAD_SIM_BOARD,
        # when its modules first load, after this module has)
        from simulator.hardware import SimError

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
        self.invite = None  # a room made here: the other seats' links and the watch link, to pass on
        self.loop = None  # the bridge's event loop (its thread's)
        websim.relay = self.shown()

    def log(self, text):
        self.lines = (self.lines + [text])[-LOG_KEEP:]
        self.ws.add_log("# relay: " + text)
        self.publish()

    def shown(self):
        b = self.bridge
        if b is not None and b.room != self.room:
            # (a rematch moves the seat to a new room; asked here, the other
            # seats' new links are to pass on)
            self.room, self.invite = b.room, None
            if b.rematch_seats:
                self.invite = {"seats": {s: seat_link(self.server, b.room, t) for s, t in b.rematch_seats.items()
                                         if t != b.token},
                               "watch": page_base(self.server) + "/?room=" + b.room}
        return {"server": self.server, "room": self.room, "page": page_base(self.server) + "/?room=" + self.room,
                "seat": b.seat if b is not None else None, "lines": list(self.lines),
                "seats": (self.view or {}).get("seats"), "watchers": (self.view or {}).get("watchers"),
                "over": bool(b is not None and b.over), "invite": self.invite}

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

    def rematch(self):
        """Ask the room for a rematch (the page's button): the relay's
        answer, a new room or a refusal, comes to the bridge."""
        from simulator.hardware import SimError  # (what the page's actions say in one line)

        loop, b = self.loop, self.bridge
        if loop is None or b is None or b.ws is None:
            raise SimError("not connected to the relay now: ask again in a moment")
        asyncio.run_coroutine_threadsafe(b._send({"op": "rematch"}), loop)
        self.log("asked the room for a rematch")

    def _run(self):
        async def run():
            self.loop = asyncio.get_running_loop()
            return await self.bridge.run(until=lambda b: self.stopping)

        try:
            asyncio.run(run())
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


def start(ws, server, room, token):
    ws.relay_seat = RelaySeat(ws, server, room, token).start()
    return ws.relay_seat


def make(ws, server, game):
    """A new room of `game` on the relay, the board its first seat; the
    other seats' links (and the watch link) kept to show on the page.
    None, said on the page and in the terminal, if the relay made none."""
    from host_tools.relay.client import Client

    try:
        with Client(server) as c:
            made = c.create(game)
    except Exception as e:
        ws.add_log("# relay: the relay at %s did not make a room: %s" % (server, e))
        ws.relay = {"server": server, "room": None, "error": "the relay at %s did not make a room: %s" % (server, e)}
        return None
    sides = list(made["seats"])
    room = made["room"]
    seat = start(ws, server, room, made["seats"][sides[0]])
    seat.invite = {"seats": {s: seat_link(server, room, made["seats"][s]) for s in sides[1:]},
                   "watch": page_base(server) + "/?room=" + room}
    seat.publish()
    return room


def cmd_sim_seat(argv):
    """`host_tools sim-seat ARGS`: the simulator's own command line
    (python -m simulator --relay ...), served with its board in the room."""
    import simulator.__main__ as simulator_main

    return simulator_main.main(argv, seat=sys.modules[__name__])


def room_game(server, room):
    """The game of a relay's room, or None (no such room, or no relay there)."""
    from host_tools.relay.online import _room_game

    return _room_game(server, room)
