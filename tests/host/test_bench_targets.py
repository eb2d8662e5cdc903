# The bench's targets on the real image's figures (bench/bench.py, issue 48):
# the numbers of the issue (a scan gap of at most 10 ms, a lift's or a
# knock's light within 25 ms, 1 936 B of C stack) and the board's move,
# read from the `pico.board_GAME_*` figures bench/pico_board.py prints. No
# run of the bench here: the figures are given, the verdicts are checked.
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))
import bench  # noqa: E402

GOOD = {
    "think_scan_gap_ms": "9.9",
    "hint_scan_gap_ms": "10.0",
    "lift_latency_ms": "25.0",
    "knock_latency_ms": "24.1",
    "stack_left": "1936",
    "move_came": "1",
    "errors": "0",
}


def board_figures(**changed):
    """Every game's figures as GOOD, with changed["game__name"] = value."""
    figs = {}
    for game in bench.THINK_GAMES:
        for name, value in GOOD.items():
            figs["pico.board_%s_%s" % (game, name)] = changed.get("%s__%s" % (game, name), value)
    return figs


def verdict(figs, words):
    """(value text, holds) of the one board target whose words contain `words`."""
    found = [check for desc, check in bench.TARGETS if "pico board" in desc and words in desc]
    assert len(found) == 1, words
    return found[0](figs)


def test_every_board_target_holds_at_the_issues_numbers():
    figs = board_figures()
    for desc, check in bench.TARGETS:
        if "pico board" in desc:
            assert check(figs)[1] is True, desc


@pytest.mark.parametrize("figure, value, words", [
    ("think_scan_gap_ms", "15.2", "longest gap between two scans"),
    ("hint_scan_gap_ms", "10.6", "longest gap between two scans"),
    ("lift_latency_ms", "25.1", "switch edge to the LED frame"),
    ("lift_latency_ms", "nan", "switch edge to the LED frame"),  # no piece lit
    ("knock_latency_ms", "26.0", "knocked over"),
    ("knock_latency_ms", "nan", "knocked over"),  # never shown
    ("stack_left", "1935", "C stack left"),
    ("move_came", "0", "announces its own move"),
    ("errors", "1", "no evt error"),
])
def test_one_game_past_its_number_misses_the_target(figure, value, words):
    for game in bench.THINK_GAMES:
        text, holds = verdict(board_figures(**{"%s__%s" % (game, figure): value}), words)
        assert holds is False, (game, figure, value)
        assert game in text


def test_the_board_targets_are_skipped_without_the_board_run():
    figs = {"pico.board_skipped": "1"}
    for desc, check in bench.TARGETS:
        if "pico board" in desc:
            assert check(figs)[1] is None, desc


def test_a_missing_figure_is_a_miss_not_a_pass():
    # A board run that stopped before its last figure (the bench's main()
    # reports the KeyError as "missing figure" and counts it as missed).
    figs = board_figures()
    del figs["pico.board_browne_move_came"]
    with pytest.raises(KeyError):
        verdict(figs, "announces its own move")
