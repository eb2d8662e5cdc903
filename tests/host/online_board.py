"""A simulated board at a relay's room, for the tests and the benchmark:
`host_tools online` (its Bridge and a simulated person, Hand) with faults
put in at chosen plies. Run as a script, one board a process (the simulator
is one board a process):

  python tests/host/online_board.py --port sim:1 --server URL --room R --token T
      [--seed N] [--powercut-lit PLY] [--powercut-commit PLY] [--drop-at PLY]
      [--drop-for S] [--stats PATH]

  --powercut-lit PLY     when the room's move PLY is lit on the board, the
                         power goes (for 1 s) before anyone carries it out
  --powercut-commit PLY  when the table has committed its move PLY, the
                         power goes at once and the cable is out: the host
                         never hears of the commit (it is on the board's
                         flash only)
  --port pico            the board's UF2 on the emulated RP2040 (.venv-pico)
  --plies N              stop once the room has N moves and the board all of
                         them (a bound on the slow emulated chip); without it
                         the run ends as `host_tools online` does, when the
                         room's game is over and on the board
  --drop-at PLY          once the room has move PLY, the relay's connection
                         is cut (the socket aborted) and stays away --drop-for
                         seconds (default 3) while the other board plays on

At the end it prints `board start: ...`, `board moves: ...` (the board's
own game, from its `start` and `moves` replies), `board remote: ...` and
`board state: ...` (its `remote` and `state` replies) and `room moves: ...`
(the relay's), and exits 0.
"""
import argparse
import asyncio
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from host_tools.relay import online  # noqa: E402


class FaultyHand(online.Hand):
    def __init__(self, seed, powercut_lit=None, powercut_commit=None):
        online.Hand.__init__(self, seed)
        self.powercut_lit = powercut_lit
        self.powercut_commit = powercut_commit
        self.bridge = None
        self.cuts = 0

    def _cut(self, link, unplugged, mark=0):
        sim = link.sim
        sim.power_cut()
        if unplugged:
            # What it wrote since `mark` never reached the host (the cable
            # was out): the commit's `evt move` included.
            lost = set(sim.lines[mark:])
            kept = [e for e in link._events if e not in lost]
            link._events.clear()
            link._events.extend(kept)
            link._seen = len(sim.lines)
            print("online: (power cut with the cable out: the host never heard %s)" % " ".join(
                sorted(x[4:] for x in lost if x.startswith("evt move"))), flush=True)
        sim.run(1000)
        sim.boot()
        self.cuts += 1

    def act(self, link):
        b = self.bridge
        if self.lit is not None and self.powercut_lit is not None and b is not None:
            if b.shown + 1 >= self.powercut_lit:
                self.powercut_lit = None
                self.lit = None
                self._cut(link, False)
                return True
        mark = len(link.sim.lines)
        before = link.sim.send("moves").split()[2:] if self.powercut_commit is not None else None
        did = online.Hand.act(self, link)
        if did and before is not None:
            after = link.sim.send("moves").split()[2:]
            if len(after) > len(before) and len(after) >= self.powercut_commit:
                self.powercut_commit = None
                self._cut(link, True, mark)
        return did


class FaultyBridge(online.Bridge):
    def __init__(self, *a, drop_at=None, drop_for=3.0, **kw):
        online.Bridge.__init__(self, *a, **kw)
        self.drop_at = drop_at
        self.drop_for = drop_for
        self.away_until = 0.0
        self.drops = 0

    async def on_relay(self, msg):
        await online.Bridge.on_relay(self, msg)
        if self.drop_at is not None and self.game is not None and len(self.game.moves) >= self.drop_at:
            self.drop_at = None
            self.drops += 1
            self.away_until = time.monotonic() + self.drop_for
            self.ws.transport.abort()  # (the connection lost, not closed politely)

    async def _connect(self):
        wait = self.away_until - time.monotonic()
        if wait > 0:
            await self._drain_board(wait)
        return await online.Bridge._connect(self)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", required=True)
    ap.add_argument("--server", required=True)
    ap.add_argument("--room", required=True)
    ap.add_argument("--token", required=True)
    ap.add_argument("--game", default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--powercut-lit", type=int, default=None)
    ap.add_argument("--powercut-commit", type=int, default=None)
    ap.add_argument("--drop-at", type=int, default=None)
    ap.add_argument("--drop-for", type=float, default=3.0)
    ap.add_argument("--plies", type=int, default=None)
    ap.add_argument("--stats", default=None, help="write (ply, event, monotonic time) lines here")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    if args.port.startswith("sim") or args.port == "pico":
        from host_tools.live import sim_board_for

        sim_board_for(args.game)
    if args.port == "pico":
        # The board's real UF2 on the emulated RP2040 (simulator/pico.py),
        # behind the same link as the simulator's (its write_serial is the
        # chip's emulated USB).
        from host_tools.link import SimLink
        from simulator.game import DESC
        from simulator.pico import PicoSimulation, uf2_for_board

        uf2 = uf2_for_board(DESC.NAME)
        online.open_link = lambda spec: SimLink(sim=PicoSimulation(uf2, seed=args.seed))
    hand = FaultyHand(args.seed, args.powercut_lit, args.powercut_commit)
    log = (lambda text: None) if args.quiet else (lambda text: print("online: " + text, flush=True))
    bridge = FaultyBridge(args.port, args.server, args.room, args.token, hand=hand, log=log,
                          drop_at=args.drop_at, drop_for=args.drop_for)
    hand.bridge = bridge
    final = {}

    def keep(link):
        final["board"] = link.send("moves").split()[2:]
        final["start"] = link.send("start").split(None, 2)[2]
        final["remote"] = link.send("remote")
        final["state"] = link.send("state")
        return True

    orig_stop = online.BoardThread.stop

    def stop(bt):
        # The board's own list, read in its thread before it goes.
        bt.stopping = True
        bt.thread.join(10)
        if bt.link is not None and not bt.link.closed:
            keep(bt.link)
        orig_stop(bt)

    online.BoardThread.stop = stop
    until = None
    if args.plies:
        def until(b):
            if b.game is not None and len(b.game.moves) >= args.plies:
                hand.play_own = False  # (the person plays no more: the run ends here)
            return (b.game is not None and len(b.game.moves) >= args.plies
                    and b.base + len(b.board_moves) >= args.plies)
    rc = asyncio.run(bridge.run(until))
    print("board start: " + final.get("start", "-"))
    print("board moves: " + " ".join(final.get("board", [])))
    print("board remote: " + final.get("remote", "-"))
    print("board state: " + final.get("state", "-"))
    print("room moves: " + " ".join(bridge.game.moves if bridge.game else []))
    print("faults: powercuts %d drops %d" % (hand.cuts, bridge.drops))
    if args.stats:
        with open(args.stats, "w") as f:
            for ply, ev, t in bridge.stats:
                f.write(json.dumps([ply, ev, t]) + "\n")
    return rc


if __name__ == "__main__":
    sys.exit(main())
