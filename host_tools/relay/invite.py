"""How an invitation's command lines start (issue 43): this Python by its
full path and the project's tool by its folder, so that each line runs as
printed from any folder (a copied `python -m host_tools ...` failed outside
the project's folder and venv: No module named 'websockets')."""
import os
import shlex
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def tool(name="host_tools"):
    """The start of a command line that runs the project's `name`
    (host_tools, simulator) from any folder."""
    return "%s %s" % (shlex.quote(sys.executable), shlex.quote(os.path.join(ROOT, name)))
