# GameStore on real LittleFS v2 (os.VfsLfs2, as the rp2 port mounts it) over a
# RAM block device: flash wear per move, and power cuts at every erase and
# program. Only the MicroPython unix port has VfsLfs2; under CPython these
# tests return at once (tests/host/test_store_power_cut.py covers the logic).
import os

from triad.board import store
from triad.games.nehren import core, notation

BLOCK = 4096
# The Pico has 352 such blocks (1.4 MB); the unix port's default heap holds
# a smaller device, and erases per move do not depend on the device size.
BLOCKS = 48
START = notation.START


class PowerCut(Exception):
    pass


class RamFlash:
    """Extended block-device protocol; counts wear, can cut the power."""

    def __init__(self, data=None):
        self.data = bytearray(data) if data else bytearray(b"\xff" * (BLOCK * BLOCKS))
        self.erases = 0
        self.programmed = 0
        self.budget = -1  # ops left before the cut; -1 = never
        self.dead = False
        self.torn = False

    def _op(self):
        # After the cut nothing reaches the flash any more. LittleFS may still
        # call in (closing the interrupted file, possibly from a finaliser
        # with the heap locked), so a dead device must not allocate or raise.
        if self.dead:
            return False
        if self.budget == 0:
            self.dead = True
            raise PowerCut()
        if self.budget > 0:
            self.budget -= 1
        return True

    def readblocks(self, block, buf, offset=0):
        if self.dead:
            return
        a = block * BLOCK + offset
        buf[:] = self.data[a:a + len(buf)]

    def writeblocks(self, block, buf, offset=0):
        a = block * BLOCK + offset
        if self.budget == 0 and self.torn and not self.dead:
            # The cut lands mid-program: only the first half reaches flash.
            h = len(buf) // 2
            self.data[a:a + h] = buf[:h]
        if not self._op():
            return
        self.data[a:a + len(buf)] = buf
        self.programmed += len(buf)

    def ioctl(self, op, arg):
        if op == 4:
            return BLOCKS
        if op == 5:
            return BLOCK
        if op == 6:
            if not self._op():
                return 0
            a = arg * BLOCK
            self.data[a:a + BLOCK] = b"\xff" * BLOCK
            self.erases += 1
        return 0


def _have_lfs():
    return hasattr(os, "VfsLfs2") and hasattr(os, "mount")


_mounts = [0]


def _mount(dev):
    _mounts[0] += 1
    point = "/lfs%d" % _mounts[0]
    os.mount(os.VfsLfs2(dev, progsize=256), point)
    return point


def _game(n):
    pos = notation.parse_position(START)
    out = []
    while len(out) < n:
        legal = pos.legal_moves()
        quiet = [m for m in legal if not core.m_removed(m)]
        m = (quiet or legal)[(len(out) * 5) % len(quiet or legal)]
        out.append(notation.format_move(m))
        pos.make(m)
    return out


def _fresh():
    dev = RamFlash()
    os.VfsLfs2.mkfs(dev, progsize=256)
    return dev


def test_flash_wear_per_move():
    if not _have_lfs():
        return
    dev = _fresh()
    point = _mount(dev)
    try:
        g = store.GameStore(point)
        moves = _game(100)
        g.start(START, "roll b:112233 w:112233 start:b")
        e0, p0 = dev.erases, dev.programmed
        for m in moves:
            g.append(m)
        erases = dev.erases - e0
        prog = dev.programmed - p0
        print("littlefs, 100 moves: %d erases, %d bytes programmed, game.snap %d B"
              % (erases, prog, os.stat(point + "/game.snap")[6]))
        # Stated in store.py: on the order of one erase per move at most.
        assert erases <= 100
        back = store.GameStore(point)
        got = back.load()
        assert got is not None, back.last_error
        assert got[1] == moves
    finally:
        os.umount(point)


def test_power_cut_at_every_flash_operation():
    if _have_lfs():
        _cut_everywhere(False)
        _cut_everywhere(True)


def _cut_everywhere(torn):
    dev = _fresh()
    point = _mount(dev)
    moves = _game(40)
    g = store.GameStore(point)
    g.start(START, "m")
    for m in moves[:14]:
        g.append(m)
    os.umount(point)
    base = bytes(dev.data)
    # Moves 15..20 include the compaction at move 17.
    k = 0
    while True:
        dev = RamFlash(base)
        point = _mount(dev)
        g = store.GameStore(point)
        assert g.load()[1] == moves[:14]
        dev.budget = k
        dev.torn = torn
        done = 14
        try:
            for m in moves[14:20]:
                g.append(m)
                done += 1
        except Exception as e:
            # The port may hand the cut back as an OSError from LittleFS.
            assert dev.dead, e
        try:
            os.umount(point)
        except Exception:
            pass
        dev.budget = -1
        point = _mount(RamFlash(dev.data))
        try:
            got = store.GameStore(point).load()
            assert got is not None and got[1] in (moves[:done], moves[:done + 1]), (k, got)
        finally:
            os.umount(point)
        if done == 20:
            break
        k += 1
    assert k > 6, k


def test_a_full_littlefs_still_saves_the_game():
    # Real LittleFS filled to ENOSPC with records and two other games'
    # saves: the Nehren game still saves every move (old records go first,
    # then the older game), and the settings survive.
    if not _have_lfs():
        return
    dev = _fresh()
    point = _mount(dev)
    try:
        s = store.Settings(point, {"level": 3})
        s.set("level", 5)
        s.save()
        for name in ("cornelson", "browne"):
            g = store.GameStore(point, rules=None, game=name)
            g.start(name + "-start", "")
            for i in range(30):
                g.append("m%d" % i)
        os.mkdir(point + "/records")
        n = 0
        for size in (4096, 512, 64):
            chunk = b"r" * size
            try:
                while True:
                    f = open(point + "/records/r%03d.triad" % n, "wb")
                    n += 1
                    try:
                        f.write(chunk)
                    finally:
                        f.close()
            except OSError as e:
                assert store.errno_of(e) == store.ENOSPC, e
        assert n > 5
        g = store.GameStore(point)
        # Long enough that its snapshot outgrows LittleFS's inline files
        # (which still fit in the directory's metadata when no block is free).
        moves = _game(150)
        g.start(START, "roll b:112233 w:112233 start:b")
        for m in moves:
            g.append(m)
            assert g.safe, g.reason
        assert g.freed and g.freed[0].startswith("records/r000"), g.freed
        back = store.GameStore(point)
        got = back.load()
        assert got is not None, back.last_error
        assert got[1] == moves
        assert store.Settings(point, {"level": 3}).get("level") == 5
        print("littlefs full: %d records written, freed to save the game: %s"
              % (n, " ".join(g.freed)))
    finally:
        os.umount(point)
