"""python -m simulator [serve] | python -m simulator script FILE"""
import argparse
import os
import sys

if not __package__:
    # Run as a folder (python /path/to/simulator ...: an invitation's line,
    # from any folder): the project, not this folder, on the path.
    _here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]
    sys.path.insert(0, os.path.dirname(_here))


def _boards():
    from simulator.choice import BOARDS

    return BOARDS


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main(argv=None, seat=None):
    """seat: the host tool that plays a relay's seat with the board
    (host_tools/relay/sim_seat.py), when it runs this command."""
    ap = argparse.ArgumentParser(prog="python -m simulator", description="Triad smart board simulator")
    sub = ap.add_subparsers(dest="cmd")
    sp = sub.add_parser("script", help="run a script of physical actions on simulated time")
    sp.add_argument("file")
    sp.add_argument("--seed", type=int, default=1, help="the board's random seed (set-up rolls)")
    sp.add_argument("-v", "--verbose", action="store_true", help="show the firmware's serial output")
    sp.add_argument("--target", default="cpython", choices=("cpython", "pico"),
                    help="cpython: firmware/ on simulated time (default); pico: the board's UF2 on an emulated RP2040")
    sp.add_argument("--uf2", default=None, help="with --target pico: this image instead of the board's own build")
    sv = sub.add_parser("serve", help="the board in a browser (the default)")
    sv.add_argument("--port", type=int, default=8765, help="the page's TCP port (default 8765)")
    sv.add_argument("--host", default="127.0.0.1",
                    help="the address to listen on (default 127.0.0.1: this computer only)")
    sv.add_argument("--state-dir", default=None, help="the simulated flash (kept between runs)")
    sv.add_argument("--seed", type=int, default=None,
                    help="the board's random seed (set-up rolls, the engine's choices); default: a new one each run")
    sv.add_argument("--no-browser", action="store_true", help="print the address but open no browser")
    sv.add_argument("--listen-fd", type=int, default=None, help=argparse.SUPPRESS)  # a restart as another board
    sv.add_argument("--relay", metavar="URL", default=None,
                    help="play a seat of a relay's room with the page's board (ws://HOST:PORT/play; "
                         "with --room and --token, from the invitation)")
    sv.add_argument("--room", default=None, help="with --relay: the room")
    sv.add_argument("--token", default=None, help="with --relay: your seat's token")
    sv.add_argument("--make-room", action="store_true", help=argparse.SUPPRESS)  # (the page's "make a room")
    for p in (sp, sv):
        p.add_argument("--game", default=None, help="the game to play (a board that plays it is simulated)")
        p.add_argument("--board", default=None,
                       help="the board description to simulate (%s)" % ", ".join(_boards()))
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        argv.insert(0, "serve")  # `make sim SIM_ARGS=--no-browser`: options of the default command
    args = ap.parse_args(argv)
    if getattr(args, "relay", None):
        if not (args.room and args.token) and not args.make_room:
            ap.error("--relay needs --room and --token (from the seat's invitation)")
        if seat is None:
            # The seat is played by a host tool (its bridge is `host_tools
            # online`'s), and the simulator never imports the host tools
            # (docs/architecture.md, the layers): that tool runs in this
            # process's place, with these arguments, and serves the simulator.
            sys.stdout.flush()
            os.execv(sys.executable, [sys.executable, os.path.join(ROOT, "host_tools"), "sim-seat"] + argv)
        if not (args.game or args.board):
            # The board of the room's game (a watcher's look at the room).
            args.game = seat.room_game(args.relay, args.room)
            if args.game is None:
                print("simulator: the relay at %s has no room %s (or cannot be reached)" % (args.relay, args.room),
                      file=sys.stderr)
                return 2
    if getattr(args, "game", None) or getattr(args, "board", None):
        from simulator.choice import SimError, board_for_game, check_board_plays

        try:
            os.environ["TRIAD_SIM_BOARD"] = board = args.board or board_for_game(args.game)
            if args.game and args.board:
                check_board_plays(board, args.game)
        except SimError as e:
            print("simulator: %s" % e, file=sys.stderr)
            return 2
    if args.cmd == "script":
        from simulator.hardware import SimError
        from simulator.script import ScriptError, run_file

        try:
            run_file(args.file, seed=args.seed, verbose=args.verbose, target=args.target, uf2=args.uf2)
        except ImportError as e:
            print("simulator: --target pico needs rp2040py (make .venv-pico/.stamp-pico; run with "
                  ".venv-pico/bin/python): %s" % e, file=sys.stderr)
            return 2
        except BrokenPipeError:
            raise  # the reader of our output went away: closed_pipe ends quietly
        except (ScriptError, SimError, OSError) as e:
            print("simulator: %s" % e, file=sys.stderr)
            return 2
        return 0
    if args.cmd is None:
        args = sv.parse_args([])
    # `kill` (SIGTERM) stops as cleanly as Ctrl-C, also while the board is
    # still starting (a signal then used to end in a traceback).
    import signal

    def _term(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, _term)
    try:
        from simulator import web

        return web.serve(args, seat=seat)
    except KeyboardInterrupt:
        print("\nsimulator: stopped while starting", file=sys.stderr, flush=True)
        return 0


if __name__ == "__main__":
    from simulator import closed_pipe

    sys.exit(closed_pipe.run(main))
