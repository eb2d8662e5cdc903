"""monitor, record and replay: the host side of the board's line protocol.

  monitor  shows the live game in the terminal (a board on a serial port,
           or the simulator through the very same protocol)
  record   saves every game the board plays as a record file (docs/records.md)
  replay   steps through a record in the terminal, prints it as a simulator
           script, or plays it on the simulated board and checks the result
"""
import os
import sys
import time

from host_tools import games, records
from host_tools.board_text import render
from host_tools.link import LinkError, SimLink, open_link

# Events after which the board's position is drawn again.
REDRAW = ("setup", "position", "resume", "play", "move", "over")
_CARRY_POSITION = ("setup", "position", "resume", "play")  # events whose argument is the position


def add_link_args(p):
    p.add_argument("--port", default=None,
                   help="the board: a serial device (/dev/ttyACM0), a pyserial URL (socket://127.0.0.1:PORT), "
                        "'sim[:SEED]' for the simulator in-process, or 'exec:COMMAND' (a process on stdin/stdout)")
    p.add_argument("--sim", action="store_true", help="the simulator in-process (same as --port sim)")
    p.add_argument("--seed", type=int, default=1, help="the simulator's seed (set-up rolls)")
    p.add_argument("--script", help="with the simulator: physical actions to carry out (python -m simulator script format)")
    p.add_argument("--idle", type=float, default=None,
                   help="stop after this many seconds without an event (simulated seconds with --sim)")
    games.add_game_arg(p, default=None,
                       help_text="the game the board should be playing (one of %s; default: the one the board "
                                 "names in its hello)" % ", ".join(games.NAMES))


def sim_board_for(game):
    """Make the in-process simulator simulate a board that plays `game` (a
    name): it picks its board when simulator.game is first imported, from
    TRIAD_SIM_BOARD as `python -m simulator --game NAME` sets it. Nothing
    when that is already decided (imported, or the variable set)."""
    if not game or "simulator.game" in sys.modules or os.environ.get("TRIAD_SIM_BOARD"):
        return
    from simulator.choice import SimError, board_for_game

    try:
        os.environ["TRIAD_SIM_BOARD"] = board_for_game(game)
    except SimError as e:
        raise SystemExit("host_tools: %s" % e)


def connect(args):
    spec = "sim" if args.sim else args.port
    if spec and (spec == "sim" or spec.startswith("sim:")):
        sim_board_for(args.game)
    # The simulator works in its own folder (its flash): make paths absolute first.
    for name in ("script", "out"):
        if getattr(args, name, None):
            setattr(args, name, os.path.abspath(getattr(args, name)))
    if not spec:
        raise SystemExit("host_tools: say which board: --port DEVICE|URL|sim|exec:COMMAND, or --sim")
    try:
        link = open_link(spec, seed=args.seed) if spec == "sim" else open_link(spec)
    except LinkError as e:
        raise SystemExit("host_tools: %s" % e)
    try:
        version, proto = link.hello()
    except LinkError as e:
        link.close()
        raise SystemExit("host_tools: %s" % e)
    if proto < 2:
        link.close()
        raise SystemExit("host_tools: the board speaks protocol %d; these tools need 2 (flash newer firmware)" % proto)
    name = getattr(link, "game", None) or games.DEFAULT
    if name not in games.NAMES:
        link.close()
        raise SystemExit("host_tools: the board plays %r, a game these tools do not know (they know %s)"
                         % (name, ", ".join(games.NAMES)))
    if args.game and args.game != name:
        link.close()
        raise SystemExit("host_tools: the board plays %s, not %s (--game)" % (name, args.game))
    args.board_game = games.load(name)
    return link, version


def run_script(link, path):
    if not isinstance(link, SimLink):
        raise SystemExit("host_tools: --script needs the simulator (--sim)")
    from simulator.script import ScriptError, parse, run

    try:
        with open(path) as f:
            steps = parse(f.read())
        run(link.sim, steps)
    except (OSError, ScriptError) as e:
        raise SystemExit("host_tools: script: %s" % e)


def _idle(args):
    """Seconds without an event that end a session (5 with the simulator)."""
    return args.idle if args.idle is not None else (5.0 if args.sim or (args.port or "").startswith("sim") else None)


def _events(link, args):
    """Yield events until idle time-out, end of line or Ctrl-C."""
    idle = _idle(args)
    try:
        while True:
            ev = link.next_event(idle)
            if ev is None:
                return
            yield ev
    except KeyboardInterrupt:
        return


# -- monitor ----------------------------------------------------------------------------

def cmd_monitor(args):
    link, version = connect(args)
    out = sys.stdout
    colour = args.color == "always" or (args.color == "auto" and out.isatty())
    clear = colour and not args.no_clear

    game = args.board_game

    def draw(st, note=""):
        pos = game.parse_position(st["position"])
        text = render(pos, colour=colour, game=game)
        head = "triad-board %s  state: %s  moves: %d%s" % (version, st["state"], len(st["moves"]), note)
        if clear:
            out.write("\x1b[H\x1b[2J")
        out.write(head + "\n" + text + "\n")
        if st["moves"]:
            out.write("last: %s\n" % " ".join(st["moves"][-6:]))
        out.flush()

    last = {}  # the position last drawn and the board's fault text, for the words

    try:
        st = link.status()
        last["position"] = st["position"]
        last["state"] = st["state"]
        draw(st)
        if args.script:
            run_script(link, args.script)
        n = 0
        for ev in _events(link, args):
            kind = ev.split(" ", 1)[0]
            if kind == "full":
                continue
            out.write("evt %s\n" % ev)
            said = _in_words(game, ev, last)
            if said:
                out.write(said + "\n")
            n += 1
            if kind in REDRAW:
                st = link.status()
                # (the event's own position where it carries one: with
                # --script the events are read after the script ran, and the
                # status is then the last one)
                last["position"] = ev.split(" ", 1)[1] if kind in _CARRY_POSITION and " " in ev else st["position"]
                draw(st, "  (after %s)" % kind)
            out.flush()
            if args.count and n >= args.count:
                break
    except LinkError as e:
        raise SystemExit("host_tools: %s" % e)
    finally:
        link.close()
    return 0


def _in_words(game, ev, last):
    """The words the page says for an event (issue 35): the board's
    diagnosis (`evt fix`) as what to put right, a hint as a move in words."""
    from triad.games import text as game_text

    kind, _, arg = ev.partition(" ")
    if kind == "fault":
        last["fault"] = arg
    if kind == "state":
        last["state"] = arg
        if arg not in game.PHASE_NAMES:
            last["so_far"] = ""
    if kind == getattr(game, "FINISH_EVENT", None):
        last["so_far"] = arg  # the turn so far (the page's frame: so_far)
    if kind == "fix":
        # As the page says it (simulator/say.py): while a turn is played,
        # whose piece and the rule's reason, from the position and the
        # turn so far.
        state = last.get("state", "")
        pos = None
        if state == "play" or state in game.PHASE_NAMES:
            try:
                pos = game.parse_position(last.get("position", ""))
            except ValueError:
                pos = None
        so_far = last.get("so_far", "") if state in game.PHASE_NAMES else ("" if state == "play" else None)
        words = game_text.fix_words(game, game_text.fix_record(arg), last.get("fault", ""), pos,
                                    reasons=state == "play", so_far=so_far)
        return "  say: " + (words or "nothing to put right")
    if kind == "hint":
        try:
            from simulator.game import move_words

            return "  hint: " + move_words(last.get("position", ""), arg, game=game)
        except (ImportError, ValueError):
            return "  hint: " + arg
    return ""


# -- record -----------------------------------------------------------------------------

def _record_path(folder, rec, ours):
    stamp = rec.date.replace(":", "").replace("-", "")[:15] or "game"
    base = os.path.join(folder, "triad-%s" % stamp)
    path = base + ".triad"
    n = 1
    while os.path.exists(path) or path in ours:
        n += 1
        path = "%s-%d.triad" % (base, n)
    return path


def cmd_record(args):
    link, version = connect(args)
    os.makedirs(args.out, exist_ok=True)
    game = args.board_game
    players = [args.black, args.white] + ["?"] * len(game.SIDES)
    for i, spec in enumerate(args.player or ()):
        side, sep, who = spec.partition("=")
        k = games.side_index(game, side)
        if not sep or k < 0:
            games.usage_error("argument --player: %r is not SIDE=NAME with a side of %s (%s)"
                              % (spec, game.TITLE, ", ".join(game.SIDES)))
        players[k] = who
    tracker = records.Tracker(board="triad-board %s" % version, game=game, players=players[: len(game.SIDES)])
    paths = {}  # id(record) -> path
    saved = []

    def save(rec):
        if not rec.moves and not args.keep_empty:
            return
        key = id(rec)
        if key not in paths:
            paths[key] = _record_path(args.out, rec, set(paths.values()))
        rec.save(paths[key])

    tracker.on_change = save
    finished = 0
    try:
        st = link.status()
        if st["state"] in ("setup", "play", "remove", "note2", "sync"):
            tracker.from_status(st)
        if args.script:
            run_script(link, args.script)
        for ev in _events(link, args):
            done = tracker.feed(ev, status=link.status)
            if done is not None:
                save(done)
                if id(done) in paths:
                    saved.append(paths[id(done)])
                    print("%s: %s (%d moves, result %s)" % (
                        "finished" if done.result != "*" else "abandoned", paths[id(done)], len(done.moves),
                        done.result))
                finished += 1
                if args.games and finished >= args.games:
                    break
    except LinkError as e:
        print("host_tools: %s" % e, file=sys.stderr)
    finally:
        link.close()
    if tracker.current is not None and tracker.current.moves:
        save(tracker.current)
        print("in progress: %s (%d moves)" % (paths[id(tracker.current)], len(tracker.current.moves)))
    if not paths:
        # Nothing was played: say so rather than end as if a record were written.
        print("host_tools record: no record written to %s: no move was made%s (--keep-empty keeps "
              "a game without moves)" % (args.out, " in %g s without an event" % _idle(args) if _idle(args) else ""),
              file=sys.stderr)
        return 1
    return 0


# -- replay -------------------------------------------------------------------------------

def cmd_replay(args):
    try:
        rec = records.load(args.file)
    except (OSError, records.RecordError) as e:
        raise SystemExit("host_tools: %s: %s" % (args.file, e))
    game = rec.game
    if args.game and args.game != game.NAME:
        raise SystemExit("host_tools: %s: a record of %s, not %s (--game)" % (args.file, game.NAME, args.game))
    if args.script:
        sys.stdout.write(records.to_script(rec))
        return 0
    if args.sim:
        return _replay_on_sim(rec, args)
    colour = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    positions = rec.positions()
    played = rec.played()
    print("%s, %s; set-up %s; result %s" % (
        " vs ".join("%s (%s)" % (who, side) for who, side in zip(rec.players, game.SIDE_NAMES)), rec.date,
        rec.setup, rec.result))
    for i, pos in enumerate(positions):
        if i:
            m = rec.moves[i - 1]
            print("\n%d%s %s" % ((i + 1) // 2, "." if i % 2 else "...", m))
        marks = ()
        if i:
            before, m = played[i - 1]
            marks = games.move_marks(game, before, m)
        print(render(pos, colour=colour, marks=marks, game=game))
        if i < len(positions) - 1:
            if args.step:
                try:
                    input("-- Enter for the next move, Ctrl-C to stop --")
                except (EOFError, KeyboardInterrupt):
                    print()
                    return 0
            elif args.delay:
                time.sleep(args.delay)
    return 0


def _replay_on_sim(rec, args):
    """Play the record with simulated hands on the simulated board; the
    board must commit exactly the recorded moves."""
    sim_board_for(rec.game.NAME)
    from simulator.script import ScriptError, parse, run
    from simulator.sim import Simulation

    sim = Simulation(seed=args.seed)
    try:
        sim.boot()
        run(sim, parse(records.to_script(rec)))
        state, position = sim.state()
        moves = sim.moves()
    except ScriptError as e:
        raise SystemExit("host_tools: replay: %s" % e)
    finally:
        sim.shutdown()
    want = " ".join(rec.moves)
    print("board: %s %s" % (state, position))
    print("moves: %s" % moves)
    if moves != want or position != rec.final():
        print("MISMATCH: the record has %s -> %s" % (want, rec.final()))
        return 1
    print("the simulated board played the record: %d moves, %s" % (
        len(rec.moves), "result " + rec.result if rec.result != "*" else "unfinished"))
    return 0


def add_parsers(sub):
    p = sub.add_parser("monitor", help="show the live game of a board (or the simulator) in the terminal")
    add_link_args(p)
    p.add_argument("--count", type=int, default=0, help="stop after this many events")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    p.add_argument("--no-clear", action="store_true", help="do not clear the screen between drawings")
    p.set_defaults(fn=cmd_monitor)
    p = sub.add_parser("record", help="save the games a board plays as record files")
    add_link_args(p)
    p.add_argument("--out", default="records", help="folder for the record files (default: records/)")
    p.add_argument("--black", default="?", help="Black's name (Nehren; the first side's in general)")
    p.add_argument("--white", default="?", help="White's name (Nehren; the second side's in general)")
    p.add_argument("--player", action="append", metavar="SIDE=NAME",
                   help="a player's name by side letter or name, repeatable (e.g. r=Ada for Browne's red)")
    p.add_argument("--games", type=int, default=0, help="stop after this many games")
    p.add_argument("--keep-empty", action="store_true", help="also save games without a move")
    p.set_defaults(fn=cmd_record)
    p = sub.add_parser("replay", help="step through a record, print it as a simulator script, or play it on the simulator")
    p.add_argument("file")
    p.add_argument("--script", action="store_true", help="print a `python -m simulator script` file")
    p.add_argument("--sim", action="store_true", help="play it on the simulated board and compare")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--step", action="store_true", help="wait for Enter between moves")
    p.add_argument("--delay", type=float, default=0, help="seconds between moves")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    games.add_game_arg(p, default=None,
                       help_text="check that the record is of this game (a record names its game; "
                                 "one without a Game: header is Nehren's)")
    p.set_defaults(fn=cmd_replay)
