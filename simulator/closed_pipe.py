"""A command-line tool ends quietly when its reader has gone (`... | head`).

Python ignores SIGPIPE, so a print into a pipe whose reader closed raises
BrokenPipeError and the tool ended in a traceback. Unix tools end silently
with the shell's status for SIGPIPE instead; so do ours. Only a broken
standard output is treated so: a BrokenPipeError from anything else (a
board's socket, a relay) is a real error and propagates.
"""
import os
import select
import sys

SIGPIPE_STATUS = 141  # 128 + SIGPIPE (13): what the shell reports for `yes | head`


def stdout_gone():
    """True when standard output is a pipe or socket whose reader has closed."""
    try:
        fd = sys.stdout.fileno()
        p = select.poll()
        p.register(fd, select.POLLOUT)
        return any(ev & (select.POLLERR | select.POLLHUP) for _, ev in p.poll(0))
    except (OSError, ValueError, AttributeError):
        return False


def run(main, argv=None):
    """main(argv)'s status; SIGPIPE_STATUS, without a traceback, when the
    reader of standard output went away."""
    try:
        rc = main(argv)
        sys.stdout.flush()  # the last lines are written here, not at exit
        return rc
    except BrokenPipeError:
        if not stdout_gone():
            raise
        # Python flushes stdout again at exit and would print "Exception
        # ignored ... BrokenPipeError": point the descriptor at /dev/null.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return SIGPIPE_STATUS
