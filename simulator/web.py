# The simulator in a browser: a small HTTP server (standard library only)
# that serves the page from simulator/static/, pushes the board's state as
# Server-Sent Events and takes the player's hands (lift, place, knock,
# buttons, ...) as POSTs. Behind it: simulator/websim.py (the realtime
# Simulation of the unchanged firmware, its log and serial line),
# tracking.py (what the firmware's state and events mean), frame.py (what
# the page shows), actions.py (what the player's hands do).
#
#   GET  /               the page (simulator/static/index.html)
#   GET  /static/NAME    its script and style
#   GET  /events         text/event-stream: "frame" (the whole board as JSON,
#                        sent whenever it changes) and "log" (new log lines)
#   GET  /api/state      the same frame once, as JSON (scripts, curl); besides
#                        LEDs, pieces and the firmware's state it carries what
#                        the page says in words: result {head, reason} (from
#                        evt over), fault (evt fault, while the board differs),
#                        missing/extra sites, notice (evt notice), opponent,
#                        level (get), engine_move/engine_words (evt think),
#                        lesson {n, goal, status, move} (evt lesson),
#                        finish_text (the game's words for a move partly
#                        done, by its finish event), fix (a mismatch's
#                        smallest correction)
#   GET  /api/review     the board's game looked back on (simulator/review.py):
#                        its moves, marks and words, one evaluation a turn
#   POST /api/review     {"record": text}: a record file looked back on
#   GET  /api/record     the board's game as a record file (docs/records.md)
#   GET  /api/layout     the board the firmware runs: the game's sites with
#                        their kind and drawing position, its sides, and the
#                        status LEDs of each side (the page draws from it)
#   POST /api/act        {"actions": [{"op": ..., ...}, ...]} carried out in
#                        order; answers {"ok": true, "results": [...]} or
#                        {"ok": false, "error": "...", "results": [...]}
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from simulator.game import layout
from simulator.hardware import SimError
from simulator.websim import WebSim, default_state_dir

HERE = os.path.dirname(os.path.abspath(__file__))
STATIC = os.path.join(HERE, "static")
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
}


_LAYOUT_JSON = json.dumps(layout(), separators=(",", ":"))


class Handler(BaseHTTPRequestHandler):
    server_version = "TriadSim/1"
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # quiet: the page polls nothing, but keep the console clean
        pass

    @property
    def ws(self):
        return self.server.websim

    def _send(self, code, body, ctype="application/json"):
        if isinstance(body, str):
            body = body.encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path == "/":
            path = "/static/index.html"
        if path == "/events":
            return self._events()
        if path == "/api/state":
            return self._send(200, self.ws.frame_json())
        if path == "/api/layout":
            return self._send(200, _LAYOUT_JSON)
        if path == "/api/review":
            return self._send(200, json.dumps(self.ws.review()))
        if path == "/api/record":
            return self._send(200, self.ws.record(), "text/plain; charset=utf-8")
        if path == "/favicon.ico":
            path = "/static/favicon.svg"
        if path.startswith("/static/"):
            name = path[len("/static/") :]
            if "/" in name or "\\" in name or name.startswith("."):
                return self._send(404, "not found", "text/plain")
            full = os.path.join(STATIC, name)
            try:
                with open(full, "rb") as f:
                    data = f.read()
            except OSError:
                return self._send(404, "not found", "text/plain")
            ctype = CONTENT_TYPES.get(os.path.splitext(name)[1], "application/octet-stream")
            return self._send(200, data, ctype)
        self._send(404, "not found", "text/plain")

    def do_POST(self):
        path = self.path.split("?", 1)[0]
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b"{}"
        try:
            body = json.loads(raw.decode() or "{}")
        except ValueError:
            return self._send(400, json.dumps({"ok": False, "error": "bad JSON"}))
        if path == "/api/act":
            actions = body.get("actions")
            if actions is None:
                actions = [body]
            if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
                return self._send(400, json.dumps({"ok": False, "error": "actions must be a list of objects"}))
            return self._send(200, json.dumps(self.ws.act(actions)))
        if path == "/api/review":
            text = body.get("record")
            if not isinstance(text, str) or len(text) > 1 << 20:
                return self._send(400, json.dumps({"ok": False, "error": "record must be a record file's text"}))
            return self._send(200, json.dumps(self.ws.review_record(text)))
        self._send(404, json.dumps({"ok": False, "error": "not found"}))

    def _events(self):
        ws = self.ws
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        last_text = None
        seq = 0
        ver = -1
        idle = time.monotonic()
        try:
            while not ws.stopping and not self.server.stopping:
                ver = ws.wait_change(ver, 10.0)
                out = []
                text = ws.frame_json()
                if text != last_text:
                    last_text = text
                    out.append("event: frame\ndata: %s\n\n" % text)
                seq, lines = ws.log_since(seq)
                if lines:
                    out.append("event: log\ndata: %s\n\n" % json.dumps(lines))
                if not out and time.monotonic() - idle > 10:
                    out.append(": keep-alive\n\n")
                if out:
                    idle = time.monotonic()
                    self.wfile.write("".join(out).encode())
                    self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, OSError):
            pass


class SimServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = False

    def __init__(self, addr, websim, bind=True):
        self.websim = websim
        self.stopping = False
        super().__init__(addr, Handler, bind_and_activate=bind)

    @property
    def url(self):
        host, port = self.server_address[:2]
        if host in ("0.0.0.0", "::", ""):
            host = "127.0.0.1"
        return "http://%s:%d/" % (host, port)


def make_server(host="127.0.0.1", port=8765, websim=None, tries=20, fd=None):
    """Bind to port, or the next free one (port 0: any free port). fd: a
    listening socket handed over by the process this one replaced (a
    restart as another board keeps the page's address)."""
    if fd is not None:
        import socket

        server = SimServer((host, port), websim, bind=False)
        server.socket.close()
        server.socket = socket.socket(fileno=fd)
        server.server_address = server.socket.getsockname()
        return server
    last = None
    for p in [port] if port == 0 else range(port, port + tries):
        try:
            return SimServer((host, p), websim)
        except OSError as e:
            last = e
    raise OSError("no free port from %d to %d: %s" % (port, port + tries - 1, last))


class Running:
    """A started simulator and server (for tests and the screenshot tool)."""

    def __init__(self, host="127.0.0.1", port=0, state_dir=None, seed=None, speed=1.0):
        self.websim = WebSim(state_dir=state_dir, seed=seed, speed=speed)
        self.server = make_server(host, port, self.websim)
        self.url = self.server.url
        self.websim.start()
        self.thread = threading.Thread(target=self.server.serve_forever, name="http", daemon=True)
        self.thread.start()

    def stop(self):
        self.server.stopping = True
        self.websim.stop()
        self.server.shutdown()
        self.server.server_close()

    def wait_ready(self, timeout_s=30):
        """Until the firmware has booted and the page knows its state (set-up
        or play); the time it took is not the test's business."""
        ws = self.websim
        deadline = time.monotonic() + timeout_s
        while ws.fw.get("state") not in ("setup", "play"):
            if time.monotonic() > deadline:
                raise SimError("the board did not boot in %d s" % timeout_s)
            ws.poll_soon()
            time.sleep(0.1)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def _has_display():
    if sys.platform.startswith(("win", "darwin")):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def serve(args, seat=None):
    """seat: with --relay, the host tool that plays the room's seat with the
    board (host_tools/relay/sim_seat.py: python -m simulator runs it)."""
    state_dir = getattr(args, "state_dir", None) or default_state_dir()
    if getattr(args, "relay", None) and args.room and not getattr(args, "state_dir", None):
        # A room's game on a flash of its own: the saved game of `make sim` is kept.
        state_dir = os.path.join(state_dir, "room-" + "".join(c for c in args.room if c.isalnum() or c in "-_"))
    try:
        ws = WebSim(state_dir=state_dir, seed=getattr(args, "seed", None))
        server = make_server(args.host, args.port, ws, fd=getattr(args, "listen_fd", None))
    except OSError as e:
        print("simulator: %s" % e, file=sys.stderr)
        return 2
    def restart(board=None, extra=()):
        # The listening socket goes to the new process as it is: the page's
        # address stays, and no other program can take the port meanwhile.
        server.stopping = True
        fd = server.socket.fileno()
        os.set_inheritable(fd, True)
        try:
            ws.stop()
        except Exception:
            pass  # the flash folder is saved move by move; nothing to lose
        # (the simulator by its folder: it restarts from any folder)
        argv = [sys.executable, os.path.dirname(os.path.abspath(__file__)), "serve"] + \
            (["--board", board] if board else []) + \
            ["--host", args.host, "--port", str(server.server_address[1]), "--listen-fd", str(fd),
             "--state-dir", state_dir, "--no-browser"]
        if getattr(args, "seed", None) is not None:
            argv += ["--seed", str(args.seed)]
        # (a seat of a relay's room stays that seat on the new board: the
        # room it plays now, which a rematch may have changed)
        b = getattr(getattr(ws, "relay_seat", None), "bridge", None)
        if b is not None:
            args.room, args.token = b.room, b.token
        relay = list(extra) or (["--relay", args.relay, "--room", args.room, "--token", args.token]
                                if getattr(args, "relay", None) and args.room and args.token else [])
        os.execv(sys.executable, argv + relay)

    ws.restart = restart
    ws.start()
    url = server.url
    print("Triad board simulator running at %s" % url, flush=True)
    if getattr(args, "relay", None) and seat is not None:
        # The board plays a seat of a relay's room (host_tools/relay/sim_seat.py).
        if getattr(args, "make_room", False):
            from simulator.game import GAME

            args.room = seat.make(ws, args.relay, GAME.NAME)
        else:
            seat.start(ws, args.relay, args.room, args.token)
        if ws.relay_seat is not None:
            args.room, args.token = ws.relay_seat.room, ws.relay_seat.token  # (a restart keeps the seat)
        if args.room:
            print("  plays a seat of room %s at %s" % (args.room, args.relay), flush=True)
    print("  flash (saved game): %s   seed: %d   Ctrl-C stops" % (state_dir, ws.seed), flush=True)
    if not getattr(args, "no_browser", False) and _has_display():
        try:
            import webbrowser

            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
        except Exception:
            pass
    try:
        import signal

        def _term(signum, frame):
            raise KeyboardInterrupt

        signal.signal(signal.SIGTERM, _term)  # `kill` stops as cleanly as Ctrl-C
    except (ValueError, OSError):
        pass  # not the main thread
    try:
        server.serve_forever(poll_interval=0.25)
    except KeyboardInterrupt:
        print("\nsimulator: stopping", flush=True)
    finally:
        server.stopping = True
        ws.stop()
        server.server_close()
    return 0
