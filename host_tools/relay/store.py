"""Where a relay keeps its rooms: the start, the mode, each seat's token
digest and the moves, so that a restart loses nothing.

Two stores with one interface (every method a coroutine, so the server does
not care which it has):

- SqliteStore: one relay, an embedded SQLite file (stdlib sqlite3). A move is
  appended inside one transaction that only inserts when the room has
  exactly ply-1 moves; (room, ply) is the primary key besides, so no ply is
  ever written twice.
- RedisStore (redis_bus.py): several relays sharing rooms.

Tokens are never stored: only their SHA-256 digests (a leaked store does not
let anyone play a seat). The file and its -wal/-shm are the relay's alone
(mode 0600).

A store that fails (a full disk, a file turned read-only, Redis gone) raises
StoreError with its cause in words; a room that is no longer in the store
(expired, or lost by a Redis without persistence) raises RoomGone from
append. The server says both to the client and logs the first of each kind.
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
    created REAL NOT NULL,
    touched REAL             -- last move, join or watch (unix time): --room-days counts from it
);
CREATE TABLE IF NOT EXISTS moves (
    room    TEXT NOT NULL REFERENCES rooms(id),
    ply     INTEGER NOT NULL,  -- 1 for the first move
    seat    TEXT NOT NULL,
    move    TEXT NOT NULL,
    PRIMARY KEY (room, ply)
);
"""

DAY = 86400.0


class StoreError(Exception):
    """The store failed; str() is its cause in words (for the log and the client)."""


class RoomGone(Exception):
    """The room is no longer in the store."""


class RoomRecord:
    """A room as stored: what rules.Game needs to replay it, and the seats."""

    def __init__(self, room, game, start, mode, seats, moves):
        self.room = room
        self.game = game
        self.start = start
        self.mode = mode
        self.seats = seats  # {side: digest hex}
        self.moves = moves  # [move text, ...] in order


def private_file(path):
    """Create `path` (if missing) and its -wal/-shm (if present) readable and
    writable by the relay's user alone (0600), before SQLite opens them:
    SQLite gives the -wal and -shm it makes the main file's mode."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    os.close(fd)
    for p in (path, path + "-wal", path + "-shm"):
        if os.path.exists(p):
            os.chmod(p, 0o600)


def cause(e):
    """A store exception in words: 'database or disk is full', ..."""
    text = str(e) or type(e).__name__
    return text if isinstance(e, sqlite3.Error) else "%s: %s" % (type(e).__name__, text)


class SqliteStore:
    def __init__(self, path):
        """Open (or make) the store; StoreError, with the cause, if it cannot
        be read and written (the relay's start says so in one line)."""
        try:
            if path != ":memory:":
                d = os.path.dirname(os.path.abspath(path))
                os.makedirs(d, exist_ok=True)
                private_file(path)
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
            cols = [r[1] for r in self.db.execute("PRAGMA table_info(rooms)")]
            if "touched" not in cols:  # a store made before rooms expired
                self.db.execute("ALTER TABLE rooms ADD COLUMN touched REAL")
                self.db.execute("UPDATE rooms SET touched=created")
            # A write that changes nothing: a read-only file or disk says so now,
            # not at the first move.
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("UPDATE rooms SET touched=touched WHERE 0")
            self.db.execute("COMMIT")
            if path != ":memory:":
                private_file(path)  # the -wal/-shm WAL mode made
        except (sqlite3.Error, OSError) as e:
            raise StoreError("cannot use the store %s: %s" % (path, cause(e)))

    def _run(self, fn):
        try:
            return fn()
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as e:
            if self.db.in_transaction:
                try:
                    self.db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            raise StoreError(cause(e))

    async def ping(self):
        self._run(lambda: self.db.execute("SELECT 1 FROM rooms LIMIT 1").fetchall())

    async def create(self, room, game, start, mode, seats):
        """False if the room id is taken (the caller draws another)."""
        now = time.time()
        try:
            self._run(lambda: self.db.execute("INSERT INTO rooms VALUES (?,?,?,?,?,?,?)",
                                              (room, game, start, mode, json.dumps(seats), now, now)))
        except sqlite3.IntegrityError:
            return False
        return True

    async def load(self, room):
        def read():
            row = self.db.execute("SELECT game, start, mode, seats FROM rooms WHERE id=?", (room,)).fetchone()
            if row is None:
                return None
            moves = [r[0] for r in self.db.execute("SELECT move FROM moves WHERE room=? ORDER BY ply", (room,))]
            return RoomRecord(room, row[0], row[1], row[2], json.loads(row[3]), moves)

        return self._run(read)

    async def append(self, room, ply, seat, move, events):
        """Append the move as ply `ply` if the room has exactly ply-1 moves;
        False (nothing written) if not; RoomGone if the room is not in the
        store. `events` are what the relays deliver for it (unused here:
        one relay delivers its own)."""
        db = self.db

        def write():
            db.execute("BEGIN IMMEDIATE")
            if db.execute("UPDATE rooms SET touched=? WHERE id=?", (time.time(), room)).rowcount == 0:
                db.execute("ROLLBACK")
                return None
            n = db.execute("SELECT COUNT(*) FROM moves WHERE room=?", (room,)).fetchone()[0]
            if n != ply - 1:
                db.execute("ROLLBACK")
                return False
            db.execute("INSERT INTO moves VALUES (?,?,?,?)", (room, ply, seat, move))
            db.execute("COMMIT")
            return True

        try:
            done = self._run(write)
        except sqlite3.IntegrityError:  # (the primary key: another writer took the ply)
            if db.in_transaction:
                db.execute("ROLLBACK")
            return False
        if done is None:
            raise RoomGone(room)
        return done

    async def touch(self, rooms):
        """Rooms joined or watched lately: their --room-days count again."""
        now = time.time()
        self._run(lambda: self.db.executemany("UPDATE rooms SET touched=? WHERE id=?", [(now, r) for r in rooms]))

    async def sweep(self, days):
        """Delete the rooms (and their moves) nobody touched for `days` days;
        the ids deleted."""
        cut = time.time() - days * DAY

        def delete():
            db = self.db
            db.execute("BEGIN IMMEDIATE")
            ids = [r[0] for r in db.execute("SELECT id FROM rooms WHERE touched < ?", (cut,))]
            for i in range(0, len(ids), 500):
                part = ids[i:i + 500]
                marks = ",".join("?" * len(part))
                db.execute("DELETE FROM moves WHERE room IN (%s)" % marks, part)
                db.execute("DELETE FROM rooms WHERE id IN (%s)" % marks, part)
            db.execute("COMMIT")
            return ids

        return self._run(delete)

    async def close(self):
        self.db.close()
