"""The page's records (issue 46): the simulator writes the board's game as
a record and reads one to review (simulator/review.py, below the host
tools, so with its own few lines of the format); both held here to
host_tools.records, the format's own reader and writer (docs/records.md)."""
import pytest

from host_tools import records
from simulator import review as SR
from simulator.game import GAME

START = "w3..w2../....../.....b3/b2.w3.../.w1..w2b1/.b1.... w 2 1"


def test_the_pages_record_reads_as_a_record():
    text = SR.record_text(START, ["c3b3xb2", "a3b2xb1"], {}, "2026-12-07T08:00:00+00:00")
    rec = records.parse(text)
    assert rec.game.NAME == GAME.NAME and rec.start == START
    assert rec.moves == ["c3b3xb2", "a3b2xb1"]
    assert rec.result == "b" and rec.final() == rec.game.format_position(rec.positions()[-1])


def test_a_record_of_the_host_tools_opens_on_the_page():
    rec = records.load("tests/records/sample_game.triad")
    start, moves, settings = SR.read_record(rec.format())
    assert (start, moves, settings) == (rec.start, rec.moves, {})
    out = SR.analyse(start, moves, settings, nodes=0)
    assert len(out["moves"]) == len(moves) and len(out["evals"]) == len(moves)
    # The rules' marks of the page are the terminal's (the same analysis).
    from host_tools.review import review_record

    rv, _ = review_record(rec, nodes=0)
    assert [(m["ply"], m["mark"]["kind"]) for m in out["moves"] if m["mark"]] == [
        (mk[0], rv.kind_text(mk[1])) for mk in rv.marks]


@pytest.mark.parametrize("text, words", [
    ("hello\n", "not a Triad record"),
    ("# triad-record 1\nGame: browne\nStart: x\n\n", "a record of browne"),
    ("# triad-record 1\nGame: nehren\n\n1. a1a2\n", "no Start"),
    ("# triad-record 1\nGame: nehren\nStart: %s\n\n1. a1a6\n" % START, "move 1 (a1a6) is not a legal move"),
])
def test_a_bad_record_is_said_in_one_line(text, words):
    with pytest.raises(SR.RecordError) as e:
        SR.read_record(text)
    assert words in str(e.value) and "\n" not in str(e.value)
