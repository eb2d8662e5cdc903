# The bench's plain perft (bench/plain_nehren.py), the yardstick of the speed
# ratio, must count what the independent reference rules count.
import os
import sys

import reference_nehren as R

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))
import plain_nehren as plain  # noqa: E402

POSITIONS = [
    (R.START, 3),
    ("...b3../....w3w2/w2.w2w1../...b1b2./.b1b1..b1/...w2.. w 0 0", 2),
    ("....../....../..b1.../....../w2b2..../...... b 0 0", 3),
    ("....../....../....../w3.w3.../w3w1..../b1w2w2... b 0 0", 2),  # Note 2
    ("....../....../....../w1w1..../.w1..../b1w1.... b 0 0", 3),  # Note 2
    ("....../....../..b1.../....../w2b2..../.....w1 b 2 1", 2),
    ("w1...../....../....../....../....../.....b1 b 3 0", 2),  # won
]


def test_plain_perft_matches_the_reference():
    for text, depth in POSITIONS:
        for d in range(1, depth + 1):
            assert plain.perft(plain.parse(text), d) == R.perft(text, d), (text, d)
