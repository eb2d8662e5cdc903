"""Where a relay keeps its rooms: the start, the mode, each seat's token
digest and the moves, so that a restart loses nothing.

Two stores with one interface (every method a coroutine, so the server does
not care which it has):

- SqliteStore: one relay, an embedded SQLite file (stdlib sqlite3). A move is
  appended inside one transaction that only inserts when the room has
  exactly ply-1 moves; (room, ply) is the primary key besides, so no ply is
  ever written twice.
- RedisStore (redis.py): several relays sharing rooms.

Tokens are never stored: only their SHA-256 digests (a leaked store does not
let anyone play a seat).
"""
import json
import os
import sqlite3
import time

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    id      TEXT PRIMARY KEY,
    game    TEXT NOT NULL,
    start   TEXT NOT NULL,
    mode    TEXT,
    seats   TEXT NOT NULL,   -- JSON {side letter: sha256 hex of its token}
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    room    TEXT NOT NULL REFERENCES rooms(id),
    ply     INTEGER NOT NULL,  -- 1 for the first move
    seat    TEXT NOT NULL,
    move    TEXT NOT NULL,
    PRIMARY KEY (room, ply)
);
"""


class RoomRecord:
    """A room as stored: what rules.Game needs to replay it, and the seats."""

    def __init__(self, room, game, start, mode, seats, moves):
        self.room = room
        self.game = game
        self.start = start
        self.mode = mode
        self.seats = seats  # {side: digest hex}
        self.moves = moves  # [move text, ...] in order


class SqliteStore:
    def __init__(self, path):
        if path != ":memory:":
            d = os.path.dirname(os.path.abspath(path))
            os.makedirs(d, exist_ok=True)
        # isolation_level=None: transactions are explicit (BEGIN IMMEDIATE),
        # so a move's check-and-insert is one atomic step even if two
        # processes ever open the same file.
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        if path != ":memory:":
            # WAL: readers never wait for the writer; NORMAL: a committed move
            # survives the relay's process dying (the OS has it), which is
            # what a restart needs.
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)

    async def create(self, room, game, start, mode, seats):
        """False if the room id is taken (the caller draws another)."""
        try:
            self.db.execute("INSERT INTO rooms VALUES (?,?,?,?,?,?)",
                            (room, game, start, mode, json.dumps(seats), time.time()))
        except sqlite3.IntegrityError:
            return False
        return True

    async def load(self, room):
        row = self.db.execute("SELECT game, start, mode, seats FROM rooms WHERE id=?", (room,)).fetchone()
        if row is None:
            return None
        moves = [r[0] for r in self.db.execute("SELECT move FROM moves WHERE room=? ORDER BY ply", (room,))]
        return RoomRecord(room, row[0], row[1], row[2], json.loads(row[3]), moves)

    async def append(self, room, ply, seat, move, events):
        """Append the move as ply `ply` if the room has exactly ply-1 moves;
        False (nothing written) if not. `events` are what the relays
        deliver for it (unused here: one relay delivers its own)."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            n = db.execute("SELECT COUNT(*) FROM moves WHERE room=?", (room,)).fetchone()[0]
            if n != ply - 1:
                db.execute("ROLLBACK")
                return False
            db.execute("INSERT INTO moves VALUES (?,?,?,?)", (room, ply, seat, move))
            db.execute("COMMIT")
        except sqlite3.Error:
            db.execute("ROLLBACK")
            return False
        return True

    async def close(self):
        self.db.close()
