"""`python -m host_tools play --server URL --room R (--token T | --watch)`:
a seat of a relay's room (or a watcher's view) in the terminal;
`python -m host_tools play --server URL --create GAME [--mode M]` makes a
room and prints each seat's invitation (its page link and the commands that
join it from a terminal or a board). The board is
drawn by host_tools.board_text from a local copy of the room's game (the
same rules core as the relay's); moves are typed in the game's notation.

It reads what is typed at any time: a move (on your turn), or one of
COMMANDS; `quit` ends it within a second. If the relay goes away it
reconnects by itself (with backoff) and shows the moves made meanwhile; a
move sent as the link broke is sent again with its ply only if the room does
not have it, so no move is lost or made twice.
"""
import sys
import time

from host_tools import games
from host_tools.relay import rules
from host_tools.relay.client import Client, RelayError
from host_tools.relay.invite import tool

COMMANDS = "commands: show, moves, legal, help, quit"


class View:
    def __init__(self, state, colour, out):
        self.state = state
        self.g = rules.Game(state["game"], state["position"], state.get("mode"), state["moves"])
        self.colour = colour
        self.out = out

    def name(self, side):
        g = self.g.game
        return g.SIDE_NAMES[g.SIDES.index(side)] if side in g.SIDES else str(side)

    def show(self):
        from host_tools.board_text import render

        self.out(render(self.g.pos, colour=self.colour, game=self.g.game))

    def moves(self):
        for i, (seat, text) in enumerate(zip(self.g.seats, self.g.moves)):
            self.out("%d. %s %s" % (i + 1, self.name(seat), text))

    def apply(self, ev):
        """A room event from the relay: print it; the local game follows."""
        if ev.get("op") == "move":
            if ev["ply"] != len(self.g.moves) + 1:
                return False  # out of step: the caller reloads the state
            self.g.play(ev["move"])
            self.out("%d. %s %s" % (ev["ply"], self.name(ev["seat"]), ev["move"]))
            self.show()
        elif ev.get("op") == "over":
            self.out("game over: %s (%s)" % (self.result_words(ev.get("result")), ev.get("reason", "")))
        return True

    def result_words(self, result):
        if result == "draw":
            return "a draw"
        return "%s wins" % self.name(result)


QUIT = ("quit", "exit", "q")
BACKOFF = (0.5, 1.0, 2.0, 4.0, 8.0, 15.0)  # seconds between tries to reach a relay that went away
POLL = 0.2  # seconds the loop waits for the relay before it looks at what was typed


def read_lines(inp, q):
    """Feed the lines typed (and the end of input, None) to q, in a thread of
    their own: the loop that waits for the relay never waits for a person,
    so `quit` ends it at any time. Standard input is read with os.read, not
    input(): a thread blocked inside sys.stdin's buffer would hold its lock
    at the interpreter's exit."""
    import os

    if inp is not input:
        while True:
            try:
                q.put(inp(""))
            except EOFError:
                q.put(None)
                return
    buf = b""
    while True:
        try:
            chunk = os.read(0, 4096)
        except OSError:
            chunk = b""
        if not chunk:
            if buf:
                q.put(buf.decode("utf-8", "replace"))
            q.put(None)
            return
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            q.put(line.decode("utf-8", "replace").rstrip("\r"))


def quit_soon(out_flush, grace=0.8):
    """A last resort for `quit`: if the loop has not ended within `grace`
    seconds (a request to a relay that does not answer), end the process.
    Returns the timer: run() cancels it once it has ended (a caller in the
    same process, a test, goes on)."""
    import os
    import threading

    def end():
        out_flush()
        os._exit(0)

    t = threading.Timer(grace, end)
    t.daemon = True
    t.start()
    return t


class Session:
    """One seat's (or a watcher's) link to the room, made again after the
    relay goes away: the same room, the same seat, and the moves made
    meanwhile shown."""

    def __init__(self, url, room, token, colour, out, connect=Client):
        self.url, self.room, self.token = url, room, token
        self.colour, self.out = colour, out
        self.connect = connect
        self.c = None
        self.v = None
        self.pending = None  # (ply, text) of our move sent and not yet answered

    def open(self, timeout=None):
        """Connect and join (or watch): the state."""
        c = self.connect(self.url, open_timeout=timeout or 10.0)
        try:
            st = c.join(self.room, self.token) if self.token is not None else c.watch(self.room)
        except Exception:
            c.close()
            raise
        self.c = c
        return st

    def lost(self):
        try:
            self.c.close()
        except Exception:
            pass
        self.c = None

    def catch_up(self, st):
        """After a reconnection: print the moves made while away (or, if the
        room's game is not this one's continuation, the whole game again);
        send again our move that went unanswered if the room does not have it
        (with its ply: never twice)."""
        old = self.v
        new = View(st, self.colour, self.out)
        if old.g.moves == new.g.moves[:len(old.g.moves)]:
            made = list(zip(new.g.seats, new.g.moves))[len(old.g.moves):]
            self.out("back in room %s: %s" % (self.room, "%d move%s made meanwhile" % (
                len(made), "" if len(made) == 1 else "s") if made else "no move made meanwhile"))
            for i, (seat, text) in enumerate(made, len(old.g.moves) + 1):
                self.out("%d. %s %s" % (i, new.name(seat), text))
        else:
            self.out("back in room %s: its game, from the start:" % self.room)
            new.moves()
        self.v = new
        new.show()
        if new.g.over():
            self.out("game over: %s (%s)" % (new.result_words(new.g.result()), new.g.reason()))
            return
        if self.pending is not None:
            ply, text = self.pending
            self.pending = None
            if len(new.g.moves) == ply - 1 and new.g.to_move() == st["seat"]:
                self.out("your move %s was not recorded: sending it again" % text)
                self.play(text)


def run(url, room, token=None, colour=False, until_ply=None, inp=input, out=print, backoff=BACKOFF, connect=Client):
    """Play (token) or watch (no token) room `room`; 0 when the game is over
    or the person quits (`quit` ends it within a second, whatever the relay
    does), 1 if the relay refuses to let us in. A relay that goes away is
    tried again and again (after 0.5, 1, 2, 4, 8, then every 15 s) and the
    room taken up where it is."""
    import queue
    import threading

    from websockets.exceptions import ConnectionClosed, WebSocketException

    lost_errors = (ConnectionClosed, WebSocketException, OSError, TimeoutError, EOFError)
    s = Session(url, room, token, colour, out, connect)
    try:
        st = s.open()
    except RelayError as e:
        out("refused: %s" % e)
        return 1
    except Exception as e:  # cannot connect: one line, no traceback
        out("cannot reach the relay at %s: %s" % (url, e))
        return 1
    s.v = v = View(st, colour, out)
    g = v.g.game
    seat = st["seat"]
    if seat is None:
        out("watching room %s: %s" % (room, g.TITLE))
    else:
        out("room %s: %s, you play %s" % (room, g.TITLE, v.name(seat)))
    v.moves()
    v.show()
    if v.g.over():
        out("game over: %s (%s)" % (v.result_words(v.g.result()), v.g.reason()))
        s.c.close()
        return 0

    def flush():
        try:
            sys.stdout.flush()
        except Exception:
            pass

    def prompt(text):
        if out is print:
            sys.stdout.write(text)
            sys.stdout.flush()
        else:
            out(text)

    def play(text):
        ply = len(s.v.g.moves) + 1
        s.pending = (ply, text)
        ev = s.c.move(text, ply=ply)
        s.pending = None
        s.v.apply(ev)

    s.play = play
    lines = queue.Queue()
    threading.Thread(target=read_lines, args=(inp, lines), daemon=True).start()
    held = []  # a line read while waiting to reconnect
    quitting = []  # quit_soon's timer
    eof = False
    prompted = False
    tries = 0
    next_try = 0.0
    try:
        while True:
            v = s.v
            if until_ply is not None and len(v.g.moves) >= until_ply:
                return 0
            if v.g.over() and (seat is not None or until_ply is None):
                return 0
            mine = seat is not None and v.g.to_move() == seat
            if mine and eof:
                return 0
            if mine and s.c is not None and not prompted:
                prompt("%s to move> " % v.name(seat))
                prompted = True
            # What was typed, first: `quit` whatever the relay is doing.
            try:
                text = held.pop() if held else lines.get_nowait()
            except queue.Empty:
                text = False
            if text is None:
                eof = True
                continue
            if text is not False:
                text = text.strip()
                if text in QUIT:
                    quitting.append(quit_soon(flush))
                    for _ in range(100):  # what has already come is shown first
                        try:
                            ev = s.c.next(timeout=0) if s.c is not None else None
                        except Exception:
                            ev = None
                        if ev is None or not s.v.apply(ev):
                            break
                    return 0
                if not text:
                    continue
                if text == "help":
                    out(games.word(g, "MOVE_HELP") or "type a move in the game's notation")
                    out(COMMANDS)
                elif text == "show":
                    v.show()
                elif text == "moves":
                    v.moves()
                elif text == "legal":
                    out(" ".join(v.g.legal()))
                elif seat is None:
                    out("watching: no moves from here (%s)" % COMMANDS)
                elif s.c is None:
                    out("not connected to the relay: type your move again once back")
                else:
                    try:
                        play(text)
                        prompted = False
                    except RelayError as e:
                        out("refused: %s" % e)
                        prompted = False
                    except lost_errors:
                        s.lost()
                        out("connection to the relay lost: reconnecting (your move %s is sent again if it "
                            "was not recorded)" % text)
                        tries, next_try = 0, time.monotonic()
                continue
            if s.c is None:  # away: try again when it is time, typing still read meanwhile
                now = time.monotonic()
                if now < next_try:
                    try:
                        held.append(lines.get(timeout=min(POLL, next_try - now)))  # (handled at the top)
                    except queue.Empty:
                        pass
                    continue
                try:
                    st2 = s.open(timeout=2.0)
                except RelayError as e:
                    out("refused: %s" % e)
                    return 1
                except Exception:
                    delay = backoff[min(tries, len(backoff) - 1)]
                    tries += 1
                    next_try = time.monotonic() + delay
                    continue
                tries = 0
                prompted = False
                try:
                    s.catch_up(st2)  # (it may send our unanswered move again)
                except RelayError as e:
                    out("refused: %s" % e)
                except lost_errors:  # lost again as it went: it stays pending, sent again once back
                    s.lost()
                    out("connection to the relay lost: reconnecting")
                    next_try = time.monotonic()
                continue
            try:
                ev = s.c.next(timeout=POLL)
            except TimeoutError:
                continue
            except RelayError as e:
                out("refused: %s" % e)
                continue
            except lost_errors:
                s.lost()
                out("connection to the relay lost: reconnecting")
                tries, next_try = 0, time.monotonic()
                continue
            if ev.get("op") == "gone":
                out("the room is gone: %s" % ev.get("reason", ""))
                return 1
            if not v.apply(ev):
                st2 = s.c.state()
                s.v = View(dict(st2, seat=seat), colour, out)
                s.v.show()
            if ev.get("op") == "move":
                prompted = False
            if ev.get("op") == "over":
                return 0
    except KeyboardInterrupt:
        return 0
    finally:
        if s.c is not None:
            try:
                s.c.close()
            except Exception:
                pass
        for t in quitting:
            t.cancel()


def page_url(url):
    """The relay's page for its WebSocket URL: ws://H:P/play -> http://H:P/."""
    scheme, rest = url.split("://", 1) if "://" in url else ("ws", url)
    host = rest.split("/", 1)[0]
    return "%s://%s/" % ("https" if scheme == "wss" else "http", host)


def create(url, game, position=None, mode=None, out=print):
    """Make a room of `game` at the relay and print its invitations: 0, or 1
    if the relay cannot be reached or refuses."""
    try:
        c = Client(url)
    except (OSError, Exception) as e:  # cannot connect: one line, no traceback
        out("cannot reach the relay at %s: %s" % (url, e))
        return 1
    try:
        made = c.create(game, position=position, mode=mode)
    except RelayError as e:
        out("refused: %s" % e)
        return 1
    finally:
        c.close()
    g = games.load(made["game"])
    room, page = made["room"], page_url(url)
    out("room %s: %s%s" % (room, g.TITLE, " (%s)" % made["mode"] if made.get("mode") else ""))
    out("Give each player their own seat's lines: the token in them is that seat's secret.")
    for side, token in made["seats"].items():
        out("")
        out("%s (%s): token %s" % (g.SIDE_NAMES[g.SIDES.index(side)], side, token))
        # (each line runs as printed, from any folder: host_tools.relay.invite)
        out("  page:      %s?room=%s#token=%s" % (page, room, token))
        out("  terminal:  %s play --server %s --room %s --token %s" % (tool(), url, room, token))
        out("  board:     %s online --port /dev/ttyACM0 --server %s --room %s --token %s"
            % (tool(), url, room, token))
        out("  simulator: %s --relay %s --room %s --token %s" % (tool("simulator"), url, room, token))
    out("")
    out("Anyone may watch:")
    out("  page:      %s?room=%s" % (page, room))
    out("  terminal:  %s play --server %s --room %s --watch" % (tool(), url, room))
    return 0


def add_arguments(p):
    p.add_argument("--server", metavar="URL", help="play a room of a relay (ws://HOST:PORT/play) instead of the engine")
    p.add_argument("--room", help="the room's id (with --server)")
    p.add_argument("--token", help="your seat's token (with --server)")
    p.add_argument("--watch", action="store_true", help="watch the room (with --server)")
    p.add_argument("--until-ply", type=int, metavar="N", help="(watching) stop after the room's move N")
    p.add_argument("--create", metavar="GAME", help="(with --server) make a room of GAME (nehren, browne, "
                   "cornelson; --position, --mode) and print each seat's invitation")
    p.add_argument("--mode", help="(with --create) the game's mode (Cornelson: standard, breach, trap, capture, "
                   "tourney)")


def cmd(args):
    if args.create:
        if args.room or args.token is not None or args.watch:
            games.usage_error("--create makes a new room: no --room, --token or --watch with it")
        return create(args.server, args.create, args.position, args.mode)
    if args.mode:
        games.usage_error("--mode goes with --create")
    if not args.room or (args.token is None) == (not args.watch):
        games.usage_error("--server needs --room and one of --token or --watch")
    colour = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    return run(args.server, args.room, None if args.watch else args.token, colour, args.until_ply)
