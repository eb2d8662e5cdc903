# The player's hands on the simulated board (POST /api/act): lift, place,
# knock and bounce a site, press a button, take a piece from the box, turn
# or drop one in the hand, set up the game's pieces, noise and speed, a
# position, the power, another game, a line on the serial port.
import threading

from simulator.game import GAME, N_SITES, PIECE, PIECES, parse_position, piece
from simulator.hardware import BUTTONS, Die, SimError, cell_index, cell_name


def act(ws, actions):
    """Carry out the actions in order on the WebSim ws: {"ok", "results"},
    and at the first that fails its "error" (those after it are not done)."""
    results = []
    with ws.act_lock:
        try:
            for a in actions:
                results.append(_act1(ws, a))
        except (SimError, ValueError, KeyError, TypeError, IndexError) as e:
            ws.bump()
            return {"ok": False, "error": str(e), "results": results}
    ws.bump()
    return {"ok": True, "results": results}


def _act1(ws, a):
    sim = ws.sim
    board = sim.board
    op = a.get("op")
    if op in ("lift", "place", "knock", "bounce"):
        cell = a["cell"]
        cell_index(cell)
        if op == "place" and a.get("hand") is not None:
            i = int(a["hand"])
            with board.lock:
                if not 0 <= i < len(board.hand):
                    raise SimError("no such %s in the hand" % PIECE)
                die = board.hand[i]
                sim.place(cell, die)
        else:
            getattr(sim, op)(cell)
        ws.add_log("· %s %s" % (op, cell))
        return None
    if op == "hand":
        # A hand over a site (a click, or space on the cursor), decided here
        # on the board as it is, not on the page's last frame: a click just
        # after taking a piece from the box (the take still on its way, the
        # page's frame not yet showing it in the hand) puts that piece down.
        c = cell_index(a["cell"])
        with board.lock:
            if board.cells[c] is not None:
                sim.lift(a["cell"])
                ws.add_log("· lift %s" % a["cell"])
                return "lifted"
            if board.hand:
                i = a.get("hand")
                i = int(i) if i is not None and 0 <= int(i) < len(board.hand) else len(board.hand) - 1
                sim.place(a["cell"], board.hand[i])
                ws.add_log("· place %s" % a["cell"])
                return "placed"
            if sim.shadow is not None and piece(sim.shadow, c) is not None:
                sim.place(a["cell"])  # a piece the game is missing there, from the box
                ws.add_log("· place %s" % a["cell"])
                return "placed"
        return "empty"  # nothing in the hand: nothing is put down (the page says so)
    if op == "stray":
        # A foreign object on a site (a coin, a finger): the Stray tool's,
        # never a click's with an empty hand.
        c = cell_index(a["cell"])
        sim.board.place(c, sim.now_ms(), Die(None, 0))
        ws.add_log("· stray object on %s" % a["cell"])
        return None
    if op == "button":
        name = a["name"]
        if name not in BUTTONS:
            raise SimError("unknown button %r" % name)
        down = bool(a.get("down"))
        board.set_button(BUTTONS.index(name), down)
        ws.add_log("· button %s %s" % (name, "down" if down else "up"))
        return None
    if op == "take":
        colour = a.get("colour")
        value = a.get("value")
        value = int(value) if value is not None else None
        if colour not in GAME.SIDES or value not in (GAME.LABELS or (None,)):
            raise SimError("a piece is one of %s%s" % (
                ", ".join(GAME.SIDES), " with a label " + ", ".join(map(str, GAME.LABELS)) if GAME.LABELS else ""))
        with board.lock:
            board.hand.append(Die(colour, value))
        ws.add_log("· take %s%s from the box" % (colour, "" if value is None else value))
        return None
    if op == "turn":
        i = int(a.get("hand", -1))
        with board.lock:
            d = board.hand[i]
            if d.colour is None:
                raise SimError("that is not a %s" % PIECE)
            labels = GAME.LABELS
            if not labels:
                raise SimError("this game's pieces carry no label")
            d.value = int(a["value"]) if a.get("value") else labels[(labels.index(d.value) + 1) % len(labels)]
        return None
    if op == "drop":
        i = int(a.get("hand", -1))
        with board.lock:
            d = board.hand[i]
            board.remove_from_hand(d)
        ws.add_log("· put a %s from the hand back in the box" % PIECE)
        return None
    if op == "setup":
        return place_setup_dice(ws)
    if op == "noise":
        p = float(a["p"])
        board.noise = max(0.0, min(0.5, p))
        return None
    if op == "speed":
        x = max(0.05, min(20.0, float(a["x"])))
        sim.speed = x
        if sim.clock is not None and hasattr(sim.clock, "set_speed"):
            sim.clock.set_speed(x)
        return None
    if op == "position":
        return load_position(ws, a["text"])
    if op == "powercut":
        ws.power_cut()
        return None
    if op == "poweron":
        ws.power_on()
        return None
    if op == "game":
        # Another game is another board: the command-line simulator
        # restarts itself as that board (the flash folder, which keeps
        # each game's save, stays the same); the page reloads.
        name = str(a.get("name", ""))
        from simulator.choice import board_for_game

        board = board_for_game(name)
        if ws.restart is None:
            raise SimError("switching games needs the simulator started as python -m simulator")
        ws.add_log("· switch to %s (board %s)" % (name, board))
        threading.Timer(0.3, ws.restart, args=(board,)).start()
        return board
    if op == "relay":
        # Play someone not here: the board as a seat of a relay's room.
        # (GAME is the module's: imported here too it would be this whole
        # function's local, unbound for every other op that reads it)
        from simulator.choice import board_for_game
        from simulator.invitation import page_action

        return page_action(ws, a, board_for_game(GAME.NAME))
    if op == "serial":
        line = str(a["line"]).strip()
        if not line:
            raise SimError("empty command")
        return ws.command(line)
    raise SimError("unknown action %r" % (op,))


def place_setup_dice(ws):
    """Make the board exactly the game's: every piece the game has on
    its site with its colour and label, nothing else on the board and
    nothing left in the hand."""
    sim = ws.sim
    shadow = sim.shadow
    if shadow is None:
        raise SimError("the board has not told its game yet")
    placed = []
    with sim.board.lock:
        cells = sim.board.cells
        for c in range(N_SITES):
            p = piece(shadow, c)
            have = cells[c]
            if p is None:
                cells[c] = None
            elif have is None or (have.colour, have.value) != p:
                cells[c] = Die(p[0], p[1])
                placed.append(cell_name(c))
        sim.board.hand = []
    ws.add_log("· set-up %s placed on %s" % (PIECES, " ".join(placed) or "(nothing missing)"))
    return placed


def load_position(ws, text):
    text = " ".join(str(text).split())
    parse_position(text)
    ws.sim.board.set_position(text)
    reply = ws.command("position " + text)
    if not reply.startswith("ok"):
        raise SimError("the board refused the position: " + reply)
    ws.poll_soon()
    return reply
