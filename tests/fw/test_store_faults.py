# Fault injection into the store's file system, under CPython (pytest) and
# the MicroPython unix port (mp_run): every call of a whole Nehren game
# failed in every way FaultFs knows, alone and in pairs and bursts, each
# followed by a restart (storeprop.play checks the property). Also a full
# flash, a read-only flash, corrupt data, game names and per-game settings.
from fwtest import raises
from triad.board import store

from faultfs import KINDS, FaultFs
import storeprop
from storeprop import META, START, Stats, count_calls, game_moves, nehren_game, play

MOVES = 20  # with compact_every=4: five compactions in a game
FIGURES = []  # lines for the report (printed by the last test)


def test_every_call_fails_once_in_every_way():
    st = Stats()
    for seed, every in ((1, 4), (11, 16), (21, 3)):
        moves = nehren_game(MOVES if every < 16 else 40, seed)
        calls = count_calls(moves, every)
        assert calls > 30, calls
        for c in range(calls):
            for kind in KINDS:
                play(moves, {c: kind}, st, compact_every=every)
    assert st.lost == 0 and st.faults >= st.games
    FIGURES.append("single faults: " + st.line())


def test_pairs_and_bursts_of_faults():
    moves = nehren_game(MOVES, 2)
    calls = count_calls(moves)
    st = Stats()
    for c in range(calls):
        play(moves, {c: "eio", c + 1: "eio"}, st)
        play(moves, {c: "partial", c + 2: "late"}, st)
        play(moves, {c: "late", c + 3: "partial"}, st)
        play(moves, {c: "enospc", c + 5: "eio"}, st)
        # A burst: the next five calls all fail (the simulator's flashfail).
        burst = {}
        for k in range(5):
            burst[c + k] = "eio"
        play(moves, burst, st)
        # Everything from call c on fails: all later moves must be reported.
        dead = {}
        for k in range(c, calls + 40):
            dead[k] = "eio"
        play(moves, dead, st)
    assert st.lost == 0
    FIGURES.append("pairs and bursts: " + st.line())


def test_a_failed_append_is_never_followed_by_an_append():
    # The reproduction: EIO at the third move's append. The next
    # write is a whole snapshot, so the log never has a hole.
    moves = nehren_game(8, 3)
    fs = FaultFs()
    g = store.GameStore("", fs)
    g.start(START, META)
    g.append(moves[0])
    g.append(moves[1])
    fs.plan[fs.calls] = "partial"
    raises(OSError, g.append, moves[2])
    assert not g.safe and g.saved == 2 and "EIO" in g.reason
    assert g.status() == (False, 2, 3, g.reason)
    n = fs.calls
    g.append(moves[3])
    assert g.safe and g.saved == 4
    assert "append" not in [name for (i, name, p) in fs.log[n:]]
    for m in moves[4:]:
        g.append(m)
    assert store.GameStore("", FaultFs(fs.files)).load() == (START, moves, META)


def test_flush_retries_without_a_new_move():
    moves = nehren_game(3, 4)
    fs = FaultFs()
    seen = []
    g = store.GameStore("", fs, on_safe=lambda ok, why: seen.append((ok, why)))
    g.start(START, META)
    g.append(moves[0])
    fs.plan[fs.calls] = "eio"
    raises(OSError, g.append, moves[1])
    assert seen == [(False, "flash write error (EIO)")]
    assert g.flush() is True and g.saved == 2
    assert seen[-1] == (True, None)
    assert store.GameStore("", FaultFs(fs.files)).load()[1] == moves[:2]
    assert g.flush() is True  # nothing to do: no write
    calls = fs.calls
    g.flush()
    assert fs.calls == calls


def test_read_only_mount_plays_on_and_writes_nothing():
    moves = nehren_game(6, 5)
    # A driver that knows (CircuitPython's USB-drive mode) skips the writes.
    fs = FaultFs(readonly=True)
    seen = []
    g = store.GameStore("", fs, on_safe=lambda ok, why: seen.append((ok, why)))
    g.start(START, META)
    for m in moves:
        g.append(m)  # quiet: the driver tells the player itself
    assert fs.files == {} and not g.safe and g.reason == "flash read-only"
    assert g.saved == 0 and seen == [(False, "flash read-only")] and fs.skipped > 6
    # A mount that turns read-only under the store (EROFS) mid-game.
    fs = FaultFs()
    g = store.GameStore("", fs)
    g.start(START, META)
    for m in moves[:3]:
        g.append(m)
    before = dict(fs.files)
    fs.plan[fs.calls] = "rofs"
    for m in moves[3:]:
        raises(OSError, g.append, m)
        assert not g.safe and g.reason == "flash read-only"
    assert fs.files == before  # nothing partially
    assert store.GameStore("", FaultFs(fs.files)).load()[1] == moves[:3]


def _other_game(files, game, n, meta):
    fs = FaultFs(files)
    g = store.GameStore("", fs, rules=None, game=game)
    g.start("start-of-" + game, meta)
    for i in range(n):
        g.append("m%d" % i)
    return fs.files


def test_full_flash_removes_old_records_then_older_games_keeps_settings():
    files = {}
    files = _other_game(files, "cornelson", 30, "c")  # started first: oldest
    files = _other_game(files, "browne", 30, "b")
    s = store.Settings("", {"brightness": 5}, FaultFs(files))
    s.set("brightness", 9)
    s.save()
    files = s.fs.files
    files["records/2025-01-02.triad"] = b"x" * 200
    files["records/2025-01-01.triad"] = b"y" * 200
    files["settings.tmp"] = b"junk"
    settings_file = files["settings.txt"]
    moves = nehren_game(60, 6)
    fs = FaultFs(files, capacity=sum(len(v) for v in files.values()) + 40)
    g = store.GameStore("", fs)
    g.start(START, META)
    for m in moves:
        g.append(m)
        assert g.safe, (g.reason, g.freed)
    assert g.freed[:4] == ["settings.tmp", "records/2025-01-01.triad",
                           "records/2025-01-02.triad", "cornelson"], g.freed
    assert fs.files["settings.txt"] == settings_file
    assert store.Settings("", {"brightness": 5}, FaultFs(fs.files)).get("brightness") == 9
    assert store.GameStore("", FaultFs(fs.files)).load() == (START, moves, META)
    # Past what can be freed: reported, never partial.
    fs.capacity = fs.used() + 5
    g2 = store.GameStore("", fs)
    g2.load()
    raises(OSError, g2.start, START, "x" * 100)
    assert g2.reason == "flash full" and not g2.safe
    assert fs.files["settings.txt"] == settings_file
    assert store.GameStore("", FaultFs(fs.files)).load() == (START, moves, META)


def test_full_flash_property():
    moves = nehren_game(MOVES, 7)
    st = Stats()
    base = _other_game({}, "browne", 40, "b")
    need = sum(len(v) for v in base.values())
    # From too small for the game itself (every unsaved move reported) to
    # room for it once the other game is gone (every move saved).
    for spare in range(0, 500, 17):
        got = play(moves, {}, st, capacity=need + spare, files=base)
        if spare >= 300:
            assert got[1] == moves, spare
    assert st.lost == 0
    FIGURES.append("full flash: " + st.line())


def test_saves_name_their_game_and_are_kept_per_game():
    fs = FaultFs()
    moves = nehren_game(5, 8)
    g = store.GameStore("", fs)
    g.start(START, META)
    for m in moves:
        g.append(m)
    assert fs.files["game.snap"].startswith(b"TG2 ") and b" nehren\n" in fs.files["game.snap"]
    b = store.GameStore("", fs, rules=None, game="browne")
    assert b.load() is None and b.last_error is None  # its own files: none yet
    b.start("browne-start", "")
    b.append("x1")
    assert "browne.snap" in fs.files
    assert store.GameStore("", fs).load() == (START, moves, META)
    assert store.GameStore("", fs, rules=None, game="browne").load() == ("browne-start", ["x1"], "")
    # A save that names another game is not resumed and not touched.
    fs.files["game.snap"] = fs.files["browne.snap"]
    before = dict(fs.files)
    g3 = store.GameStore("", fs)
    assert g3.load() is None
    assert "browne" in g3.last_error and "nehren" in g3.last_error
    assert fs.files == before
    raises(ValueError, store.GameStore, "", fs, True, 16, "Bad Name")
    raises(ValueError, store.GameStore, "", fs, True, 16, "game")


def test_a_save_of_the_one_game_firmware_resumes_as_nehren():
    moves = nehren_game(7, 9)
    # game.snap/game.log exactly as the firmware before game names wrote them.
    snap = ("TG1 3 2\n%s\n%s\n%s\n" % (START, META, " ".join(moves[:2]))).encode()
    snap += ("END %04x\n" % store.crc16(snap)).encode()
    hdr = "L 3 2"
    crc = store.crc16(hdr.encode())
    log = "%s %04x\n" % (hdr, crc)
    for m in moves[2:]:
        crc = store.crc16(m.encode(), crc)
        log += "%s %04x\n" % (m, crc)
    fs = FaultFs({"game.snap": snap, "game.log": log.encode()})
    g = store.GameStore("", fs)
    assert g.load() == (START, moves, META) and g.last_error is None
    assert store.GameStore("", fs, rules=None, game="browne").load() is None
    g.start(START, "next")
    assert b" nehren\n" in fs.files["game.snap"]


def test_corrupt_data_gives_a_message_and_changes_nothing():
    moves = nehren_game(10, 10)
    fs = FaultFs()
    g = store.GameStore("", fs, compact_every=100)
    g.start(START, META)
    for m in moves:
        g.append(m)
    good_log = fs.files["game.log"]
    # A bad CRC in the middle of the log: the moves before it resume.
    lines = good_log.split(b"\n")
    lines[5] = lines[5][:-1] + (b"0" if lines[5][-1:] != b"0" else b"1")
    fs.files["game.log"] = b"\n".join(lines)
    before = dict(fs.files)
    g2 = store.GameStore("", fs)
    assert g2.load() == (START, moves[:4], META)
    assert "damaged" in g2.last_error and fs.files == before
    # A truncated snapshot: rebuilt from the start copy and the log as far
    # as the log verifies (issue 47), said, nothing written.
    fs.files["game.snap"] = fs.files["game.snap"][:-3]
    before = dict(fs.files)
    g3 = store.GameStore("", fs)
    assert g3.load() == (START, moves[:4], META) and fs.files == before
    assert g3.last_error == ("snapshot damaged (checksum): the game rebuilt from its start and its move log "
                             "(4 moves); move log damaged after 4 moves; rest ignored")
    # ... and without the start copy: not resumed, said, nothing written.
    del fs.files["game.start"]
    before = dict(fs.files)
    g3 = store.GameStore("", fs)
    assert g3.load() is None and "damaged" in g3.last_error and fs.files == before
    # A read that fails: not resumed, a message, nothing written.
    fs2 = FaultFs(before, {0: "eio"})
    g4 = store.GameStore("", fs2)
    assert g4.load() is None and "unreadable" in g4.last_error
    assert fs2.files == before


def test_settings_per_game_and_failures():
    fs = FaultFs()
    board = store.Settings("", {"brightness": 64, "level": 3}, fs)
    board.set("level", 5)
    board.save()
    # Nehren's settings stay in settings.txt, where the one-game firmware
    # kept them; another game's start from what that file held.
    n = store.Settings("", {"level": 3, "note2_triads": 1}, fs, game="nehren")
    assert n.get("level") == 5 and n.get("note2_triads") == 1 and n.last_error is None
    assert n.path == "settings.txt"
    # ... but the level: each game's engine has its own scale (issue 47: a
    # Cornelson board chosen after Nehren played at Nehren's level, not its 4).
    other = store.Settings("", {"level": 4, "brightness": 64}, fs, game="cornelson")
    assert other.get("level") == 4 and other.get("brightness") == 64
    board.set("brightness", 20)
    board.save()
    assert store.Settings("", {"level": 4, "brightness": 64}, fs, game="browne").get("brightness") == 20
    n.set("note2_triads", 0)
    fs.plan[fs.calls] = "partial"
    seen = []
    n.on_safe = lambda ok, why: seen.append(ok)
    raises(OSError, n.save)
    assert not n.safe and seen == [False]
    assert store.Settings("", {"note2_triads": 1}, FaultFs(fs.files), game="nehren").get("note2_triads") == 1
    assert n.save() is True and n.safe and seen == [False, True]
    assert store.Settings("", {"note2_triads": 1}, FaultFs(fs.files), game="nehren").get("note2_triads") == 0
    b = store.Settings("", {"level": 3, "mode": 0}, fs, game="browne")
    b.set("mode", 2)
    b.save()
    assert store.Settings("", {"mode": 0}, fs, game="browne").get("mode") == 2
    assert store.Settings("", {"mode": 0}, fs, game="cornelson").get("mode") == 0
    # Garbage: defaults, a message, the file left as it is.
    fs.files["settings-browne.txt"] = b"\xff\x00garbage"
    s = store.Settings("", {"mode": 0}, fs, game="browne")
    assert s.get("mode") == 0 and "corrupt" in s.last_error
    assert fs.files["settings-browne.txt"] == b"\xff\x00garbage"
    # Read-only: nothing written, not safe, no exception.
    ro = FaultFs(readonly=True)
    s = store.Settings("", {"mode": 0}, ro, game="browne")
    s.set("mode", 1)
    assert s.save() is False and not s.safe and ro.files == {}


def test_every_game_survives_a_failing_call_anywhere():
    # The other games' saves under the same faults: every call of a short
    # game fails once, in each way; nothing the store said was saved is lost.
    for name in ("browne", "cornelson"):
        start, moves = game_moves(name, 8, 1)
        assert len(moves) == 8, name
        stats = Stats()
        n = count_calls(moves, game=name, start=start)
        for kind in ("eio", "partial", "late"):
            for c in range(0, n + 4, 2):
                play(moves, {c: kind}, stats, game=name, start=start)
        assert stats.lost == 0 and stats.faults > 0, (name, stats.line())
        FIGURES.append("%s: %s" % (name, stats.line()))


def test_a_start_kept_for_later_waits_for_write_pending_or_the_first_move():
    # GameStore.start_later (docs/store.md, "A start written later"): the
    # new game is checked and kept in memory; until it is written, flash
    # holds the game before it, and a power cut resumes that one.
    before = "w3w3w2w1w1w1/....../....../....../....../b1b1b1b3b3b3 b 0 0"
    moves = nehren_game(2, 6)
    fs = FaultFs()
    g = store.GameStore("", fs)
    g.start(before, "rolled")
    files = dict(fs.files)
    raises(ValueError, g.start_later, "w3w3 nonsense")  # checked at once
    assert not g.pending and fs.files == files
    g.start_later(START, META)
    assert g.pending and fs.files == files  # nothing written
    assert store.GameStore("", FaultFs(fs.files)).load() == (before, [], "rolled")  # a power cut: the game before
    g.write_pending()
    assert not g.pending and g.safe
    assert store.GameStore("", FaultFs(fs.files)).load() == (START, [], META)
    calls = fs.calls
    g.write_pending()  # written once
    assert fs.calls == calls
    # The first move writes a start still kept, with itself: never a move
    # on flash without its start, nor one waiting for it.
    g.start(before, "rolled")
    g.start_later(START, META)
    g.append(moves[0])
    assert not g.pending and g.safe
    assert store.GameStore("", FaultFs(fs.files)).load() == (START, moves[:1], META)
    # A failed write_pending is a failed start: not safe, flush() writes it.
    g.start(before, "rolled")
    g.start_later(START, META)
    fs.plan[fs.calls] = "eio"
    raises(OSError, g.write_pending)
    assert not g.pending and not g.safe
    assert store.GameStore("", FaultFs(fs.files)).load()[0] == before
    assert g.flush() is True
    assert store.GameStore("", FaultFs(fs.files)).load() == (START, [], META)


def test_z_print_figures():
    # Named to run last (mp_run sorts): the figures for docs/store.md.
    for line in FIGURES:
        print("store faults, " + line)
    # Leave the heap as found: the LittleFS tests after these need 200 KB in
    # one piece on the MicroPython unix port.
    del FIGURES[:]
    storeprop._GAMES.clear()
