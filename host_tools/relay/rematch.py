"""A rematch (issue 43): once a room's game is over, a seat asks for the
next game with the same people, the sides rotated (whoever played the
first side plays the second, and so on, the last the first).

  {"op":"rematch"}  from a seat of a room whose game is over
  -> to every seat's connection in the room (the asker's too):
     {"op":"rematch","room":R2,"seat":SIDE,"token":T,"was":OLD_SIDE}
     its own new seat and token only (a token goes only to whoever held
     that person's old seat);
  -> to every watcher: {"op":"rematch","room":R2}
  -> and the asker's reply:
     {"op":"rematch","room":R2,"seat":SIDE,"token":T,"was":OLD_SIDE,"seats":{SIDE:TOKEN,...}}
     every new seat's token, for passing on to whoever is not connected now.

The new room is the same game, start and mode. One rematch a room: asked
again (by anyone, on this relay), the same new room is handed out.
"""
from host_tools.relay import rules
from host_tools.relay.rooms import digest, secret


def rotated(sides, side):
    """The side the player of `side` plays in the rematch."""
    return sides[(sides.index(side) + 1) % len(sides)]


async def op_rematch(relay, conn, msg):
    room = await relay._room(conn)
    if conn.seat is None:
        raise rules.Refused("watchers cannot ask for a rematch")
    g = room.game
    if not g.over():
        raise rules.Refused("a rematch comes after the game: %s to move" % g.to_move())
    made = getattr(room, "rematch", None)
    if made is None:
        relay.may_create(conn)  # a rematch is a new room: the asker's hour counts it (issue 45.3)
        ng = rules.Game(g.name, g.start, g.mode)
        seats = {side: secret(18) for side in ng.sides}
        for _ in range(8):
            new_id = secret(6)
            if await relay.store.create(new_id, ng.name, ng.start, ng.mode,
                                        {s: digest(t) for s, t in seats.items()}):
                break
        else:
            raise rules.Refused("could not make a room: try again")
        made = room.rematch = (new_id, seats)
    new_id, seats = made
    sides = list(g.sides)
    for c in list(room.conns):
        if c is conn:
            continue
        if c.seat is None:
            c.send({"op": "rematch", "room": new_id})
        else:
            side = rotated(sides, c.seat)
            c.send({"op": "rematch", "room": new_id, "seat": side, "token": seats[side], "was": c.seat})
    side = rotated(sides, conn.seat)
    conn.reply({"op": "rematch", "room": new_id, "seat": side, "token": seats[side], "was": conn.seat,
                "seats": dict(seats)})
