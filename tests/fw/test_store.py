# GameStore / Settings on the real file system, under CPython (pytest) and the
# MicroPython unix port (mp_run). No tempfile on MicroPython: each test makes
# its own directory under /tmp and removes it.
import os

from fwtest import raises
from triad.board import store
from triad.games.nehren import core, notation

START = notation.START
META = "roll b:112233 w:112233 start:b"
_count = [0]


def _isdir(path):
    try:
        return (os.stat(path)[0] & 0o170000) == 0o040000
    except OSError:
        return False


def _rmtree(path):
    for name in os.listdir(path):
        p = path + "/" + name
        if _isdir(p):
            _rmtree(p)
        else:
            os.remove(p)
    os.rmdir(path)


def _tmpdir():
    _count[0] += 1
    tag = "".join("%02x" % b for b in os.urandom(4))
    # A subdirectory that does not exist yet: GameStore must create it.
    return "/tmp/triad_store_%s_%d" % (tag, _count[0])


def _with_dir(fn):
    d = _tmpdir()
    try:
        fn(d)
    finally:
        if _isdir(d):
            _rmtree(d)


def _game(n, seed=0):
    """The first n moves of a deterministic legal game from START."""
    pos = notation.parse_position(START)
    out = []
    while len(out) < n:
        legal = pos.legal_moves()
        # Prefer moves without a Triad so the game lasts past compactions.
        quiet = [m for m in legal if not core.m_removed(m)]
        legal = quiet or legal
        if not legal:
            break
        m = legal[(len(out) * 7 + seed) % len(legal)]
        out.append(notation.format_move(m))
        pos.make(m)
    return out


def _read(path):
    f = open(path, "rb")
    try:
        return f.read()
    finally:
        f.close()


def _write(path, data, mode="wb"):
    f = open(path, mode)
    try:
        f.write(data)
    finally:
        f.close()


def test_round_trip_across_compactions():
    def body(d):
        moves = _game(40)
        assert len(moves) > 2 * store.COMPACT_EVERY
        g = store.GameStore(d)
        g.start(START, META)
        for m in moves:
            g.append(m)
        got = store.GameStore(d).load()
        assert got == (START, moves, META)
        # The log holds only the moves since the last compaction.
        log = _read(d + "/game.log").split(b"\n")
        assert len(log) - 2 <= store.COMPACT_EVERY

    _with_dir(body)


def test_no_game_and_missing_files():
    def body(d):
        g = store.GameStore(d)
        assert g.load() is None and g.last_error is None
        moves = _game(5)
        g.start(START, META)
        for m in moves:
            g.append(m)
        os.remove(d + "/game.log")
        g2 = store.GameStore(d)
        assert g2.load() == (START, [], META)
        os.remove(d + "/game.snap")
        assert store.GameStore(d).load() is None

    _with_dir(body)


def test_a_missing_snapshot_is_rebuilt_from_the_start_and_the_log():
    # Issue 36: the snapshot deleted, the log still there: the game was
    # dropped without a word. The log holds the game while it begins at the
    # first move; with the start's copy (.start) it is resumed, and said.
    def body(d):
        moves = _game(5)
        g = store.GameStore(d)
        g.start(START, META)
        for m in moves:
            g.append(m)
        os.remove(d + "/game.snap")
        g2 = store.GameStore(d)
        assert g2.load() == (START, moves, META)
        assert g2.last_error.startswith("snapshot missing: the game rebuilt from its start and its move log (5 moves)")
        assert g2.lost
        g2.append(_game(6)[5])  # the game goes on, and is whole on flash again
        g3 = store.GameStore(d)
        assert g3.load() == (START, _game(6), META) and g3.last_error is None

    _with_dir(body)


def test_a_missing_snapshot_the_log_cannot_rebuild_is_said():
    def body(d):
        moves = _game(store.COMPACT_EVERY + 3)
        g = store.GameStore(d)
        g.start(START, META)
        for m in moves:
            g.append(m)
        os.remove(d + "/game.snap")
        g2 = store.GameStore(d)
        assert g2.load() is None
        # (the log begins after the compaction: the moves before it are gone)
        assert g2.last_error == "snapshot missing: its move log begins at move %d; not resumed" % (
            store.COMPACT_EVERY + 2)
        assert g2.lost
        # A save of a firmware that kept no start copy: said too.
        g = store.GameStore(d)
        g.start(START, META)
        g.append(moves[0])
        os.remove(d + "/game.snap")
        os.remove(d + "/game.start")
        g2 = store.GameStore(d)
        assert g2.load() is None and g2.lost
        assert g2.last_error == ("snapshot missing: its move log begins at move 1 and the game's start is not "
                                 "on flash; not resumed")
        # A first start cut before its snapshot (a log of no game) is no game: nothing said.
        g.clear()
        _write(d + "/game.log", b"L 0 0 %04x\n" % store.crc16(b"L 0 0"))
        g2 = store.GameStore(d)
        assert g2.load() is None and g2.last_error is None and not g2.lost

    _with_dir(body)


def test_torn_last_record_is_dropped_and_game_continues():
    def body(d):
        moves = _game(6)
        g = store.GameStore(d)
        g.start(START, "")
        for m in moves[:5]:
            g.append(m)
        full = _read(d + "/game.log")
        g.append(moves[5])
        rec = _read(d + "/game.log")[len(full):]
        for cut in range(len(rec)):
            _write(d + "/game.log", full + rec[:cut])
            g2 = store.GameStore(d)
            assert g2.load() == (START, moves[:5], "")
            assert (g2.last_error is not None) == (cut > 0)
        # After a torn record the next append must not land behind it.
        g2.append(moves[5])
        assert store.GameStore(d).load() == (START, moves[:6], "")

    _with_dir(body)


def test_garbage_appended_is_ignored():
    def body(d):
        moves = _game(8)
        g = store.GameStore(d)
        g.start(START, META)
        for m in moves[:4]:
            g.append(m)
        junk = (b"\x00\xff garbage\nc1c3 0000\n" + bytes(range(256)) + b"\n\n"
                + moves[4].encode() + b" ffff\n")
        _write(d + "/game.log", junk, "ab")
        g2 = store.GameStore(d)
        assert g2.load() == (START, moves[:4], META)
        assert "damaged" in g2.last_error
        for m in moves[4:]:
            g2.append(m)
        g3 = store.GameStore(d)
        assert g3.load() == (START, moves, META) and g3.last_error is None

    _with_dir(body)


def test_corrupt_snapshot_gives_error_and_changes_nothing():
    def body(d):
        moves = _game(3)
        g = store.GameStore(d)
        g.start(START, META)
        for m in moves:
            g.append(m)
        snap = _read(d + "/game.snap")
        log = _read(d + "/game.log")
        bad_snaps = [
            snap[:10] + bytes([snap[10] ^ 1]) + snap[11:],  # one bit flipped
            snap[:-1],  # truncated
            b"",
            b"\xff" * 4096,  # erased flash
            b"TG1 1 0\nnot a position\n\n\nEND 0000\n",
        ]
        start = _read(d + "/game.start")
        for bad in bad_snaps:
            # While the log holds every move, the start copy and the log
            # rebuild the game (issue 47), said; nothing on flash changes.
            _write(d + "/game.snap", bad)
            g2 = store.GameStore(d)
            assert g2.load() == (START, moves, META)
            assert g2.last_error == ("snapshot damaged (checksum): the game rebuilt from its start and its "
                                     "move log (3 moves)") and g2.lost
            assert _read(d + "/game.snap") == bad and _read(d + "/game.log") == log
            # Without the start copy: not resumed, said.
            os.remove(d + "/game.start")
            g2 = store.GameStore(d)
            assert g2.load() is None
            assert g2.last_error == ("snapshot damaged (checksum): its move log begins at move 1 and the game's "
                                     "start is not on flash; not resumed") and g2.lost
            assert _read(d + "/game.snap") == bad and _read(d + "/game.log") == log
            _write(d + "/game.start", start)

    _with_dir(body)


def test_illegal_move_ends_the_loaded_game():
    def body(d):
        moves = _game(6)
        g = store.GameStore(d)
        g.start(START, "")
        for m in moves[:3]:
            g.append(m)
        g.append("a1a1")  # well-formed, checksummed, never legal
        g.append(moves[3])
        g2 = store.GameStore(d)
        assert g2.load() == (START, moves[:3], "")
        assert "move 4" in g2.last_error
        # Validation is the default; a caller may opt out.
        assert store.GameStore(d, rules=None).load()[1] == moves[:3] + ["a1a1", moves[3]]

    _with_dir(body)


def test_append_after_load_continues_the_same_game():
    def body(d):
        moves = _game(30, seed=3)
        g = store.GameStore(d)
        g.start(START, META)
        for m in moves[:11]:
            g.append(m)
        for k in range(11, len(moves)):
            g = store.GameStore(d)  # a reboot before every move
            assert g.load() == (START, moves[:k], META)
            g.append(moves[k])
        assert store.GameStore(d).load() == (START, moves, META)
        # append() on a fresh store reads the saved game first.
        g = store.GameStore(d)
        g.append(_game(31, seed=3)[30])
        assert store.GameStore(d).load()[1] == _game(31, seed=3)

    _with_dir(body)


def test_start_replaces_and_clear_forgets():
    def body(d):
        g = store.GameStore(d)
        g.start(START, "one")
        for m in _game(5):
            g.append(m)
        old_log = _read(d + "/game.log")
        g.start(START, "two")
        assert store.GameStore(d).load() == (START, [], "two")
        # A crash between the snapshot rename and the new log leaves the old
        # game's log behind; its id no longer matches.
        _write(d + "/game.log", old_log)
        assert store.GameStore(d).load() == (START, [], "two")
        g.clear()
        g2 = store.GameStore(d)
        assert g2.load() is None and g2.last_error is None
        assert "game.snap" not in os.listdir(d)
        raises(store.StoreError, g2.append, "c1c3")

    _with_dir(body)


def test_bad_arguments_raise_before_writing():
    def body(d):
        g = store.GameStore(d)
        raises(ValueError, g.start, "w3w3 nonsense")
        raises(ValueError, g.start, START + "\n")
        assert "game.snap" not in os.listdir(d)
        g.start(START, "multi\nline meta")
        raises(ValueError, g.append, "c1_c3")  # "_" stands for a space on flash
        raises(ValueError, g.append, "c1c3 ")
        raises(ValueError, g.append, "c1\tc3")
        raises(ValueError, g.append, "")
        raises(ValueError, g.append, "c1c3\n")
        assert store.GameStore(d).load() == (START, [], "multi line meta")

    _with_dir(body)


def test_unknown_format_is_refused_without_crash():
    def body(d):
        g = store.GameStore(d)
        g.start(START, "")
        data = b"TG9 1 0\n" + START.encode() + b"\n\n\n"
        data += ("END %04x\n" % store.crc16(data)).encode()
        _write(d + "/game.snap", data)
        g2 = store.GameStore(d)
        assert g2.load() is None and "format" in g2.last_error

    _with_dir(body)


def test_settings_round_trip_and_atomic_save():
    def body(d):
        s = store.Settings(d, {"brightness": 5, "volume": 3})
        assert s.last_error is None and s.get("brightness") == 5
        assert s.save() is False  # nothing changed, nothing written
        assert "settings.txt" not in os.listdir(d)
        s.set("brightness", 7)
        s.set("volume", -2)
        assert s.save() is True
        assert sorted(os.listdir(d)) == ["settings.txt"]  # tmp renamed away
        # A newer firmware with another default keeps the saved values.
        s2 = store.Settings(d, {"brightness": 1, "volume": 1, "sound": 1})
        assert (s2.get("brightness"), s2.get("volume"), s2.get("sound")) == (7, -2, 1)
        assert s2.last_error is None
        raises(ValueError, s2.set, "volume", "loud")
        raises(ValueError, s2.set, "a=b", 1)
        raises(KeyError, s2.get, "nope")

    _with_dir(body)


def test_settings_corrupt_or_missing_fall_back_to_defaults():
    def body(d):
        s = store.Settings(d, {"brightness": 5})
        s.set("brightness", 9)
        s.save()
        good = _read(d + "/settings.txt")
        for bad in (good[:-1], good.replace(b"9", b"8"), b"", b"\xff" * 64,
                    b"{\"brightness\": 9}"):
            _write(d + "/settings.txt", bad)
            s2 = store.Settings(d, {"brightness": 5})
            assert s2.get("brightness") == 5 and s2.last_error
            assert s2.unread == ("brightness",)  # said by name (issue 36)
            assert _read(d + "/settings.txt") == bad  # loading changes nothing
        # A leftover tmp from a cut save does not matter.
        _write(d + "/settings.txt", good)
        _write(d + "/settings.tmp", good[:7])
        s3 = store.Settings(d, {"brightness": 5})
        assert s3.get("brightness") == 9 and s3.last_error is None and s3.unread == ()

    _with_dir(body)


def test_crc16_check_value():
    # CRC-16/CCITT-FALSE standard check value: the format must not drift.
    assert store.crc16(b"123456789") == 0x29B1


def test_crc16_is_ccitt_false_and_chains():
    # The standard check value of CRC-16/CCITT-FALSE; saves written by
    # earlier firmware (table-driven) must still verify.
    from triad.board import store as S

    assert S.crc16(b"123456789") == 0x29B1
    assert S.crc16(bytearray(b"56789"), S.crc16(b"1234")) == 0x29B1
    assert S.crc16(b"") == 0xFFFF
