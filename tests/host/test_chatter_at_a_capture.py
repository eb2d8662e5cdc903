"""A captured piece's reed chatters while the player takes the captures off
(issue 47, the Browne fuzz's range 1023 of browne.standard.1.3): the board
read the chatter as "C1 taken off, a new piece dropped on C1", committed
Green's F4-D2 with Red's drop on C1 and told the player to put Red's piece
back, while the table showed the capture half done. The chatter starts at
every phase of the board's 10 ms scan (and its reading halfway between): the
words still ask for C1 to be taken off, and the turn the player carries out
is the one committed. Through the script contract (`python -m simulator
script`, its `say` and `reply` lines), the unchanged firmware."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Green to move: F4-D2 takes Red's C1, D1 and E2, then Green drops a Red
# piece (the bunny's) on an empty cell.
POSITION = "R:B3,C1,D1,D7,E1,E2,F2,G3 G:A5,B5,B6,C5,F4 B:B4,F3,G7,G8,G9,H7,H8,H9,I7,I8,I9 g"
TURN = """position %s
wait 1500
lift F4
place D2
wait 1000
lift E2
wait %d
bounce C1
lift D1
wait 1000
say
lift C1
place H5
wait 1500
serial moves
reply ok moves F4-D2@H5
"""


def test_a_chattering_capture_is_neither_taken_off_nor_a_drop(tmp_path):
    p = tmp_path / "chatter.txt"
    phases = range(14)  # (the chatter flips every 7 ms: every phase of both rhythms)
    p.write_text("".join(TURN % (POSITION, k) for k in phases))
    r = subprocess.run([sys.executable, "-m", "simulator", "script", "--game", "browne", str(p)],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    said = [ln for ln in r.stdout.splitlines() if ln.startswith("say: ")]
    assert r.returncode == 0, (r.stderr, said)
    assert len(said) == len(phases)
    for k, line in enumerate(said):
        assert line.startswith("say: Take the blinking captured pieces off (C1), then drop"), (k, line)
