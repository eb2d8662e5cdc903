"""`python -m host_tools play --server URL --room R (--token T | --watch)`:
a seat of a relay's room (or a watcher's view) in the terminal;
`python -m host_tools play --server URL --create GAME [--mode M]` makes a
room and prints each seat's invitation (its page link and the commands that
join it from a terminal or a board). The board is
drawn by host_tools.board_text from a local copy of the room's game (the
same rules core as the relay's); moves are typed in the game's notation.

While it is another seat's turn the client waits for the relay (Ctrl-C
leaves); on your turn it reads a line: a move, or one of COMMANDS.
"""
import sys

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


def run(url, room, token=None, colour=False, until_ply=None, inp=input, out=print):
    """Play (token) or watch (no token) room `room`; 0 when the game is over
    or the person quits, 1 if the relay refuses to let us in."""
    try:
        c = Client(url)
    except (OSError, Exception) as e:  # cannot connect: one line, no traceback
        out("cannot reach the relay at %s: %s" % (url, e))
        return 1
    try:
        st = c.join(room, token) if token is not None else c.watch(room)
    except RelayError as e:
        out("refused: %s" % e)
        return 1
    v = View(st, colour, out)
    g = v.g.game
    if st["seat"] is None:
        out("watching room %s: %s" % (room, g.TITLE))
    else:
        out("room %s: %s, you play %s" % (room, g.TITLE, v.name(st["seat"])))
    v.moves()
    v.show()
    if v.g.over():
        out("game over: %s (%s)" % (v.result_words(v.g.result()), v.g.reason()))
        return 0
    try:
        while True:
            if until_ply is not None and len(v.g.moves) >= until_ply:
                return 0
            if v.g.over():
                if st["seat"] is not None or until_ply is None:
                    return 0
            if st["seat"] is not None and v.g.to_move() == st["seat"]:
                try:
                    text = inp("%s to move> " % v.name(st["seat"])).strip()
                except EOFError:
                    return 0
                if not text:
                    continue
                if text in ("quit", "exit", "q"):
                    return 0
                if text == "help":
                    out(games.word(g, "MOVE_HELP") or "type a move in the game's notation")
                    out(COMMANDS)
                elif text == "show":
                    v.show()
                elif text == "moves":
                    v.moves()
                elif text == "legal":
                    out(" ".join(v.g.legal()))
                else:
                    try:
                        ev = c.move(text)
                    except RelayError as e:
                        out("refused: %s" % e)
                        continue
                    v.apply(ev)
                continue
            try:
                ev = c.next(timeout=3600)
            except TimeoutError:
                continue
            if not v.apply(ev):
                st2 = c.state()
                v = View(dict(st2, seat=st["seat"]), colour, out)
                v.show()
            if ev.get("op") == "over":
                return 0
    except KeyboardInterrupt:
        return 0
    finally:
        c.close()


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
