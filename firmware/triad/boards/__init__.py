# The one place that picks the board. Everything else asks for `ACTIVE`
# (a module of plain data) so a second PCB revision or another game's board
# is a new file next to pico_v1.py plus a changed import here.
from triad.boards import pico_v1 as ACTIVE  # noqa: F401
