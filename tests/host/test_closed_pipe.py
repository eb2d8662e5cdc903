"""The command-line tools end quietly when the reader of their output has
gone, as Unix tools do (`python -m host_tools moves ... | head`): exit 0 or
141 (the shell's status for SIGPIPE), nothing on stderr (issue 34)."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORNELSON_START = "..../...../....../......./....../...../.... S:S1,S2,S3 N:N1,N2,N3 s 0 0"


def _into_a_closed_pipe(args):
    # The reader is gone before the tool writes a byte: every write fails,
    # not only the ones after `head` happened to exit (no race).
    r, w = os.pipe()
    os.close(r)
    try:
        return subprocess.run([sys.executable] + args, stdout=w, stderr=subprocess.PIPE,
                              cwd=ROOT, timeout=120)
    finally:
        os.close(w)


@pytest.mark.parametrize("args", [
    ["-m", "host_tools", "moves", "--game", "cornelson", CORNELSON_START],
    ["-m", "host_tools", "perft", "--game", "nehren", "--divide",
     "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0", "2"],
    ["-m", "simulator", "script", "tests/scripts/01_simple_move.txt"],
])
def test_a_closed_pipe_ends_the_tool_quietly(args):
    p = _into_a_closed_pipe(args)
    assert p.returncode in (0, 141), p.stderr.decode()
    assert p.stderr == b""


def test_a_real_error_still_says_so():
    # Quiet only about the closed pipe: a bad position is still reported.
    p = _into_a_closed_pipe(["-m", "host_tools", "moves", "--game", "cornelson", "nonsense"])
    assert p.returncode not in (0, 141)
    assert b"bad position" in p.stderr
