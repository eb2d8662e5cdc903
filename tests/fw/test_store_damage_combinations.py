# Issue 47.5: a saved game whose files are damaged in any combination is
# rebuilt, or said (load's last_error, which the board sends as `evt error
# saved game: ...` and the page shows). Each of the snapshot, the start copy
# and the move log is whole, missing or damaged: every combination, for each
# game's file names. CPython and MicroPython (mp_run).
from triad.board import store

from faultfs import FaultFs
from storeprop import META, START, nehren_game

STATES = ("ok", "missing", "damaged")
# Nehren's moves checked by its rules; the other games' files under their
# own names (the store is the same for every game: no rules needed).
GAMES = (("nehren", START, nehren_game(3), True),
         ("browne", "browne-start", ["x1", "x2", "x3"], None),
         ("cornelson", "cornelson-start", ["D4 S1-a2", "y2", "y3"], None))


def _flip(b, at):
    return b[:at] + bytes([b[at] ^ 0x20]) + b[at + 1:]


def _saved(game, start, moves, rules):
    fs = FaultFs({})
    g = store.GameStore("", fs, game=game, rules=rules)
    g.start(start, META)
    for m in moves:
        g.append(m)
    return g, fs.files


def _damaged(files, g, snap, start, log):
    f = dict(files)
    for path, how, at in ((g.snap_path, snap, 12), (g.start_path, start, 12), (g.log_path, log, 2)):
        if how == "missing":
            del f[path]
        elif how == "damaged":
            f[path] = _flip(f[path], at)  # (a snapshot, a start copy: its checksum; a log: its header)
    return f


def _load(game, rules, files):
    fs = FaultFs(files)
    g = store.GameStore("", fs, game=game, rules=rules)
    got = g.load()
    assert fs.files == files  # loading writes nothing
    return g, got


def test_every_combination_of_damaged_files_is_rebuilt_or_said():
    for game, start, moves, rules in GAMES:
        g, files = _saved(game, start, moves, rules)
        told = moves
        for snap in STATES:
            for copy in STATES:
                for log in STATES:
                    case = (game, snap, copy, log)
                    g2, got = _load(game, rules, _damaged(files, g, snap, copy, log))
                    err = g2.last_error
                    if snap == "ok" and log == "ok":
                        # Whole: resumed, nothing said (a start copy that
                        # is not whole is written again at the next move).
                        assert got == (start, told, META) and err is None, (case, got, err)
                    elif snap == copy == log == "missing":
                        assert got is None and err is None, case  # no save at all
                    elif copy == "ok" and log == "ok":
                        # The start copy and the log hold the game: rebuilt.
                        assert got == (start, told, META), (case, got)
                        assert err == "snapshot %s: the game rebuilt from its start and its move log (3 moves)" % (
                            "missing" if snap == "missing" else "damaged (checksum)"), (case, err)
                        assert g2.lost
                    else:
                        # Anything lost is said, with what was kept.
                        assert err and g2.lost, (case, got, err)
                        if got is None:
                            assert err.endswith("not resumed"), (case, err)
                        else:
                            assert got[0] == start and got[1] == told[:len(got[1])], (case, got)
                            assert "kept the %d moves" % len(got[1]) in err, (case, err)


def test_the_issue_cases_say_what_is_damaged():
    # (the two silent losses of issue 47: a damaged start copy, and the log
    # gone too, with the snapshot missing)
    g, files = _saved(*GAMES[0])
    g2, got = _load("nehren", True, _damaged(files, g, "missing", "damaged", "ok"))
    assert got is None and g2.last_error == ("snapshot missing: its move log begins at move 1 and the game's start "
                                             "copy is damaged (checksum); not resumed")
    g2, got = _load("nehren", True, _damaged(files, g, "missing", "ok", "missing"))
    assert got is None and g2.last_error == "snapshot missing: its move log missing; not resumed"


def test_a_damaged_start_copy_is_written_again_at_the_next_move():
    game, start, moves, rules = GAMES[0]
    g, files = _saved(game, start, moves[:2], rules)
    files = _damaged(files, g, "ok", "damaged", "ok")
    fs = FaultFs(files)
    g2 = store.GameStore("", fs, game=game, rules=rules)
    assert g2.load() == (start, moves[:2], META) and g2.last_error is None
    g2.append(moves[2])
    # The snapshot now gone, the game is still rebuilt whole.
    del fs.files[g2.snap_path]
    g3, got = _load(game, rules, fs.files)
    assert got == (start, moves, META), (got, g3.last_error)
