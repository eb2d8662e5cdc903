# Issue 23: a saved game carries the rules it is played under (Cornelson's
# mode), and a move log that is missing, emptied or unverifiable is said,
# with what was kept and what was lost. CPython and MicroPython (mp_run).
from fwtest import raises
from triad.board import store

from faultfs import FaultFs

BREACH = "s.../...../....../......./....../...../.... S:f3,S2,S3 N:N1,d11,d1 s 0 0"
TURNS = ["G2 f3-f2 S2-a4 S3-a6", "D4 d11-d10 d1-d2"]  # the first removes N1 (breach)


def _played(rules, compact_every=16):
    fs = FaultFs({})
    g = store.GameStore("", fs, game="cornelson", compact_every=compact_every)
    g.start(BREACH, "", rules)
    for t in TURNS:
        g.append(t)
    return fs


def test_a_breach_game_replays_under_its_own_mode():
    fs = _played("mode=1,series=0")
    g = store.GameStore("", FaultFs(fs.files), game="cornelson")
    got = g.load()
    assert got is not None and got[1] == TURNS and g.last_error is None
    assert g.rules == "mode=1,series=0"
    # Without the mode it is a standard game: the first turn ends it (Trap),
    # the second is illegal and would be lost.
    fs2 = _played("")
    g2 = store.GameStore("", FaultFs(fs2.files), game="cornelson")
    got2 = g2.load()
    assert got2[1] == TURNS[:1] and "move 2" in g2.last_error


def test_the_rules_survive_a_compaction():
    fs = _played("mode=1,series=0", compact_every=1)
    assert b" cornelson mode=1,series=0\n" in fs.files["cornelson.snap"]
    g = store.GameStore("", FaultFs(fs.files), game="cornelson")
    assert g.load()[1] == TURNS and g.rules == "mode=1,series=0"


def test_bad_rules_are_refused_and_change_nothing():
    fs = FaultFs({})
    g = store.GameStore("", fs, game="cornelson")
    for bad in ("mode", "mode=x", "Mode=1", "mode=1;series=0", "mode=1,"):
        raises(ValueError, g.start, BREACH, "", bad)
    assert fs.files == {}
    assert store.parse_rules("mode=4,series=12") == {"mode": 4, "series": 12}
    assert store.parse_rules("") == {}


def _log_lost(damage):
    fs = _played("mode=1,series=0")
    files = dict(fs.files)
    damage(files)
    g = store.GameStore("", FaultFs(files), game="cornelson")
    got = g.load()
    return got, g.last_error


def test_a_deleted_log_is_said_with_what_was_kept():
    def gone(f):
        del f["cornelson.log"]

    got, err = _log_lost(gone)
    assert got is not None and got[1] == []
    assert "missing" in err and "kept the 0 moves" in err and "after move 0 are lost" in err


def test_an_emptied_log_is_said():
    def empty(f):
        f["cornelson.log"] = b""

    got, err = _log_lost(empty)
    assert got[1] == [] and "empty" in err and "kept the 0 moves" in err


def test_an_unverifiable_log_header_is_said():
    def scrawl(f):
        f["cornelson.log"] = b"L 9 0 0000\n" + f["cornelson.log"].split(b"\n", 1)[1]

    got, err = _log_lost(scrawl)
    assert got[1] == [] and "unverifiable" in err and "kept the 0 moves" in err


def test_a_first_game_cut_before_its_log_header_loses_nothing_and_says_nothing():
    # The first start writes a log of no game first: a save cut before its
    # own header then has a log of an earlier game, and nothing was lost.
    fs = FaultFs({})
    g = store.GameStore("", fs, game="cornelson")
    g.start(BREACH, "", "mode=1,series=0")
    files = dict(fs.files)
    h0 = "L 0 0"
    files["cornelson.log"] = ("%s %04x\n" % (h0, store.crc16(h0.encode()))).encode()
    g2 = store.GameStore("", FaultFs(files), game="cornelson")
    assert g2.load() == (BREACH, [], "") and g2.last_error is None
