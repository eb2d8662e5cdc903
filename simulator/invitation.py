"""A seat's invitation read (issue 43): the relay's address, the room and
the seat's token from a seat's link (http://HOST:PORT/?room=R#token=T) or
its command line (... --server URL --room R --token T). Plain text work:
the board's seat itself is played by a host tool (host_tools/relay/sim_seat.py),
which the simulator runs, never imports (docs/architecture.md, the layers)."""
import urllib.parse


def page_base(server):
    """The relay's page address (http) from its WebSocket address."""
    u = urllib.parse.urlsplit(server)
    return urllib.parse.urlunsplit(("https" if u.scheme == "wss" else "http", u.netloc, "", "", ""))


def seat_link(server, room, token):
    """A seat's invitation link as the relay's page reads it (the token in the fragment)."""
    return page_base(server) + "/?room=%s#token=%s" % (urllib.parse.quote(room), urllib.parse.quote(token))


def parse_invitation(text):
    """(server, room, token) from a seat's link or its command line;
    ValueError if it is neither."""
    text = (text or "").strip()
    words = text.split()
    if "--room" in words and "--token" in words and "--server" in words:
        def get(k):
            i = words.index(k) + 1
            return words[i] if i < len(words) else ""
        return get("--server"), get("--room"), get("--token")
    u = urllib.parse.urlsplit(text)
    q = urllib.parse.parse_qs(u.query)
    frag = urllib.parse.parse_qs(u.fragment)
    room = (q.get("room") or [""])[0]
    token = (frag.get("token") or q.get("token") or [""])[0]
    if u.scheme not in ("http", "https") or not u.netloc or not room or not token:
        raise ValueError("not a seat's invitation: paste its link (http://HOST:PORT/?room=R#token=T)")
    return ("wss" if u.scheme == "https" else "ws") + "://" + u.netloc + "/play", room, token


def page_action(ws, a, board):
    """The page's "Play someone not here" (POST /api/act, op "relay") in a
    simulator that plays no seat yet: the process restarts as the seat's
    (python -m simulator --relay ...: run through the host tool that plays
    it), on the same address; the page reloads into it.
    {"make": SERVER}: a room of this board's game made on that relay, the
    board its first seat; {"invitation": TEXT}: the pasted seat, on the
    board of the room's game."""
    import threading

    from simulator.hardware import SimError

    if a.get("rematch"):
        # The game over, the next one with the same people, the sides
        # rotated: asked of the room by the seat's player (its host tool).
        if getattr(ws, "relay_seat", None) is None:
            raise SimError("the board plays no seat of a room: there is no rematch to ask for")
        ws.relay_seat.rematch()
        return {"rematch": True}
    if getattr(ws, "relay", None):
        raise SimError("the board already plays a seat of room %s" % ws.relay["room"])
    if ws.restart is None:
        raise SimError("playing someone not here needs the simulator started as python -m simulator")
    from simulator.choice import board_for_game
    from simulator.game import GAME

    if a.get("make"):
        server = str(a["make"]).strip()
        if not server.startswith(("ws://", "wss://")):
            raise SimError("the relay's address is ws://HOST:PORT/play (as `host_tools serve` prints it)")
        _ask(server, "/api/layout?game=" + urllib.parse.quote(GAME.NAME))  # (there, and it plays this game)
        extra = ["--relay", server, "--make-room"]
    else:
        try:
            server, room, token = parse_invitation(a.get("invitation"))
        except ValueError as e:
            raise SimError(str(e))
        game = _ask(server, "/api/room?room=" + urllib.parse.quote(room))["game"]
        extra = ["--relay", server, "--room", room, "--token", token]
        board = board_for_game(game)  # (the room's game's board: another game restarts as its board)
    ws.add_log("· play someone not here: the simulator restarts as a seat of a room at %s" % server)
    threading.Timer(0.3, ws.restart, args=(board, extra)).start()
    return {"restart": True}


def _ask(server, path):
    """The relay's page API (GET, JSON): the relay there and what it says,
    or a SimError in one line."""
    import json
    import urllib.error
    import urllib.request

    from simulator.hardware import SimError

    try:
        with urllib.request.urlopen(page_base(server) + path, timeout=10) as r:
            return json.loads(r.read().decode())
    except urllib.error.HTTPError as e:
        try:
            why = json.loads(e.read().decode()).get("error") or e.reason
        except ValueError:
            why = e.reason
        raise SimError("the relay at %s says: %s" % (server, why))
    except (OSError, ValueError) as e:
        raise SimError("the relay at %s cannot be reached: %s" % (server, e))
