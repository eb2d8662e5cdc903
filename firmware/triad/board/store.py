# Persistence of the games in progress and of the settings on the board's flash.
# The policy (games, failures, full and read-only flash, corrupt data) is
# described in docs/store.md; this header keeps the format and the crash
# reasoning next to the code.
#
# Files (under root), one set per game. Nehren's keep the names of the
# one-game firmware (<base> = "game"), every other game uses its name
# (<base> = "browne", "cornelson", ...):
#   <base>.snap  snapshot: start position, meta and every move up to a point
#   <base>.log   append-only log: one line per move committed since the snapshot
#   <base>.tmp   a snapshot being written; renamed over <base>.snap when complete
#   settings.txt / settings.tmp   board-wide settings (write-then-rename)
#   settings-<game>.txt / .tmp    a game's own settings, where it has any
#
# <base>.snap (every byte covered by the CRC on the END line):
#   TG2 <id> <nmoves> <game> [<rules>]\n <position>\n <meta>\n <move> <move> ...\n END <crc16>\n
# (<rules>: the game's settings in effect for this game, name=int joined by
# ",", e.g. mode=1,series=0; absent: the defaults. A game played in another
# mode replays only under its own rules: issue 23.)
# (TG1 <id> <nmoves>, without the game, is a save of the one-game firmware:
# always Nehren's, and still resumed as such.)
# game.log:
#   L <id> <base> <crc16>\n          header: belongs to game <id>, first record
#                                    is move number <base> (0-based)
#   <move> <crc16>\n                 one record per committed move
# Each log CRC is chained: seeded with the CRC of the line before it, so a
# record only counts in its place, after its own header (a stale line left on
# flash from another game or another position in this one does not verify).
# A record counts only if it ends in "\n" and its CRC matches; reading stops at
# the first one that does not. A game id changes on every start(), so the log
# of a previous game is recognised as stale and ignored.
#
# Why every crash point is safe (writes reach flash in program order; rename
# replaces its target atomically - both true of LittleFS, which also commits
# a file only on close, so on the Pico a torn record cannot even appear):
#   append:  one write of one line to the log. Cut anywhere before its "\n",
#            the record does not verify and is dropped: the state before.
#   compact: (1) write game.tmp: game.snap and game.log are untouched.
#            (2) rename game.tmp -> game.snap: the new snapshot already holds
#            every move; records of the old log below its move count are
#            skipped on load. (3) rewrite game.log with a fresh header: a torn
#            header fails its CRC and the log is ignored, the snapshot has all.
#   start:   a compaction with a new id; until the rename the old game stands,
#            after it the old log no longer matches the id. (start_later:
#            no write until write_pending() or the first append(), which
#            is then this compaction with the move in it: the old game
#            stands until then, and no move is ever on flash without its
#            start.)
#   clear:   removes game.tmp, game.snap, game.log in that order; once the
#            snapshot is gone there is no game.
# After load() finds anything but a clean log (torn tail, garbage, stale or
# missing log, an illegal move), and after any write that failed, the next
# append() compacts (a full snapshot of the game kept in memory) instead of
# appending, so a new record never lands after bytes that do not verify.
# If rename cannot replace (not LittleFS or POSIX), it removes then renames;
# load() then accepts a complete game.tmp while game.snap is missing.
#
# Flash cost (tests/fw/test_store_littlefs.py measures it on real LittleFS v2:
# the MicroPython unix port's os.VfsLfs2 with 4096-byte blocks and
# progsize=256, exactly as the rp2 port mounts its flash):
#   Logical: a move is one record of len(move) + 6 bytes, 10 ("c1c3 1a2b\n")
#   to 13 ("c1c3xd3 1a2b\n"). Every COMPACT_EVERY + 1 = 17th move is a
#   compaction instead: game.snap rewritten whole (about 110 bytes plus
#   len(move) + 1 per move so far: 534 B after 100 moves) and a 15-byte log
#   header.
#   Physical: LittleFS commits each close copy-on-write. With the log kept
#   under ~250 bytes it lives inline in the directory's metadata block, so an
#   append is one 256-byte program and the 4 KB block is erased only when the
#   metadata log fills and compacts. Measured over 10 games of 100 moves:
#       compact every   4: 0.171 erases/move, 556 B programmed/move
#                       8: 0.137             447
#                      16: 0.103             360   <- chosen
#                      32: 0.119             437   (log outgrows inline)
#                   never: 0.590             809
#   Wear: the 1.4 MB file system has 352 blocks of 100k erase cycles, about
#   35 million erases, which LittleFS's dynamic wear levelling spreads over
#   the free blocks. Even with only 100 blocks free that is 10M / 0.103 =
#   about 97 million moves: centuries at a thousand moves a day.
# Settings cost one ~40-byte file rewrite per save(), and save() skips the
# write when nothing changed.
try:
    import os
except ImportError:  # pragma: no cover - every port has os (or uos)
    import uos as os  # type: ignore[no-redef]

from triad.compat import micropython, ptr8

COMPACT_EVERY = 16
# A bigger file is not ours; refusing it keeps a stray upload from exhausting
# the RP2040's heap. 64 KB holds a game of several thousand moves.
MAX_FILE = 65536
MAX_MOVE = 40  # Cornelson's longest turn, "G4 P12-f7 P11-e9 P10-d11", is 24
MAX_META = 120
MAX_GAME = 16
_MAGIC = "TG2"
_OLD_MAGIC = "TG1"  # the one-game firmware's snapshot: always Nehren's
_SET_MAGIC = "TS1"
DEFAULT_GAME = "nehren"
LEGACY_BASE = "game"  # Nehren's save files keep the one-game firmware's names
RECORDS_DIR = "records"  # finished records kept on the board, if any
_SAVE_EXTS = (".snap", ".log", ".tmp", ".start")
EIO = 5
ENOSPC = 28
EROFS = 30


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of bytes data, continuing from crc."""
    return _crc16(data, len(data), crc)


@micropython.viper
def _crc16(data, n: int, crc: int) -> int:
    # Bit by bit in viper: as fast as a 256-entry table in bytecode, and no
    # table in RAM.
    d = ptr8(data)
    i = 0
    while i < n:
        crc ^= d[i] << 8
        k = 0
        while k < 8:
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
            k += 1
        i += 1
    return crc


class StoreError(Exception):
    pass


def errno_of(e):
    """The errno of an OSError (both interpreters), else None."""
    n = getattr(e, "errno", None)
    if n is None and isinstance(e, OSError) and e.args:
        n = e.args[0]
    return n if isinstance(n, int) else None


def why(e):
    """A short reason for the player: why a write did not reach flash."""
    n = errno_of(e)
    if n == ENOSPC:
        return "flash full"
    if n == EROFS:
        return "flash read-only"
    if n == EIO:
        return "flash write error (EIO)"
    return "flash write failed (%s)" % (type(e).__name__,)


class OsFs:
    """The real file system. Tests substitute an object with these methods
    (listdir is optional: without it a full flash cannot be cleared)."""

    def read(self, path, limit):
        """Up to limit bytes of the file, or None if it does not exist."""
        try:
            f = open(path, "rb")
        except OSError:
            return None
        try:
            # MicroPython's read(n) takes n bytes of heap before it reads: ask
            # for the file's size, not the limit (64 KB would not fit a
            # fragmented board heap to read a 500-byte save).
            try:
                size = os.stat(path)[6]
            except OSError:
                size = limit
            return f.read(min(limit, size + 1))
        finally:
            f.close()

    def exists(self, path):
        try:
            os.stat(path)
            return True
        except OSError:
            return False

    def listdir(self, path):
        """Names in the directory path ("" = the current one), [] if none."""
        try:
            return os.listdir(path) if path else os.listdir()
        except OSError:
            return []

    def _write(self, path, mode, data):
        f = open(path, mode)
        try:
            f.write(data)
            f.flush()
            # CPython on the host: force the data out of the page cache.
            # MicroPython has no fsync; LittleFS commits on close instead.
            fsync = getattr(os, "fsync", None)
            if fsync is not None:
                fsync(f.fileno())
        finally:
            f.close()
        if not hasattr(os, "fsync"):
            sync = getattr(os, "sync", None)
            if sync is not None:
                sync()

    def write(self, path, data):
        self._write(path, "wb", data)

    def append(self, path, data):
        self._write(path, "ab", data)

    def rename(self, src, dst):
        try:
            os.rename(src, dst)
        except OSError:
            # A file system whose rename will not replace (FAT): see top.
            if not self.exists(src):
                raise
            self.remove(dst)
            os.rename(src, dst)

    def remove(self, path):
        try:
            os.remove(path)
        except OSError:
            pass

    def mkdirs(self, path):
        if not path or path == "/" or self.exists(path):
            return
        i = path.rstrip("/").rfind("/")
        if i > 0:
            self.mkdirs(path[:i])
        try:
            os.mkdir(path)
        except OSError:
            if not self.exists(path):
                raise


_OS_FS = OsFs()


def _prefix(root, fs):
    if not root:
        return ""
    try:
        fs.mkdirs(root)
    except Exception:  # reported by the first write that needs it
        pass
    return root if root.endswith("/") else root + "/"


def _readonly(fs):
    # A driver that knows its mount is read-only (CircuitPython's USB-drive
    # mode) says so, and skips writes without raising: the store writes as
    # usual (the driver counts and reports the skips) and then knows that
    # nothing reached flash.
    return bool(getattr(fs, "readonly", False))


def _atomic_write(fs, tmp, dst, data):
    fs.write(tmp, data)
    fs.rename(tmp, dst)


def _log_header(log):
    """The header line "L id base crc" of a move log: (the index of its
    newline, id, base, crc); id -1 when it is not one (torn, damaged, its
    CRC wrong)."""
    i = log.find(b"\n")
    hdr = log[:i].split() if i >= 0 else []
    if len(hdr) == 4 and hdr[0] == b"L" and len(hdr[3]) == 4:
        try:
            hcrc = int(hdr[3], 16)
            if hcrc == crc16(log[: log.rfind(b" ", 0, i)]):
                return i, int(hdr[1]), int(hdr[2]), hcrc
        except ValueError:
            pass
    return i, -1, -1, 0


def _log_of(b, gid, n):
    """Is b a whole log a compaction of game gid at n moves wrote (its
    header, then the moves from its base: the first while the game is short)?"""
    i, lid, base, _ = _log_header(b)
    return lid == gid and (base == n or base == 0) and b[-1:] == b"\n"


def _line_ok(text, limit):
    if not isinstance(text, str) or len(text) > limit:
        return False
    for ch in text:
        if ch == "\n" or ch == "\r":
            return False
    return True


def _word(text):
    # Moves are stored space-separated in the snapshot: a move's own spaces
    # (Cornelson's "D4 S1-a2") are kept as "_" on flash (see _stored).
    for ch in text:
        if ch <= " " and ch != " ":
            return False
    return "_" not in text and text[0] != " " and text[-1] != " "


def _stored(move_text):
    return move_text.replace(" ", "_")


def _told(stored):
    return stored.replace("_", " ")


def game_name_ok(name):
    """A game's name as saves and file names carry it: a-z 0-9 _ only."""
    if not isinstance(name, str) or not 0 < len(name) <= MAX_GAME:
        return False
    if name == LEGACY_BASE or name.startswith("settings"):
        return False
    for ch in name:
        if not ("a" <= ch <= "z" or "0" <= ch <= "9" or ch == "_"):
            return False
    return True


def save_base(game):
    """The file name (without extension) of a game's save."""
    return LEGACY_BASE if game == DEFAULT_GAME else game


def _decode(b):
    try:
        return b.decode("utf-8")
    except UnicodeError:
        return None


def _default_rules(game):
    # Imported late so the store itself stays free of the rules when a caller
    # opts out of validation: the game's face checks positions and moves.
    from triad import games

    try:
        return games.load(game)
    except ValueError:
        return None


def _whole(b):
    """Does b (a snapshot or a start copy, or None) end in its END line
    with the checksum of everything before it?"""
    if not b or len(b) > MAX_FILE or len(b) < 10:
        return False
    t = len(b) - 9
    if b[t:t + 4] != b"END " or b[-1:] != b"\n":
        return False
    try:
        return int(b[t + 4:t + 8], 16) == crc16(b[:t])
    except ValueError:
        return False


def _head_id(b):
    f = b.split(b"\n", 1)[0].split() if b else []
    if len(f) >= 2:
        try:
            return int(f[1])
        except ValueError:
            pass
    return -1


class GameStore:
    """The saved game of one game: start(), append() per committed move,
    load() on boot. The moves given since start()/load() are kept in memory,
    so a failed write can always be made good by a full snapshot later.

    safe: True when every move given is on flash (saved of them are);
    reason: why not, when safe is False; on_safe(safe, reason) is called on
    every change of safe. flush() retries without a new move."""

    def __init__(self, root="", fs=None, rules=True, compact_every=COMPACT_EVERY,
                 game=DEFAULT_GAME, on_safe=None):
        if not game_name_ok(game):
            raise ValueError("bad game name %r" % (game,))
        self.fs = fs if fs is not None else _OS_FS
        self.game = game
        p = _prefix(root, self.fs)
        self.root = p
        b = save_base(game)
        self.snap_path = p + b + ".snap"
        self.tmp_path = p + b + ".tmp"
        self.log_path = p + b + ".log"
        # The game's start as its first snapshot held it (0 moves), written
        # once per game: with the log's first records it rebuilds a game
        # whose snapshot is gone (issue 36; docs/store.md, "Corrupt data").
        self.start_path = p + b + ".start"
        # rules: True = the game's own notation, None/False = trust the
        # records, or any object with parse_position and parse_move.
        self._rules = rules
        self.compact_every = compact_every
        self.on_safe = on_safe
        self.last_error = None  # what load() found wrong with the flash
        self.safe = True
        self.reason = None
        self.saved = 0  # moves of the game in memory that are on flash
        self.write_errors = 0  # failed write calls, for the figures
        self.freed = []  # what was removed to make room, oldest first
        self.lost = False  # load() said committed moves may be lost
        self._forget()

    def _forget(self):
        self._id = 0  # 0: a new game whose id is drawn at its first write
        self._pos = None  # None: nothing known in memory, read the files first
        self._meta = ""
        self.rules = ""  # the saved game's rules (see the header), after load()
        self._moves = []
        self._crc = 0
        self._since = 0  # records in the log since its header
        self._clean = False  # the log on flash ends exactly at our last record
        self.pending = False  # a start_later() game not written yet
        self._start_kept = False  # the game's start copy (.start) is on flash

    def _rules_mod(self):
        r = self._rules
        if r is True:
            r = self._rules = _default_rules(self.game)
        return r or None

    def _set_safe(self, ok, reason=None):
        was = self.safe
        self.safe = ok
        self.reason = None if ok else reason
        if ok:
            self.saved = len(self._moves)
        if was != ok and self.on_safe is not None:
            try:
                self.on_safe(ok, self.reason)
            except Exception:  # a reporting bug must not lose the move
                pass

    def status(self):
        """(safe, moves on flash, moves in the game, reason or None)."""
        return self.safe, self.saved, len(self._moves), self.reason

    # -- writing ----------------------------------------------------------

    def start(self, position_text, meta="", rules=""):
        """A new game: written now (raises, keeping it in memory, when it
        does not reach flash)."""
        self.start_later(position_text, meta, rules)
        self._flush(None)

    def start_later(self, position_text, meta="", rules=""):
        """A new game, checked and kept in memory but not written yet
        (pending): write_pending() writes it, and so does the game's first
        append() (a compaction: the start and the move in one snapshot), so
        no committed move waits. Why: a write takes the board tens of ms on
        the RP2040 and nothing is scanned meanwhile; the controller writes a
        start once the board is still (docs/store.md, "A start written
        later"). Until then flash holds the game before it: a power cut
        there resumes that one, and loses no move of this one."""
        if not _line_ok(position_text, 200) or not position_text:
            raise ValueError("position must be one line of notation")
        meta = "" if meta is None else str(meta)
        meta = meta.replace("\r", " ").replace("\n", " ")[:MAX_META]
        if parse_rules(rules) is None:
            raise ValueError("bad rules %r" % (rules,))
        mod = self._rules_mod()
        if mod is not None:
            mod.parse_position(position_text)  # NotationError if malformed
        self._id = 0
        self._start_kept = False
        self._pos = position_text
        self._meta = meta
        self.rules = rules or ""
        self._moves = []
        self.saved = 0
        self._clean = False  # the next write is a compaction: the whole game
        self.pending = True

    def write_pending(self):
        """Write the game start_later() kept, if it is still only in
        memory. Raises as start() does (the game stays in memory, safe
        False, and flush() tries again)."""
        if self.pending:
            self._flush(None)

    def append(self, move_text):
        """Save one committed move. Raises (after keeping the move) when it is
        not on flash; the next append() or flush() writes the whole game."""
        if not move_text or not _line_ok(move_text, MAX_MOVE) or not _word(move_text):
            raise ValueError("bad move text %r" % (move_text,))
        if self._pos is None:
            if self.load() is None:
                raise StoreError("no saved game to append to (call start first)")
        move_text = _stored(move_text)
        self._moves.append(move_text)
        self._flush(move_text)

    def flush(self):
        """Bring flash up to the game in memory if it is behind. Returns
        safe; never raises."""
        if self.safe or self._pos is None:
            return self.safe
        try:
            self._flush(None)
        except Exception:
            pass
        return self.safe

    def _flush(self, rec):
        fs = self.fs
        # Whatever happens below, the store's safe/reason now tells whether
        # the game is on flash: it is no longer a start waiting its turn.
        self.pending = False
        try:
            if rec is not None and self._clean and self._since < self.compact_every:
                crc = crc16(rec.encode(), self._crc)
                self._clean = False  # until the record is surely whole
                try:
                    fs.append(self.log_path, ("%s %04x\n" % (rec, crc)).encode())
                except OSError as e:
                    # Never append after a failed append: a record may be
                    # half on flash. Only a full flash is retried at once.
                    if errno_of(e) != ENOSPC:
                        raise
                    self.write_errors += 1
                    self._compact_making_room()
                else:
                    self._crc = crc
                    self._since += 1
                    self._clean = True
            else:
                self._compact_making_room()
        except Exception as e:
            self._clean = False
            self.write_errors += 1
            self._set_safe(False, why(e))
            raise
        if _readonly(fs):
            # A driver that knows its mount is read-only skipped every write
            # (so nothing was written partially) and tells the player itself,
            # at most once a minute: no exception, but not safe.
            self._clean = False
            self._set_safe(False, "flash read-only")
            return
        self._set_safe(True)

    def _compact_making_room(self):
        tmp_gone = False
        for _ in range(64):
            try:
                self._compact()
                return
            except OSError as e:
                if errno_of(e) != ENOSPC:
                    raise
                self.write_errors += 1
                fs = self.fs
                if not tmp_gone and fs.exists(self.snap_path):
                    # Our own half-written snapshot goes first, once.
                    tmp_gone = True
                    fs.remove(self.tmp_path)
                    continue
                if not self.make_room():
                    raise
        raise OSError(ENOSPC, "flash full")

    def clear(self):
        self._forget()
        self.saved = 0
        fs = self.fs
        fs.remove(self.tmp_path)
        fs.remove(self.snap_path)
        fs.remove(self.log_path)
        fs.remove(self.start_path)
        self._set_safe(True)

    def _tmp_is_whole(self):
        return _whole(self.fs.read(self.tmp_path, MAX_FILE + 1))

    def _compact(self):
        fs = self.fs
        if self._id == 0:
            new_id = self._peek_max_id() + 1
            self._id = 1 if new_id >= 1 << 30 else new_id
        moves = self._moves
        text = "%s %d %d %s%s\n%s\n%s\n%s\n" % (
            _MAGIC, self._id, len(moves), self.game, " " + self.rules if self.rules else "",
            self._pos, self._meta, " ".join(moves))
        data = text.encode()
        data += ("END %04x\n" % crc16(data)).encode()
        # While the game is short (fewer moves than a log holds between
        # compactions) its new log holds every move from the first: with the
        # start's copy it is the whole game, should the snapshot go (issue
        # 36; after a failed write, too, which compacts). Later, the moves
        # since this snapshot.
        base = 0 if len(moves) < self.compact_every else len(moves)
        header = "L %d %d" % (self._id, base)
        crc = crc16(header.encode())
        log = "%s %04x\n" % (header, crc)
        for k in range(base, len(moves)):
            crc = crc16(moves[k].encode(), crc)
            log += "%s %04x\n" % (moves[k], crc)
        self._clean = False
        if not fs.exists(self.log_path):
            # A log of no game (id 0) before the first snapshot: from now on
            # a save without a log of its own is a damaged one (load says
            # what it lost), while a start cut before its own header leaves
            # this one, of an earlier game, and loses nothing.
            h0 = "L 0 0"
            fs.write(self.log_path, ("%s %04x\n" % (h0, crc16(h0.encode()))).encode())
        if not self._start_kept:
            self._write_start()
        if fs.exists(self.tmp_path) and not fs.exists(self.snap_path) and self._tmp_is_whole():
            # A cut between removing the old snapshot and renaming the new
            # one (a rename that cannot replace) left the game only in
            # game.tmp: make it the snapshot before game.tmp is reused.
            fs.rename(self.tmp_path, self.snap_path)
        _atomic_write(fs, self.tmp_path, self.snap_path, data)
        # Every move is on flash now, in the snapshot. A log header that does
        # not make it leaves the log stale or torn: ignored on load, and the
        # next write compacts again.
        try:
            # The new header through game.tmp (free again: the snapshot is
            # in place): a cut leaves the old log whole (stale: the snapshot
            # holds every move) or, where a rename cannot replace, the header
            # whole in game.tmp (load takes it). Never an emptied log, which
            # load must report as moves lost (issue 23).
            _atomic_write(fs, self.tmp_path, self.log_path, log.encode())
        except Exception:
            self.write_errors += 1
            return
        self._crc = crc
        self._since = len(moves) - base
        self._clean = True

    def _write_start(self):
        # A spare copy of the game's start (its snapshot of 0 moves): a
        # failed write costs nothing now (the snapshot holds the game), so
        # it is not retried and does not make the game unsafe.
        text = "%s %d 0 %s%s\n%s\n%s\n\n" % (
            _MAGIC, self._id, self.game, " " + self.rules if self.rules else "", self._pos, self._meta)
        data = text.encode()
        data += ("END %04x\n" % crc16(data)).encode()
        try:
            self.fs.write(self.start_path, data)
            self._start_kept = True
        except Exception:
            self.write_errors += 1

    def _peek_max_id(self):
        # Ids are drawn board-wide (over every game's save), so a higher id
        # is a game started later: make_room() removes the lowest first.
        best = self._id
        for path in (self.snap_path, self.tmp_path, self.log_path, self.start_path):
            best = max(best, _head_id(self.fs.read(path, 40)))
        for gid, _ in self._other_saves():
            best = max(best, gid)
        return best

    # -- a full flash -------------------------------------------------------

    def _list(self, path):
        ls = getattr(self.fs, "listdir", None)
        if ls is None:
            return []
        try:
            return list(ls(path))
        except OSError:
            return []

    def _other_saves(self):
        """[(id, base)] of the other games' saves here, oldest first."""
        mine = save_base(self.game)
        bases = []
        for name in self._list(self.root[:-1]):
            for ext in _SAVE_EXTS:
                if name.endswith(ext):
                    b = name[: -len(ext)]
                    if b != mine and b not in bases and (b == LEGACY_BASE or game_name_ok(b)):
                        bases.append(b)
        out = []
        for b in bases:
            gid = -1
            for ext in _SAVE_EXTS:
                gid = max(gid, _head_id(self.fs.read(self.root + b + ext, 40)))
            out.append((gid, b))
        out.sort()
        return out

    def make_room(self):
        """Remove the first thing the rule allows (docs/store.md): a
        leftover settings temporary file, then the oldest record kept on the board, then the
        other games' saves, the one started longest ago first. Never the
        settings, never this game's save. True if something went."""
        fs = self.fs
        for name in self._list(self.root[:-1]):
            # A settings.tmp is never read: a leftover of a cut save.
            if name.startswith("settings") and name.endswith(".tmp"):
                fs.remove(self.root + name)
                if not fs.exists(self.root + name):
                    self.freed.append(name)
                    return True
        rd = self.root + RECORDS_DIR
        names = self._list(rd)
        names.sort()
        for name in names:
            fs.remove(rd + "/" + name)
            if not fs.exists(rd + "/" + name):
                self.freed.append(RECORDS_DIR + "/" + name)
                return True
        for _, b in self._other_saves():
            for ext in _SAVE_EXTS:
                fs.remove(self.root + b + ext)
            if not fs.exists(self.root + b + ".snap"):
                self.freed.append(b)
                return True
        return False

    # -- reading ----------------------------------------------------------

    def load(self):
        """(position_text, [move_text, ...], meta) or None. Never raises."""
        self.last_error = None
        self._forget()
        try:
            got = self._load()
        except MemoryError:
            self._forget()
            self.last_error = "saved game too large to read"
            got = None
        except Exception as e:  # a file system error must not stop the boot
            self._forget()
            self.last_error = "saved game unreadable: %r" % (e,)
            got = None
        # Committed moves may be gone (anything said but a torn last record,
        # which is a move the board never showed): the board says so by a
        # light too (GameRecord.save_lost).
        err = self.last_error
        self.lost = err is not None and not err.startswith("torn")
        if got is None:
            self._forget()
            self._set_safe(True)
            return None
        self._set_safe(True)
        return self._pos, [_told(m) for m in self._moves], self._meta

    def _warn(self, msg):
        if self.last_error is None:
            self.last_error = msg

    def _load(self):
        fs = self.fs
        clean = True
        rebuilt = None  # why the game is rebuilt from its start copy and log
        data = fs.read(self.snap_path, MAX_FILE + 1)
        if data is None:
            clean = False
            # Only in the remove-then-rename window of a file system that
            # cannot rename over a file; a game.tmp cut short is the normal
            # trace of a power cut during a start() (nothing lost).
            data = fs.read(self.tmp_path, MAX_FILE + 1)
            if not _whole(data):
                rebuilt = "snapshot missing"
        elif len(data) <= MAX_FILE and not _whole(data):
            clean = False
            rebuilt = "snapshot damaged (checksum)"
        if rebuilt is not None:
            # A game whose log is still here is said, and rebuilt from its
            # start copy when the log holds all its moves (issue 36); every
            # other combination of what is left is said (issue 47).
            data = self._start_of_log(rebuilt)
            if data is None:
                return None
        snap = self._parse_snap(data)
        if snap is None:
            return None
        gid, pos, meta, moves = snap
        n = len(moves)
        log = fs.read(self.log_path, MAX_FILE)
        if log is None and clean:
            # The remove-then-rename window of the log's new header (_compact):
            # it waits whole in game.tmp. The next save writes a log again.
            t = fs.read(self.tmp_path, MAX_FILE)
            if t is not None and _log_of(t, gid, n):
                log = t
                clean = False
        crc = 0
        since = 0
        if log is None:
            clean = False
            self._warn(_kept_of(n, "move log missing"))
        else:
            i, lid, base, hcrc = _log_header(log)
            if lid == gid:
                crc = hcrc
            else:
                base = -1
            if lid < 0 or lid > gid:
                # Emptied, unverifiable, or of no game before this one: the
                # moves it held after the snapshot's cannot be read (a log of
                # an earlier game is the trace of a start whose header never
                # made it: nothing lost).
                self._warn(_kept_of(n, "move log empty" if not log else "move log unverifiable"))
            if base < 0 or base > n:
                # A stale log of an earlier game, or a torn header: the
                # snapshot holds everything committed.
                if base > n:
                    self._warn("move log does not follow the snapshot; ignored")
                clean = False
            else:
                if base != n:
                    clean = False  # the old log of an interrupted compaction
                k = base
                j = i + 1
                end = len(log)
                while j < end:
                    e = log.find(b"\n", j)
                    if e < 0:
                        self._warn("torn last move record dropped (power cut?)")
                        clean = False
                        break
                    line = log[j:e]
                    sp = line.rfind(b" ")
                    ok = sp > 0 and len(line) - sp == 5
                    if ok:
                        try:
                            ok = int(line[sp + 1 :], 16) == crc16(line[:sp], crc)
                        except ValueError:
                            ok = False
                    mv = _decode(line[:sp]) if ok else None
                    if mv is None:
                        self._warn("move log damaged after %d moves; rest ignored"
                                   % max(k, n))
                        clean = False
                        break
                    if k < n:
                        if mv != moves[k]:
                            self._warn("move log disagrees with the snapshot; ignored")
                            clean = False
                            break
                    else:
                        moves.append(mv)
                        since += 1
                    crc = int(line[sp + 1 :], 16)
                    k += 1
                    j = e + 1
                # (the records in the log, the snapshot's own included when
                # the log begins at the first move: the next compaction
                # comes when it holds compact_every)
                since = k - base
        good = self._validate(pos, moves)
        if good < 0:
            return None
        if rebuilt is not None:
            told = self.last_error
            self.last_error = "%s: the game rebuilt from its start and its move log (%d moves)%s" % (
                rebuilt, good, "; " + told if told else "")
        if good < len(moves):
            del moves[good:]
            clean = False
        self._id = gid
        self._pos = pos
        self._meta = meta
        self._moves = moves
        # A save of a firmware that kept no start copy, or whose copy is
        # damaged (issue 47), gets one at the next write: a compaction.
        st = fs.read(self.start_path, MAX_FILE + 1)
        self._start_kept = _head_id(st) == gid and _whole(st)
        self._crc = crc
        self._since = since
        self._clean = clean and self._start_kept
        return True

    def _start_of_log(self, why):
        """The start copy (_write_start) of the game whose log is here
        without a whole snapshot (why: "snapshot missing" or "... damaged"),
        when that log begins at the game's first move; None otherwise, and
        then said, unless there is no game at all: no file of it, or a log
        of no game (the trace of a first start cut short) with no start copy
        or a whole one (the start never got its snapshot: no move was made)."""
        fs = self.fs
        log = fs.read(self.log_path, 64)
        lid = base = -2  # (no log)
        if log is not None:
            _, lid, base, _ = _log_header(log)
        data = fs.read(self.start_path, MAX_FILE + 1)
        whole = _whole(data)
        if whole and lid > 0 and base == 0 and _head_id(data) == lid:
            return data
        damaged = why != "snapshot missing"
        if not damaged and (lid == 0 and (data is None or whole) or lid == -2 and data is None):
            return None  # no game here (nothing said)
        if lid > 0:
            told = "its move log begins at move %d" % (base + 1)
        elif lid == 0:
            told = "its move log holds no move"
        else:
            told = "its move log missing" if lid == -2 else "its move log unverifiable"
        if data is None:
            told += " and the game's start is not on flash"
        elif not whole:
            told += " and the game's start copy is damaged (checksum)"
        elif lid > 0 and base == 0:
            told += " and the game's start copy is of another game"
        self.last_error = "%s: %s; not resumed" % (why, told)
        return None

    def _parse_snap(self, data):
        if len(data) > MAX_FILE:
            self.last_error = "saved game file too large; ignored"
            return None
        # The END line is the last 9 bytes: "END xxxx\n".
        tail = len(data) - 9
        ok = tail > 0 and data[tail:tail + 4] == b"END " and data[-1:] == b"\n"
        if ok:
            try:
                ok = int(data[tail + 4 : tail + 8], 16) == crc16(data[:tail])
            except ValueError:
                ok = False
        if not ok:
            self.last_error = "saved game is corrupt (checksum); not resumed"
            return None
        text = _decode(data[:tail])
        lines = text.split("\n") if text is not None else []
        if len(lines) != 5 or lines[4] != "":
            self.last_error = "saved game is malformed; not resumed"
            return None
        head = lines[0].split()
        if not head or head[0] not in (_MAGIC, _OLD_MAGIC):
            self.last_error = "saved game has an unknown format %r; not resumed" % (
                head[0] if head else "")
            return None
        game = DEFAULT_GAME
        rules = ""
        if head[0] == _MAGIC:
            game = head[3] if len(head) in (4, 5) else ""
            if not game_name_ok(game):
                self.last_error = "saved game is malformed (game name); not resumed"
                return None
            if len(head) == 5:
                rules = head[4]
                if parse_rules(rules) is None:
                    self.last_error = "saved game is malformed (rules); not resumed"
                    return None
        elif len(head) != 3:
            self.last_error = "saved game is malformed; not resumed"
            return None
        if game != self.game:
            self.last_error = "saved game is a game of %s, not of %s; not resumed" % (
                game, self.game)
            return None
        try:
            gid = int(head[1])
            n = int(head[2])
        except (ValueError, IndexError):
            gid = n = -1
        moves = lines[3].split()
        if n != len(moves) or not lines[1]:
            self.last_error = "saved game is malformed; not resumed"
            return None
        self.rules = rules
        return gid, lines[1], lines[2], moves

    def _validate(self, pos_text, moves):
        """How many of moves are legal in turn, or -1 if the position is not."""
        rules = self._rules_mod()
        if rules is None:
            return len(moves)
        try:
            pos = rules.parse_position(pos_text)
            # The game's own rules (its mode): the moves are legal only there.
            got = parse_rules(self.rules) or {}
            for k in got:
                rules.apply_setting(pos, k, got[k])
        except Exception as e:
            self.last_error = "saved start position is invalid: %s" % (e,)
            return -1
        for i in range(len(moves)):
            try:
                pos.make(rules.parse_move(pos, _told(moves[i])))
            except Exception as e:  # a bad record must cost only the tail
                self._warn("saved game stops at move %d: %s" % (i + 1, e))
                return i
        return len(moves)


def parse_rules(text):
    """{name: int} of a save's rules field ("mode=1,series=0"; "" none), or
    None when it is malformed."""
    out = {}  # type: dict[str, int]
    if not text:
        return out
    if not isinstance(text, str) or len(text) > 120:
        return None
    for part in text.split(","):
        k, eq, v = part.partition("=")
        if not eq or not k or not v or len(v) > 9:
            return None
        for ch in k:
            if not ("a" <= ch <= "z" or "0" <= ch <= "9" or ch == "_"):
                return None
        for ch in v:
            if not "0" <= ch <= "9":
                return None
        out[k] = int(v)
    return out


def _kept_of(n, what):
    # What a lost log costs, said so a player can put it right (issue 23).
    return "%s: kept the %d moves of the snapshot; any moves after move %d are lost" % (what, n, n)


class Settings:
    """Named integer settings, saved atomically (write tmp, then rename).

    game None: the board-wide file settings.txt. game "name": that game's own
    settings in settings-name.txt (Nehren's stay in settings.txt, where the
    one-game firmware kept them); while that file does not exist yet, its
    values come from settings.txt, then from the defaults. safe/reason/on_safe as for GameStore: a failed
    save() raises, keeps the change, and the next save() writes it."""

    def __init__(self, root="", defaults=None, fs=None, game=None, on_safe=None, make_room=None):
        if game is not None and not game_name_ok(game):
            raise ValueError("bad game name %r" % (game,))
        self.fs = fs if fs is not None else _OS_FS
        p = _prefix(root, self.fs)
        # The first game's settings stay where the one-game firmware kept
        # them (as its save keeps the legacy file names).
        name = "settings" if game is None or game == DEFAULT_GAME else "settings-" + game
        self.game = game
        self.path = p + name + ".txt"
        self.tmp_path = p + name + ".tmp"
        self._board_path = None if game is None or game == DEFAULT_GAME else p + "settings.txt"
        self.defaults = dict(defaults or {})
        self._values = dict(self.defaults)
        self._dirty = False
        self.on_safe = on_safe
        self.make_room = make_room  # e.g. a GameStore's make_room, on ENOSPC
        self.safe = True
        self.reason = None
        self.last_error = None
        # The names whose saved values could not be read and are at their
        # defaults now (a damaged file: every one): the board says which
        # (issue 36: a damaged file silently reset the seats it played).
        self.unread = ()  # type: tuple[str, ...]
        try:
            self._load()
        except MemoryError:
            self.last_error = "settings file too large; using defaults"
            self._values = dict(self.defaults)
            self.unread = tuple(sorted(self.defaults))
        except Exception as e:
            self.last_error = "settings unreadable (%r); using defaults" % (e,)
            self._values = dict(self.defaults)
            self.unread = tuple(sorted(self.defaults))

    def _parse(self, data):
        """{name: value} of a settings file, or None if it is corrupt."""
        tail = len(data) - 9
        ok = 0 < tail and len(data) <= 4096 and data[tail:tail + 4] == b"END "
        if ok:
            try:
                ok = int(data[tail + 4 : tail + 8], 16) == crc16(data[:tail])
            except ValueError:
                ok = False
        text = _decode(data[:tail]) if ok else None
        lines = text.split("\n") if text is not None else []
        if not lines or lines[0] != _SET_MAGIC:
            return None
        values = {}
        for ln in lines[1:-1]:
            i = ln.find("=")
            try:
                # Keep names this firmware does not know: an older or newer
                # firmware that wrote them may come back.
                values[ln[:i]] = int(ln[i + 1 :])
            except ValueError:
                self.last_error = "settings entry %r ignored" % (ln,)
                if ln[:i] in self.defaults:
                    self.unread += (ln[:i],)
        return values

    def _load(self):
        data = self.fs.read(self.path, 4097)
        if data is None:
            if self._board_path is None:
                return
            # A game's first settings: carry over what the board file holds,
            # but its level: each game's engine has its own scale, and a new
            # board plays a game at that game's own first level (issue 47: a
            # Cornelson board chosen after Nehren's played at Nehren's 3).
            data = self.fs.read(self._board_path, 4097)
            got = self._parse(data) if data is not None else None
            if got:
                for k in self.defaults:
                    if k in got and k != "level":
                        self._values[k] = got[k]
            self.last_error = None
            return
        got = self._parse(data)
        if got is None:
            self.last_error = "settings file is corrupt; using defaults"
            self.unread = tuple(sorted(self.defaults))
            return
        values = dict(self.defaults)
        for k in got:
            values[k] = got[k]
        self._values = values

    def get(self, name):
        return self._values[name]

    def set(self, name, value):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError("setting %s must be an int" % name)
        if not name or not _line_ok(name, 32) or "=" in name or " " in name:
            raise ValueError("bad setting name %r" % (name,))
        if self._values.get(name) != value:
            self._values[name] = value
            self._dirty = True

    def _set_safe(self, ok, reason=None):
        was = self.safe
        self.safe = ok
        self.reason = None if ok else reason
        if was != ok and self.on_safe is not None:
            try:
                self.on_safe(ok, self.reason)
            except Exception:
                pass

    def save(self):
        """Write if anything changed; True if it wrote. On a read-only flash
        the driver skips the write: False (safe False); any other failure
        raises, and the change is written by the next save()."""
        if not self._dirty:
            return False
        fs = self.fs
        names = sorted(self._values)
        out = _SET_MAGIC + "\n"
        for n in names:
            out += "%s=%d\n" % (n, self._values[n])
        data = out.encode()
        data += ("END %04x\n" % crc16(data)).encode()
        for _ in range(64):
            try:
                _atomic_write(fs, self.tmp_path, self.path, data)
                break
            except Exception as e:
                room = self.make_room
                if errno_of(e) == ENOSPC and room is not None and room():
                    continue
                self._set_safe(False, why(e))
                raise
        if _readonly(fs):
            self._set_safe(False, "flash read-only")
            return False
        self._dirty = False
        self._set_safe(True)
        return True
