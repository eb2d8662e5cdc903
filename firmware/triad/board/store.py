# Persistence of the game in progress and of the settings on the board's flash.
#
# Files (under root):
#   game.snap  snapshot: start position, meta and every move up to a point
#   game.log   append-only log: one line per move committed since the snapshot
#   game.tmp   a snapshot being written; renamed over game.snap when complete
#   settings.txt / settings.tmp   the same write-then-rename for the settings
#
# game.snap (every byte covered by the CRC on the END line):
#   TG1 <id> <nmoves>\n <position>\n <meta>\n <move> <move> ...\n END <crc16>\n
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
#            after it the old log no longer matches the id.
#   clear:   removes game.tmp, game.snap, game.log in that order; once the
#            snapshot is gone there is no game.
# After load() finds anything but a clean log (torn tail, garbage, stale or
# missing log, an illegal move) the next append() compacts instead of
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

from array import array

COMPACT_EVERY = 16
# A bigger file is not ours; refusing it keeps a stray upload from exhausting
# the RP2040's heap. 64 KB holds a game of several thousand moves.
MAX_FILE = 65536
MAX_MOVE = 16
MAX_META = 120
_MAGIC = "TG1"
_SET_MAGIC = "TS1"


def _make_table():
    t = array("H", bytes(512))
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
        t[i] = c & 0xFFFF
    return t


_TABLE = _make_table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of bytes data, continuing from crc."""
    t = _TABLE
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ t[((crc >> 8) ^ b) & 0xFF]
    return crc


class StoreError(Exception):
    pass


class OsFs:
    """The real file system. Tests substitute an object with these methods."""

    def read(self, path, limit):
        """Up to limit bytes of the file, or None if it does not exist."""
        try:
            f = open(path, "rb")
        except OSError:
            return None
        try:
            return f.read(limit)
        finally:
            f.close()

    def exists(self, path):
        try:
            os.stat(path)
            return True
        except OSError:
            return False

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
    fs.mkdirs(root)
    return root if root.endswith("/") else root + "/"


def _atomic_write(fs, tmp, dst, data):
    fs.write(tmp, data)
    fs.rename(tmp, dst)


def _line_ok(text, limit):
    if not isinstance(text, str) or len(text) > limit:
        return False
    for ch in text:
        if ch == "\n" or ch == "\r":
            return False
    return True


def _word(text):
    # Moves are stored space-separated in the snapshot.
    for ch in text:
        if ch <= " ":
            return False
    return True


def _decode(b):
    try:
        return b.decode("utf-8")
    except UnicodeError:
        return None


def _default_rules():
    # Imported late so the store itself stays free of the rules when a caller
    # opts out of validation.
    from triad.games.nehren import notation

    return notation


class GameStore:
    """The saved game: start(), append() per committed move, load() on boot."""

    def __init__(self, root="", fs=None, rules=True, compact_every=COMPACT_EVERY):
        self.fs = fs if fs is not None else _OS_FS
        p = _prefix(root, self.fs)
        self.snap_path = p + "game.snap"
        self.tmp_path = p + "game.tmp"
        self.log_path = p + "game.log"
        # rules: True = the Nehren notation module, None/False = trust the
        # records, or any object with parse_position and parse_move.
        self._rules = rules
        self.compact_every = compact_every
        self.last_error = None
        self._forget()

    def _forget(self):
        self._id = 0
        self._pos = None  # None: nothing known in memory, read the files first
        self._meta = ""
        self._moves = []
        self._crc = 0
        self._since = 0  # records in the log since its header
        self._clean = False  # the log on flash ends exactly at our last record

    def _rules_mod(self):
        r = self._rules
        if r is True:
            r = self._rules = _default_rules()
        return r or None

    # -- writing ----------------------------------------------------------

    def start(self, position_text, meta=""):
        if not _line_ok(position_text, 200) or not position_text:
            raise ValueError("position must be one line of notation")
        meta = "" if meta is None else str(meta)
        meta = meta.replace("\r", " ").replace("\n", " ")[:MAX_META]
        rules = self._rules_mod()
        if rules is not None:
            rules.parse_position(position_text)  # NotationError if malformed
        new_id = self._peek_max_id() + 1
        if new_id >= 1 << 30:
            new_id = 1
        self._id = new_id
        self._pos = position_text
        self._meta = meta
        self._moves = []
        self._compact()

    def append(self, move_text):
        if not move_text or not _line_ok(move_text, MAX_MOVE) or not _word(move_text):
            raise ValueError("bad move text %r" % (move_text,))
        if self._pos is None:
            if self.load() is None:
                raise StoreError("no saved game to append to (call start first)")
        self._moves.append(move_text)
        try:
            if not self._clean or self._since >= self.compact_every:
                self._compact()
                return
            crc = crc16(move_text.encode(), self._crc)
            self.fs.append(self.log_path, ("%s %04x\n" % (move_text, crc)).encode())
        except Exception:
            # What reached flash is unknown: read it again before next time.
            self._forget()
            raise
        self._crc = crc
        self._since += 1

    def clear(self):
        self._forget()
        fs = self.fs
        fs.remove(self.tmp_path)
        fs.remove(self.snap_path)
        fs.remove(self.log_path)

    def _compact(self):
        moves = self._moves
        text = "%s %d %d\n%s\n%s\n%s\n" % (
            _MAGIC, self._id, len(moves), self._pos, self._meta, " ".join(moves))
        data = text.encode()
        data += ("END %04x\n" % crc16(data)).encode()
        header = "L %d %d" % (self._id, len(moves))
        crc = crc16(header.encode())
        self._clean = False
        fs = self.fs
        try:
            if fs.exists(self.tmp_path) and not fs.exists(self.snap_path):
                # A cut between removing the old snapshot and renaming the
                # new one (a rename that cannot replace) left the game only
                # in game.tmp: make it the snapshot before game.tmp is reused.
                fs.rename(self.tmp_path, self.snap_path)
            _atomic_write(fs, self.tmp_path, self.snap_path, data)
            self.fs.write(self.log_path, ("%s %04x\n" % (header, crc)).encode())
        except Exception:
            self._forget()
            raise
        self._crc = crc
        self._since = 0
        self._clean = True

    def _peek_max_id(self):
        best = self._id
        for path in (self.snap_path, self.tmp_path, self.log_path):
            b = self.fs.read(path, 40)
            if not b:
                continue
            f = b.split(b"\n", 1)[0].split()
            if len(f) >= 2:
                try:
                    best = max(best, int(f[1]))
                except ValueError:
                    pass
        return best

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
            return None
        except Exception as e:  # a file system error must not stop the boot
            self._forget()
            self.last_error = "saved game unreadable: %r" % (e,)
            return None
        if got is None:
            self._forget()
            return None
        return self._pos, list(self._moves), self._meta

    def _warn(self, msg):
        if self.last_error is None:
            self.last_error = msg

    def _load(self):
        fs = self.fs
        clean = True
        data = fs.read(self.snap_path, MAX_FILE + 1)
        if data is None:
            # Only in the remove-then-rename window of a file system that
            # cannot rename over a file; a torn tmp fails its CRC below.
            data = fs.read(self.tmp_path, MAX_FILE + 1)
            if data is None:
                return None
            clean = False
        snap = self._parse_snap(data)
        if snap is None:
            if not clean:
                # A game.tmp cut short is the normal trace of a power cut
                # during the very first start(): nothing was lost, no alarm.
                self.last_error = None
            return None
        gid, pos, meta, moves = snap
        n = len(moves)
        log = fs.read(self.log_path, MAX_FILE)
        crc = 0
        since = 0
        if log is None:
            clean = False
        else:
            i = log.find(b"\n")
            hdr = log[:i].split() if i >= 0 else []
            base = -1
            if len(hdr) == 4 and hdr[0] == b"L":
                try:
                    hcrc = int(hdr[3], 16)
                    if hcrc == crc16(log[: log.rfind(b" ", 0, i)]) and len(hdr[3]) == 4:
                        if int(hdr[1]) == gid:
                            base = int(hdr[2])
                            crc = hcrc
                except ValueError:
                    pass
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
        good = self._validate(pos, moves)
        if good < 0:
            return None
        if good < len(moves):
            del moves[good:]
            clean = False
        self._id = gid
        self._pos = pos
        self._meta = meta
        self._moves = moves
        self._crc = crc
        self._since = since
        self._clean = clean
        return True

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
        if not head or head[0] != _MAGIC:
            self.last_error = "saved game has an unknown format %r; not resumed" % (
                head[0] if head else "")
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
        return gid, lines[1], lines[2], moves

    def _validate(self, pos_text, moves):
        """How many of moves are legal in turn, or -1 if the position is not."""
        rules = self._rules_mod()
        if rules is None:
            return len(moves)
        try:
            pos = rules.parse_position(pos_text)
        except Exception as e:
            self.last_error = "saved start position is invalid: %s" % (e,)
            return -1
        for i in range(len(moves)):
            try:
                pos.make(rules.parse_move(pos, moves[i]))
            except Exception as e:  # a bad record must cost only the tail
                self._warn("saved game stops at move %d: %s" % (i + 1, e))
                return i
        return len(moves)


class Settings:
    """Named integer settings, saved atomically (write tmp, then rename)."""

    def __init__(self, root="", defaults=None, fs=None):
        self.fs = fs if fs is not None else _OS_FS
        p = _prefix(root, self.fs)
        self.path = p + "settings.txt"
        self.tmp_path = p + "settings.tmp"
        self.defaults = dict(defaults or {})
        self._values = dict(self.defaults)
        self._dirty = False
        self.last_error = None
        try:
            self._load()
        except MemoryError:
            self.last_error = "settings file too large; using defaults"
            self._values = dict(self.defaults)
        except Exception as e:
            self.last_error = "settings unreadable (%r); using defaults" % (e,)
            self._values = dict(self.defaults)

    def _load(self):
        data = self.fs.read(self.path, 4097)
        if data is None:
            return
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
            self.last_error = "settings file is corrupt; using defaults"
            return
        values = dict(self.defaults)
        for ln in lines[1:-1]:
            i = ln.find("=")
            try:
                # Keep names this firmware does not know: an older or newer
                # firmware that wrote them may come back.
                values[ln[:i]] = int(ln[i + 1 :])
            except ValueError:
                self.last_error = "settings entry %r ignored" % (ln,)
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

    def save(self):
        """Write if anything changed; True if it wrote."""
        if not self._dirty:
            return False
        names = sorted(self._values)
        out = _SET_MAGIC + "\n"
        for n in names:
            out += "%s=%d\n" % (n, self._values[n])
        data = out.encode()
        data += ("END %04x\n" % crc16(data)).encode()
        _atomic_write(self.fs, self.tmp_path, self.path, data)
        self._dirty = False
        return True
