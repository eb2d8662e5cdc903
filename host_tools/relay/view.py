"""The relay's page and what it draws (issue 43): its files, and two small
JSON answers the page asks for over plain HTTP.

  GET /static/NAME        the page's script and style: the relay's own
                          (host_tools/relay/static/) and the board's one
                          drawing, shared with the simulator's page
                          (simulator/static/board_draw.js, board.css)
  GET /api/layout?game=G  the game's board to draw (simulator/drawing.py)
  GET /api/room?room=R    the room as the page shows it: the pieces on each
                          spot, the last move (its spots and its words), whose
                          turn, the result in words, the seats with who is
                          connected now and the watchers' count

Nothing here is a secret: whoever has a room's id may watch it, and these
answers show no more than a watcher sees (never a token). No game is named
here: everything comes through the game face.
"""
import json
import os
from http import HTTPStatus
from urllib.parse import parse_qs

from host_tools.relay import rules

HERE = os.path.dirname(os.path.abspath(__file__))
SIM_STATIC = os.path.join(os.path.dirname(os.path.dirname(HERE)), "simulator", "static")
# The files the page may load, by name: nothing else on disk is served.
FILES = {
    "relay.js": os.path.join(HERE, "static", "relay.js"),
    "relay.css": os.path.join(HERE, "static", "relay.css"),
    "board_draw.js": os.path.join(SIM_STATIC, "board_draw.js"),
    "board.css": os.path.join(SIM_STATIC, "board.css"),
    "favicon.svg": os.path.join(SIM_STATIC, "favicon.svg"),
}
TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml",
         ".json": "application/json"}
_layouts = {}


def layout(name):
    """The drawing data of game `name` (Refused if there is no such game)."""
    if name not in _layouts:
        from simulator.drawing import board_drawing

        _layouts[name] = json.dumps(board_drawing(rules.load_game(name)), separators=(",", ":"))
    return _layouts[name]


def room_view(room):
    """What the page draws of a room (rooms.Room): see the module's docstring."""
    from simulator.drawing import pieces
    from simulator.game import move_words_of, result_words

    g = room.game
    face = g.game
    out = {"room": room.id, "game": g.name, "title": face.TITLE, "mode": g.mode, "ply": len(g.moves),
           "moves": list(g.moves), "movers": list(g.seats), "to_move": g.to_move(),
           "position": face.format_position(g.pos), "pieces": pieces(face, g.pos), "last": None}
    if g.moves:
        # The last move's spots (its footprint's, in order) and its words,
        # both from the position before it: what is lit is what is said.
        before = rules.Game(g.name, g.start, g.mode, g.moves[:-1])
        m = face.parse_move(before.pos, g.moves[-1])
        out["last"] = {"ply": len(g.moves), "seat": g.seats[-1], "move": g.moves[-1],
                       "spots": footprint_spots(face, before.pos, m),
                       "words": move_words_of(face, before.pos, m) or g.moves[-1]}
    if g.over():
        out["result"] = g.result()
        out["reason"] = g.reason()
        out["result_words"] = result_words(g.reason(), out["position"], game=face)
        if out["result"] == "draw":
            out["result_words"]["head"] = "Draw"
    seated = {c.seat for c in room.conns if c.seat is not None}
    out["seats"] = [{"side": s, "name": face.SIDE_NAMES[k], "connected": s in seated}
                    for k, s in enumerate(face.SIDES)]
    out["watchers"] = sum(1 for c in room.conns if c.seat is None)
    return out


def footprint_spots(face, pos, m):
    """The spots move m touches on the board, in the order a hand does it."""
    from array import array

    fp = array("i", bytes(4 * 64))
    out = []
    for j in range(face.footprint(pos, m, fp)):
        site = fp[j] & 255
        if site < face.N_SITES and face.SITE_NAMES[site] not in out:
            out.append(face.SITE_NAMES[site])
    return out


def _respond(connection, status, body, ctype):
    if isinstance(body, str):
        body = body.encode()
    resp = connection.respond(status, "")
    resp.body = body
    del resp.headers["Content-Type"]
    del resp.headers["Content-Length"]
    resp.headers["Content-Type"] = ctype
    resp.headers["Content-Length"] = str(len(body))
    resp.headers["Cache-Control"] = "no-store"
    return resp


def _error(connection, status, reason):
    return _respond(connection, status, json.dumps({"error": reason}), TYPES[".json"])


async def respond(relay, connection, request):
    """The answer to a GET of /static/... or /api/..., or None for any
    other path (the relay's own)."""
    path, _, query = request.path.partition("?")
    if path.startswith("/static/"):
        full = FILES.get(path[len("/static/"):])
        if full is None:
            return _respond(connection, HTTPStatus.NOT_FOUND, "not found\n", "text/plain; charset=utf-8")
        with open(full, "rb") as f:
            return _respond(connection, HTTPStatus.OK, f.read(), TYPES[os.path.splitext(full)[1]])
    if not path.startswith("/api/"):
        return None
    args = parse_qs(query)
    if path == "/api/layout":
        try:
            return _respond(connection, HTTPStatus.OK, layout((args.get("game") or [""])[0]), TYPES[".json"])
        except rules.Refused as e:
            return _error(connection, HTTPStatus.NOT_FOUND, str(e))
    if path == "/api/room":
        room_id = (args.get("room") or [""])[0]
        if not room_id or len(room_id) > 64:
            return _error(connection, HTTPStatus.BAD_REQUEST, "room must be a room's id")
        room = relay.rooms.live.get(room_id)
        if room is None:
            # (not held here: read from the store, without holding it)
            from host_tools.relay.rooms import Room

            rec = await relay.store.load(room_id)
            if rec is None:
                return _error(connection, HTTPStatus.NOT_FOUND, "no room %s" % json.dumps(room_id))
            room = Room(rec)
        return _respond(connection, HTTPStatus.OK, json.dumps(room_view(room), separators=(",", ":")),
                        TYPES[".json"])
    return _error(connection, HTTPStatus.NOT_FOUND, "not found")
