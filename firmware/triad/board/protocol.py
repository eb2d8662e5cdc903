# The board's line protocol over USB serial (version 1). Lines are ASCII,
# at most MAX_LINE bytes, ending in "\n". The host sends commands; the board
# answers each with one line starting "ok " or "err ", and reports what
# happens on the board as lines starting "evt ". See docs/protocol.md.
from triad import VERSION
from triad.compat import const
from triad.games.nehren import notation

PROTOCOL_VERSION = const(1)
MAX_LINE = const(200)


class Protocol:
    def __init__(self, controller, write):
        self.ctl = controller
        self.write = write  # write(text) sends one whole line (with "\n")
        self.line = bytearray(MAX_LINE)
        self.n = 0
        self.overflow = False

    # Events from the controller go out as they happen.
    def event(self, kind, text):
        self.write("evt " + kind + " " + text + "\n")

    def feed(self, data):
        """Take received bytes; complete lines are executed. Never raises."""
        for b in data:
            if b == 10 or b == 13:
                if self.overflow:
                    self.write("err too-long line longer than %d bytes\n" % MAX_LINE)
                elif self.n:
                    self._line()
                self.n = 0
                self.overflow = False
            elif self.overflow:
                continue
            elif self.n >= MAX_LINE:
                self.overflow = True
            else:
                self.line[self.n] = b
                self.n += 1

    def _line(self):
        raw = bytes(self.line[: self.n])
        try:
            text = raw.decode()
        except UnicodeError:
            self.write("err encoding line is not ASCII/UTF-8\n")
            return
        for ch in text:
            if ord(ch) < 32 or ord(ch) > 126:
                self.write("err encoding only printable ASCII is accepted\n")
                return
        try:
            self.write(self.execute(text.strip()) + "\n")
        except Exception as e:  # a bug must not take the board down
            self.write("err internal %s\n" % type(e).__name__)

    def execute(self, text):
        ctl = self.ctl
        parts = text.split(None, 1)
        if not parts:
            return "err empty"
        cmd = parts[0]
        arg = parts[1] if len(parts) > 1 else ""
        if cmd == "hello":
            return "ok hello triad-board %s proto %d game nehren" % (VERSION, PROTOCOL_VERSION)
        if cmd == "state":
            return "ok state %s %s" % (ctl.state_name(), ctl.position_text())
        if cmd == "moves":
            return ("ok moves " + ctl.moves_text()).rstrip()
        if cmd == "start":
            return "ok start %s" % ctl.start_text
        if cmd == "position":
            try:
                ctl.start_position(arg)
            except notation.NotationError as e:
                return "err notation " + str(e)
            return "ok position"
        if cmd == "new":
            if arg:
                return "err usage new takes no argument"
            ctl.new_game()
            return "ok new"
        return "err unknown-command " + cmd[:20]
