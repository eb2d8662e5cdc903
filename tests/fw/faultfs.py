# A store file system (the OsFs interface) in memory that fails any chosen
# call: the flash of the fault-injection tests, under CPython and the
# MicroPython unix port alike (tests/fw/test_store_faults.py,
# tests/host/test_store_faults_hypothesis.py).
#
# Every call (read, exists, listdir, write, append, rename, remove, mkdirs)
# gets the next call number, from 0. plan maps a call number to a fault:
#   "eio"      the call raises OSError(EIO) and changes nothing
#   "partial"  write/append: the first half of the data reaches flash, then
#              OSError(EIO) (a write cut short); other calls: as "eio"
#   "late"     the call does all its work, then raises OSError(EIO) (the
#              data reached flash but the close or sync failed)
#   "enospc"   write/append: as much as fits (half, or up to capacity), then
#              OSError(ENOSPC); other calls: OSError(ENOSPC), no change
#   "rofs"     the mount turns read-only: this and every later changing call
#              raise OSError(EROFS) and change nothing (reads still work)
# capacity (bytes over all files) makes a full flash: a write that does not
# fit keeps what fits and raises ENOSPC. readonly=True is a driver that knows
# its mount is read-only (CircuitPython's USB-drive mode, triad.drivers.
# circuitpython.Flash): every changing call is skipped without an error and
# counted in skipped.
EIO = 5
ENOSPC = 28
EROFS = 30

KINDS = ("eio", "partial", "late", "enospc", "rofs")
_CHANGING = ("write", "append", "rename", "remove", "mkdirs")


class FaultFs:
    def __init__(self, files=None, plan=None, capacity=None, readonly=False):
        self.files = dict(files or {})
        self.plan = dict(plan or {})
        self.capacity = capacity
        self.readonly = readonly
        self.rofs = False
        self.skipped = 0
        self.calls = 0
        self.faults = 0  # faults actually injected
        self.log = []  # (call number, name, path) of every call, for failures

    # -- bookkeeping ------------------------------------------------------

    def _fault(self, name, path):
        n = self.calls
        self.calls += 1
        self.log.append((n, name, path))
        kind = self.plan.get(n)
        if kind == "rofs":
            self.rofs = True
        if self.rofs and name in _CHANGING:
            self.faults += 1
            raise OSError(EROFS, "read-only file system")
        if kind is not None and kind != "rofs":
            self.faults += 1
        return kind

    def used(self):
        n = 0
        for k in self.files:
            n += len(self.files[k])
        return n

    def _room(self, path, mode_w):
        if self.capacity is None:
            return 1 << 30
        mine = len(self.files.get(path, b""))
        return self.capacity - self.used() + (mine if mode_w else 0)

    def _put(self, name, path, data, kind):
        mode_w = name == "write"
        room = self._room(path, mode_w)
        keep = len(data)
        err = None
        if kind == "eio":
            raise OSError(EIO, "I/O error")
        if kind == "partial":
            keep = len(data) // 2
            err = OSError(EIO, "I/O error")
        elif kind == "enospc":
            keep = len(data) // 2
            err = OSError(ENOSPC, "no space left")
        if keep > room:
            keep = max(0, room)
            if err is None:
                self.faults += 1
            err = OSError(ENOSPC, "no space left")
        old = b"" if mode_w else self.files.get(path, b"")
        self.files[path] = old + data[:keep]
        if err is not None:
            raise err
        if kind == "late":
            raise OSError(EIO, "I/O error")

    # -- the OsFs interface -------------------------------------------------

    def read(self, path, limit):
        kind = self._fault("read", path)
        if kind is not None and kind != "rofs":
            raise OSError(EIO if kind != "enospc" else ENOSPC, "read failed")
        data = self.files.get(path)
        return None if data is None else data[:limit]

    def exists(self, path):
        kind = self._fault("exists", path)
        if kind is not None and kind != "rofs":
            raise OSError(EIO, "stat failed")
        return path in self.files

    def listdir(self, path):
        kind = self._fault("listdir", path)
        if kind is not None and kind != "rofs":
            raise OSError(EIO, "listdir failed")
        pre = path + "/" if path else ""
        out = []
        for k in self.files:
            if k.startswith(pre):
                rest = k[len(pre):]
                i = rest.find("/")
                name = rest if i < 0 else rest[:i]
                if name not in out:
                    out.append(name)
        return out

    def _skip(self):
        if self.readonly:
            self.skipped += 1
            return True
        return False

    def write(self, path, data):
        kind = self._fault("write", path)
        if not self._skip():
            self._put("write", path, data, kind)

    def append(self, path, data):
        kind = self._fault("append", path)
        if not self._skip():
            self._put("append", path, data, kind)

    def rename(self, src, dst):
        kind = self._fault("rename", src)
        if self._skip():
            return
        if kind in ("eio", "partial", "enospc"):
            raise OSError(ENOSPC if kind == "enospc" else EIO, "rename failed")
        if src not in self.files:
            raise OSError(2, "no such file")
        self.files[dst] = self.files.pop(src)
        if kind == "late":
            raise OSError(EIO, "I/O error")

    def remove(self, path):
        kind = self._fault("remove", path)
        if self._skip():
            return
        if kind in ("eio", "partial", "enospc"):
            raise OSError(EIO, "remove failed")
        self.files.pop(path, None)
        if kind == "late":
            raise OSError(EIO, "I/O error")

    def mkdirs(self, path):
        kind = self._fault("mkdirs", path)
        if self._skip():
            return
        if kind in ("eio", "partial", "enospc"):
            raise OSError(EIO, "mkdir failed")
