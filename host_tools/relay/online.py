"""`python -m host_tools online --port PORT --server URL --room R --token T`:
a board at a relay's room (docs/relay.md; README "Playing someone who is not
at the table").

The board (a serial device, a pyserial URL such as socket://127.0.0.1:PORT,
`sim[:SEED]`, `exec:COMMAND`: host_tools.link) plays the token's seat at the
table; every other seat is made a remote seat (docs/protocol.md, "Remote
seats"). Each move the board commits for its seat goes to the relay; each
move the relay sends for another seat goes to the board as `remote <move>`,
lit as the board's own engine move, and the board commits it once the
person has carried it out.

Keeping the two in step (after a power cut, an unplugged cable, a lost
connection, or at the start): the relay's game (its start S and moves R) is
the truth; the board's game (its start s and moves B) is matched against it
(`reconcile`):

  - the board's start must be the room's position after some k of its moves
    (k = 0 normally; k > 0 when this tool once loaded a later position), and
    B must agree with R[k:] as far as both go;
  - B longer: the rest are the table's own moves the relay has not got (a
    power cut between the commit and the send): sent, each with its ply, so
    the relay takes each once only (a ply it already has is refused);
  - R longer: the rest are shown to carry out, one at a time, each when the
    board is in play and that seat is to move;
  - they disagree, or the board's game is another: the room's position is
    loaded onto the board (`position`), and the person sets the pieces as
    the board lights them.

So a move is never lost (each side's list is only ever extended from the
other's) and never counted twice (the relay's ply numbers, the board's
list compared before anything is sent).
"""
import asyncio
import json
import queue
import random
import sys
import threading
import time

from host_tools import games
from host_tools.link import LinkError, SimLink, open_link

RETRY_S = 1.0  # between attempts to reach a lost board or relay
LOG_PREFIX = "online: "


class BoardThread:
    """The board's link, used from one thread only (SimLink is not
    thread-safe): commands are queued to it and answered through futures;
    its events go to an asyncio queue."""

    def __init__(self, spec, loop, events, hand=None, log=print):
        self.spec = spec
        self.loop = loop
        self.events = events  # asyncio.Queue of event lines (None: the board is lost)
        self.hand = hand  # a simulated person (Hand) or None
        self.log = log
        self.link = None
        self.calls = queue.Queue()
        self.stopping = False
        self.thread = threading.Thread(target=self._run, name="online-board", daemon=True)

    def start(self):
        self.thread.start()

    def stop(self):
        self.stopping = True
        self.thread.join(10)
        if self.link is not None:
            try:
                self.link.close()
            except Exception:
                pass

    def call(self, fn):
        """fn(link) run in the board's thread; an awaitable of its result."""
        fut = self.loop.create_future()
        self.calls.put((fn, fut))
        return fut

    def _answer(self, fut, ok, value):
        def put():
            if not fut.done():
                (fut.set_result if ok else fut.set_exception)(value)

        self.loop.call_soon_threadsafe(put)

    def _emit(self, line):
        self.loop.call_soon_threadsafe(self.events.put_nowait, line)

    def _open(self):
        try:
            # (a callable: a link of the caller's, e.g. the simulator page's own board)
            link = self.spec() if callable(self.spec) else open_link(self.spec)
            link.hello()
        except (LinkError, OSError) as e:
            self.log("the board at %s cannot be reached (%s): trying again" % (self.spec, e))
            return None
        self.link = link
        if self.hand is not None:
            self.hand.attach(link)
        self._emit("link open")
        return link

    def _run(self):
        while not self.stopping:
            link = self.link
            if link is None or link.closed:
                if link is not None:
                    self.link = None
                    self._emit(None)
                if self._open() is None:
                    time.sleep(RETRY_S)
                continue
            busy = False
            while True:
                try:
                    fn, fut = self.calls.get_nowait()
                except queue.Empty:
                    break
                busy = True
                try:
                    self._answer(fut, True, fn(link))
                except Exception as e:  # (LinkError: the future says so)
                    self._answer(fut, False, e)
            ev = link.next_event(0.01)
            if ev is not None:
                self._emit(ev)
                continue
            if self.hand is not None:
                try:
                    if self.hand.act(link):
                        continue
                except Exception as e:  # (the simulated person fumbled: they look again)
                    self.log("the simulated person could not act: %s: %s" % (type(e).__name__, e))
            if not busy:
                # (the simulator's time runs while we wait: a little rest
                # keeps an idle simulated board from taking a whole core)
                time.sleep(0.005 if isinstance(link, SimLink) else 0.001)


class Hand:
    """A simulated person at a simulated board (`--hand`): carries out each
    move the board lights for a remote seat, and plays the table's seat
    (a random legal move, from its seed), step by step as
    `python -m simulator script` does (host_tools.records.move_script)."""

    def __init__(self, seed=1, think_ms=0):
        self.rng = random.Random(seed)
        self.lit = None  # the remote move lit, to carry out
        self.mine = None  # the table's side letters
        self.think_ms = think_ms
        self.game = None
        self.link = None
        self.stopped = False  # (tests: the hand rests)
        self.play_own = True  # (tests: False, it only carries out the room's moves)
        self.looked = 0.0  # when the hand last looked at the board (time.monotonic)

    def attach(self, link):
        self.link = link
        self.game = games.load(link.game)

    def act(self, link):
        """One action when one is due: True if it did something."""
        if self.stopped or not isinstance(link, SimLink) or self.mine is None:
            return False
        now = time.monotonic()
        if self.lit is None and now - self.looked < 0.05:
            return False
        self.looked = now
        st = link.send("state")
        w = st.split(None, 3)
        if len(w) < 4 or w[0] != "ok":
            return False
        state, position = w[2], w[3]
        g = self.game
        sim = link.sim
        if state in ("sync", "setup"):
            sim.board.set_position(position)  # the pieces set as the board lights them
            link.next_event(1.0)
            return True
        if state != "play":
            return False
        pos = g.parse_position(position)
        side = g.SIDES[pos.side]
        if self.lit is not None:
            text = self.lit
            self.lit = None
        elif side in self.mine and self.play_own:
            moves = games.legal_moves(g, pos)
            if not moves:
                return False
            text = g.format_move(pos, self.rng.choice(moves))
            if self.think_ms:
                sim.run(self.think_ms)
        else:
            return False
        from host_tools.records import move_script
        from simulator.script import parse, run

        run(sim, parse(move_script(g, pos, text)))
        return True


class Bridge:
    def __init__(self, port, server, room, token, hand=None, log=None, exit_when_over=True):
        self.port = port
        self.server = server
        self.room = room
        self.token = token
        self.hand = hand
        self.log = log or (lambda text: print(LOG_PREFIX + text, flush=True))
        self.exit_when_over = exit_when_over
        self.ws = None
        self.game = None  # host_tools.relay.rules.Game: the room's game as the relay has it
        self.seat = None
        self.base = 0  # the board's start is the room's position after this many moves
        self.board_moves = []  # the board's moves since its start
        self.shown = -1  # the index of the relay's move last sent to the board as remote
        self.sent = set()  # plies of the table's moves sent to the relay, not yet echoed
        self.board_ready = False
        self.board_start = None  # the board's start position (canonical text)
        self.refusals = 0  # the table's moves the relay refused since the last reconcile
        self.over = False
        self.stats = []  # (ply, event, time.monotonic()): "lit" for remote moves lit, "commit" for the table's
        self.on_event = None  # (tests) called with each board event line
        # A rematch asked in the room (host_tools/relay/rematch.py): followed
        # by a board that stays when the game is over (the simulator's seat),
        # into the new room with this seat's new token.
        self.follow_rematch = False
        self._fresh = False  # (the board's game is the old room's: the new room's start goes on it)
        self._moved = False  # (to the rematch's room: join it)
        self.rematch_seats = None  # (a rematch asked here: every new seat's token, to pass on)

    # -- the relay -----------------------------------------------------------

    async def _connect(self):
        from websockets.asyncio.client import connect

        ws = await connect(self.server, max_size=2 ** 20, compression=None, open_timeout=10)
        await ws.send(json.dumps({"op": "join", "room": self.room, "token": self.token}))
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if msg.get("op") == "state":
                break
            if msg.get("op") == "error":
                await ws.close()
                raise PermissionError(msg.get("reason", "refused"))
        self.ws = ws
        return msg

    def _load_state(self, st):
        from host_tools.relay.rules import Game

        self.game = Game(st["game"], st["position"], st.get("mode"), st.get("moves", []))
        self.seat = st["seat"]
        self.mode = st.get("mode")

    async def _send(self, msg):
        if self.ws is not None:
            try:
                await self.ws.send(json.dumps(msg))
            except Exception:
                pass  # (the reader sees the connection go and reconnects)

    # -- the board -----------------------------------------------------------

    async def board(self, command, timeout=5.0):
        return await self.bt.call(lambda link: link.send(command, timeout))

    async def reconcile(self):
        """Bring board and relay into step (the module's docstring)."""
        if self.game is None or not self.board_ready:
            return
        g = self.game.game
        name = await self.bt.call(lambda link: link.game)
        if name != self.game.name:
            raise SystemExit("host_tools: the board plays %s, the room %s" % (name, self.game.name))
        others = "".join(s for s in g.SIDES if s != self.seat) or "off"
        if self.mode:
            r = await self.board("set mode " + self.mode)
            if not r.startswith("ok"):
                self.log("the board would not take the room's mode %s: %s" % (self.mode, r))
        r = await self.board("remote seats " + others)
        if not r.startswith("ok"):
            raise SystemExit("host_tools: the board has no remote seats (%s): flash newer firmware" % r)
        st = await self.bt.call(lambda link: link.status())
        start = _canon_position(g, st.get("start", ""))
        self.board_start = start
        bmoves = self._turns(st.get("moves", []))
        if bmoves is None or self.refusals >= 2 or self._fresh:
            # (unreadable, the room refuses its moves, or a rematch: the board's
            # moves are another room's; the room's game goes on it)
            bmoves, start = [], None
        self.refusals = 0
        self._fresh = False
        R = self.game.moves
        positions = self._positions()
        base = None
        for k in range(len(R) + 1):
            if positions[k] == start:
                n = min(len(bmoves), len(R) - k)
                if bmoves[:n] == R[k:k + n]:
                    base = k
                    break
        if base is None:
            # Another game on the board (or it and the room disagree): the
            # room's position goes onto it, to be set up as lit.
            self.log("the board's game is not the room's: loading the room's position (set the pieces as lit)")
            r = await self.board("position " + positions[-1])
            if not r.startswith("ok"):
                raise SystemExit("host_tools: the board refused the room's position: %s" % r)
            base, bmoves = len(R), []
        if self.hand is not None:
            # (only now: the simulated person plays the table's seat in the
            # room's game, never in the board's own before it is loaded)
            self.hand.mine = self.seat
        self.base = base
        self.board_moves = list(bmoves)
        if base == len(R) and not bmoves:
            self.board_start = positions[-1]
        self.shown = -1
        self.log("in step: the room has %d moves, the board %d from move %d" % (len(R), len(bmoves), base))
        # The table's moves the relay has not got, in order, each with its ply.
        for i in range(len(R) - base, len(bmoves)):
            await self._send_move(base + i, bmoves[i])
        await self.push()

    def _turns(self, words):
        """The board's move words (a `moves` reply's, status's) as moves:
        a turn may have several words (host_tools.games.group_turns);
        None when they do not read from the board's start."""
        g = self.game.game
        try:
            return games.group_turns(g, g.parse_position(self.board_start), words)
        except (ValueError, IndexError, KeyError):
            return None

    def _positions(self):
        from host_tools.relay.rules import Game

        g = Game(self.game.name, self.game.start, self.game.mode)
        out = [_canon_position(g.game, g.game.format_position(g.pos))]
        for text in self.game.moves:
            g.play(text)
            out.append(_canon_position(g.game, g.game.format_position(g.pos)))
        return out

    async def _send_move(self, index, text):
        ply = index + 1
        if ply in self.sent:
            return
        self.sent.add(ply)
        self.log("sending the table's move %d: %s" % (ply, text))
        await self._send({"op": "move", "move": text, "ply": ply})

    async def push(self):
        """Show the room's next move on the board, if it is a remote seat's
        and the board is ready for it."""
        n = self.base + len(self.board_moves)
        R = self.game.moves if self.game else []
        if not self.board_ready or n >= len(R) or self.shown == n:
            return
        seat = self.game.seats[n]
        text = R[n]
        r = await self.board("remote " + text)
        if r.startswith("ok"):
            self.shown = n
            self.stats.append((n + 1, "lit", time.monotonic()))
            self.log("move %d of %s lit on the board: %s" % (n + 1, seat, text))
            words = self.words(n)
            if words:
                # (the words the simulator's page and the relay's page say of it)
                self.log("%s's move, from afar: %s" % (self.game.game.SIDE_NAMES[self.game.game.SIDES.index(seat)],
                                                       words))
            if self.hand is not None:
                self.hand.lit = text
        elif r.startswith("err turn") and seat == self.seat:
            self.shown = n
            self.log("the room has the table's move %d %s (lost on the board): play it at the table" % (n + 1, text))
        elif not r.startswith("err busy"):
            self.log("the board refused the room's move %s: %s" % (text, r))

    def words(self, n):
        """The room's move n (from 0) in words, step by step as its lights
        show it ("lift c1, put it on c4 showing 3"), or "" if they cannot be
        made."""
        try:
            from host_tools.relay.rules import Game
            from simulator.game import move_words_of

            g = Game(self.game.name, self.game.start, self.game.mode, self.game.moves[:n])
            return move_words_of(g.game, g.pos, g.game.parse_move(g.pos, self.game.moves[n]))
        except Exception:  # (words are a courtesy: the move is lit whatever they say)
            return ""

    async def on_board(self, ev):
        if self.on_event is not None:
            self.on_event(ev)
        seen_at = time.monotonic()  # (the commit's time for the stats: when its event came in)
        kind, _, text = ev.partition(" ")
        if kind == "link":
            self.board_ready = True
            self.log("board connected")
            await self.reconcile()
            return
        if not self.board_ready:
            return
        if kind == "move":
            # The board's own list, not a count of events: an event already
            # reflected in a status read before it changes nothing here.
            r = await self.board("moves")
            if not r.startswith("ok moves"):
                return
            B = self._turns(r.split()[2:])
            old = len(self.board_moves)
            if B is None or len(B) < old or B[:old] != self.board_moves:
                await self.reconcile()
                return
            self.board_moves = B
            R = self.game.moves
            for j in range(old, len(B)):
                i = self.base + j
                if i < len(R):
                    if R[i] != B[j]:
                        self.log("the board committed %s where the room has %s: back in step from the room"
                                 % (B[j], R[i]))
                        await self.reconcile()
                        return
                    self.log("move %d carried out: %s" % (i + 1, B[j]))
                else:
                    self.stats.append((i + 1, "commit", seen_at))
                    await self._send_move(i, B[j])
            await self.push()
        elif kind in ("resume", "position", "setup"):
            # Power came back, or another game was begun at the table: the
            # room's game is the one played here.
            await self.reconcile()
        elif kind == "play" or (kind == "state" and text == "play"):
            await self.push()
        elif kind == "remote" and text.startswith("seats "):
            want = "".join(s for s in self.game.game.SIDES if s != self.seat) or "off"
            if text[6:] != want:
                self.log("the board's remote seats are now %s (the room wants %s)" % (text[6:], want))
        elif kind == "over":
            self.log("the board says the game is over: %s" % text)

    async def on_relay(self, msg):
        op = msg.get("op")
        if op == "move":
            ply = msg.get("ply")
            R = self.game.moves
            if not isinstance(ply, int) or ply > len(R) + 1:
                await self._send({"op": "state"})  # out of step: the room's whole game again
                return
            if ply <= len(R):
                return  # (had it)
            self.game.play(msg["move"])
            if ply in self.sent:
                self.sent.discard(ply)
                self.refusals = 0
            if msg.get("seat") != self.seat:
                self.log("the room's move %d (%s): %s" % (ply, msg.get("seat"), msg["move"]))
            await self.push()
        elif op == "state":
            self._load_state(msg)
            await self.reconcile()
        elif op == "over":
            self.over = True
            self.say_over(msg.get("result"), msg.get("reason", ""))
        elif op == "gone":
            # The room left the relay's store (expired, or a Redis that kept
            # nothing restarted): said, and the join again is refused.
            self.log("the relay says: %s" % msg.get("reason", "the room is gone"))
            await self._close_ws()
        elif op == "rematch" and self.follow_rematch and msg.get("token") and msg.get("room"):
            self.log("rematch: room %s, the board plays %s there" % (msg["room"], msg.get("seat")))
            self.room, self.token = msg["room"], msg["token"]
            self.rematch_seats = msg.get("seats")
            self.game, self.seat, self.over = None, None, False
            self.base, self.board_moves, self.shown, self.sent, self.refusals = 0, [], -1, set(), 0
            self._fresh = self._moved = True
        elif op == "error":
            self.log("the relay refused: %s" % msg.get("reason"))
            if self.sent:
                # The table's move refused: take the room's game again; twice
                # refused, the board's game is not the room's (reconcile).
                self.sent.clear()
                self.refusals += 1
                await self._send({"op": "state"})

    def say_over(self, result, reason):
        """The room's result in words, as `host_tools play` says it
        ("game over: Black wins (b)")."""
        g = self.game.game if self.game is not None else None
        if result == "draw":
            words = "a draw"
        elif g is not None and result in g.SIDES:
            words = "%s wins" % g.SIDE_NAMES[g.SIDES.index(result)]
        else:
            words = str(result)
        self.log("game over: %s (%s)" % (words, reason))

    def done(self):
        return (self.over and self.exit_when_over and self.game is not None
                and self.base + len(self.board_moves) >= len(self.game.moves))

    # -- the loop ------------------------------------------------------------

    async def run(self, until=None):
        loop = asyncio.get_running_loop()
        self.events = asyncio.Queue()
        self.bt = BoardThread(self.port, loop, self.events, self.hand, self.log)
        self.bt.start()
        try:
            while not self.done() and (until is None or not until(self)):
                try:
                    st = await self._connect()
                except PermissionError as e:
                    self.log("the relay refused to let us in: %s" % e)
                    return 1
                except (OSError, asyncio.TimeoutError, Exception) as e:
                    self.log("the relay at %s cannot be reached (%s): trying again" % (self.server, e))
                    await self._drain_board(RETRY_S)
                    continue
                self.log("joined room %s as %s" % (self.room, st["seat"]))
                self.sent.clear()  # (what went out on a lost connection is sent again if the room lacks it)
                self._load_state(st)
                if self.game.over() and not self.over:
                    self.say_over(self.game.result(), self.game.reason())  # (a room already over when joined)
                self.over = self.game.over()
                await self.reconcile()
                await self._serve(until)
                await self._close_ws()
            if self.done() and self.board_ready:
                # The room's game is over and on the board: the board is the
                # table's own again (a new game there is played at the table).
                try:
                    await self.board("remote seats off")
                    self.log("the game is over: the board's seats are the table's again")
                except LinkError:
                    pass
            return 0
        finally:
            await self._close_ws()
            await asyncio.get_running_loop().run_in_executor(None, self.bt.stop)

    async def _close_ws(self):
        ws, self.ws = self.ws, None
        if ws is not None:
            try:
                await ws.close()
            except Exception:
                pass

    async def _drain_board(self, seconds):
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            try:
                ev = await asyncio.wait_for(self.events.get(), left)
            except asyncio.TimeoutError:
                return
            await self._board_event(ev)

    async def _board_event(self, ev):
        if ev is None:
            self.board_ready = False
            self.log("the board is gone: waiting for it")
            return
        try:
            await self.on_board(ev)
        except LinkError as e:
            # (no answer: the board went away meanwhile; its return brings
            # a reconcile)
            self.log("the board did not answer: %s" % e)

    async def _serve(self, until):
        """Until the relay's connection goes (or the game is over)."""
        ws = self.ws
        recv = asyncio.ensure_future(ws.recv())
        board = asyncio.ensure_future(self.events.get())
        try:
            while not self.done() and (until is None or not until(self)):
                done, _ = await asyncio.wait({recv, board}, timeout=0.5, return_when=asyncio.FIRST_COMPLETED)
                if board in done:
                    await self._board_event(board.result())
                    board = asyncio.ensure_future(self.events.get())
                if recv in done:
                    try:
                        raw = recv.result()
                    except Exception as e:
                        self.log("the relay's connection was lost (%s): joining again" % (type(e).__name__,))
                        return
                    try:
                        msg = json.loads(raw)
                    except ValueError:
                        continue
                    if isinstance(msg, dict):
                        try:
                            await self.on_relay(msg)
                        except LinkError as e:
                            self.log("the board did not answer: %s" % e)
                        except (KeyError, TypeError, ValueError) as e:
                            self.log("a message from the relay made no sense (%s): %r" % (e, raw[:200]))
                        if self._moved:
                            self._moved = False
                            return  # (the run's loop joins the rematch's room)
                    recv = asyncio.ensure_future(ws.recv())
        finally:
            recv.cancel()
            board.cancel()
            # (an event taken from the queue and not handled is put back)
            if board.done() and not board.cancelled() and board.exception() is None:
                self.events.put_nowait(board.result())


def _canon_position(g, text):
    try:
        return g.format_position(g.parse_position(text))
    except Exception:
        return text


def _room_game(server, room):
    """The game of `room` (a watcher's look), so that `--port sim` without
    `--game` simulates the board of the room's game; None when the relay
    cannot tell (the bridge then says why when it joins)."""
    from host_tools.relay.client import Client, RelayError

    try:
        with Client(server) as c:
            return c.watch(room).get("game")
    except (RelayError, OSError, TimeoutError, ValueError):
        return None
    except Exception:  # (websockets' own errors: an unreachable or odd server)
        return None


def cmd_online(args):
    hand = Hand(args.hand_seed) if args.hand else None
    port = args.port
    if port.startswith("sim"):
        from host_tools.live import sim_board_for

        sim_board_for(args.game or _room_game(args.server, args.room))
    if args.hand and not port.startswith("sim"):
        raise SystemExit("host_tools: --hand needs the simulator (--port sim[:SEED])")
    if port.startswith("sim") and not args.hand:
        # (nobody can touch a board simulated in this process: say so, or a
        # new user waits for moves that never come)
        print(LOG_PREFIX + "nobody is at the simulated board: --hand puts a simulated person there "
              "(it carries out the room's moves and plays your seat)", flush=True)
    bridge = Bridge(port, args.server, args.room, args.token, hand=hand, exit_when_over=not args.stay)
    try:
        return asyncio.run(bridge.run())
    except KeyboardInterrupt:
        return 130


def add_parser(sub):
    p = sub.add_parser("online", help="play a seat of a relay's room on a board (the other seats are remote)")
    p.add_argument("--port", required=True,
                   help="the board: a serial device (/dev/ttyACM0), a pyserial URL (socket://127.0.0.1:PORT), "
                        "'sim[:SEED]' for the simulator in-process, or 'exec:COMMAND'")
    p.add_argument("--server", required=True, help="the relay, e.g. ws://127.0.0.1:8770/play")
    p.add_argument("--room", required=True, help="the room (from the relay's create)")
    p.add_argument("--token", required=True, help="your seat's token (from whoever created the room)")
    p.add_argument("--hand", action="store_true",
                   help="with the simulator: a simulated person carries out the room's moves and plays the "
                        "table's seat (random legal moves), for trying it out without a board")
    p.add_argument("--hand-seed", type=int, default=1, help="the simulated person's seed (--hand)")
    p.add_argument("--stay", action="store_true", help="stay connected after the game is over")
    games.add_game_arg(p, default=None, help_text="with the simulator: the game its board plays (default: the room's)")
    p.set_defaults(fn=cmd_online)
