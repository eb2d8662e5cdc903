# Text notation of Cornelson's TRIAD (the contract of issue 14):
#   position: <posts> <south jewels> <north jewels> <side> <south tally> <north tally>
#     posts:  the 7 post rows G down to A separated by '/', each '.', 's', 'n'
#     jewels: 'S:'/'N:' + comma list of spaces (a portal reached by transfer
#             carries '!'), or 'S:-' / 'N:-'; any order is read
#   turn:     <post or -> <step> <step> ..., a step <from>-<to>, in an
#             executable order: "D4 S1-a2 S2-a4 S3-a6", a transfer "P1-P9"
#             (our extension, the forfeit rule 3.1: "D3!1 S1-a2 ..." made
#             only the first 1 capture of D3's chain; docs/cornelson.md)
# The mode is not part of the text: parse_position(text, mode).
from array import array

from triad.games.cornelson import core
from triad.games.cornelson import geometry as g

START = "..../...../....../......./....../...../.... S:S1,S2,S3 N:N1,N2,N3 s 0 0"
SIDES = "sn"
GEMS = ".sn"


class NotationError(ValueError):
    pass


def mode_rules(mode):
    """Position.mode (rule bits) for a mode name or its index in MODE_NAMES."""
    if isinstance(mode, int) and 0 <= mode < 4:
        return core.MODE_VALUES[mode]
    for i in range(4):
        if core.MODE_NAMES[i] == mode:
            return core.MODE_VALUES[i]
    raise NotationError("unknown mode %r: expected standard, breach, trap or capture" % (mode,))


def _parse_tally(text, who):
    if not text or len(text) > 4 or not all(c in "0123456789" for c in text):
        raise NotationError("bad tally %r for %s: expected a whole number" % (text, who))
    return int(text)


def _parse_jewels(pos, text, side):
    letter = "SN"[side]
    if not text.startswith(letter + ":"):
        raise NotationError("%s jewels must start with %r, got %r" % (("South's", "North's")[side], letter + ":", text))
    body = text[2:]
    if body == "-":
        return
    if not body:
        raise NotationError("empty jewel list %r: write %s:- for none" % (text, letter))
    names = body.split(",")
    if len(names) > 3:
        raise NotationError("%s has %d jewels, at most 3" % (("South", "North")[side], len(names)))
    for k in range(len(names)):
        name = names[k]
        flag = 0
        if name.endswith("!"):
            name = name[:-1]
            flag = 1
        s = g.space_index(name)
        if s < 0:
            raise NotationError("unknown space %r in %r" % (names[k], text))
        if flag and s < g.FIRST_PORTAL:
            raise NotationError("%r: only a portal can carry '!'" % names[k])
        if pos.occ[s]:
            raise NotationError("two jewels on %s" % name)
        pos.put_jewel(side * 3 + k, s, flag)


def parse_position(text, mode="standard"):
    """Parse a position; NotationError with a clear message on bad input,
    nothing else raised."""
    if not isinstance(text, str):
        raise NotationError("position must be text")
    m = mode_rules(mode)
    fields = text.split()
    if len(fields) != 6:
        raise NotationError(
            "position needs 6 fields (posts, South's jewels, North's jewels, side, "
            "South's and North's tallies), got %d" % len(fields)
        )
    rows = fields[0].split("/")
    if len(rows) != 7:
        raise NotationError("posts need 7 rows (G down to A) separated by '/', got %d" % len(rows))
    pos = core.Position()
    pos.mode = m
    for i in range(7):
        y = 6 - i
        row = rows[i]
        if len(row) != g.ROW_LEN[y]:
            raise NotationError(
                "row %s has %d posts, expected %d" % (g.ROW_LETTERS[y], len(row), g.ROW_LEN[y])
            )
        first = g.post_index(g.ROW_LETTERS[y] + "1")
        for k in range(len(row)):
            v = GEMS.find(row[k])
            if v < 0:
                raise NotationError("row %s: unexpected %r (expected '.', 's' or 'n')" % (g.ROW_LETTERS[y], row[k]))
            if v:
                pos.set_post(first + k, v)
    _parse_jewels(pos, fields[1], 0)
    _parse_jewels(pos, fields[2], 1)
    if fields[3] not in ("s", "n"):
        raise NotationError("side to move must be 's' or 'n', got %r" % fields[3])
    pos.side = SIDES.index(fields[3])
    pos.tally[0] = _parse_tally(fields[4], "South")
    pos.tally[1] = _parse_tally(fields[5], "North")
    if m & core.RULE_CAPTURE and min(pos.tally) >= core.WIN_TALLY:
        raise NotationError("both tallies reach %d: only one side can win by Capture" % core.WIN_TALLY)
    won = 0
    for slot in range(6):
        s = pos.jewel[slot]
        if s != core.NONE and g.DOCK_OWNER[s] == 2 - slot // 3:
            won |= 1 << (slot // 3)
    if won == 3:
        raise NotationError("jewels of both sides stand on opponent docks")
    pos.derive_result()
    return pos


def _jewel_text(pos, side):
    spaces = []
    for k in range(3):
        s = pos.jewel[side * 3 + k]
        if s != core.NONE:
            spaces.append((s, pos.flags[side * 3 + k]))
    if not spaces:
        return "SN"[side] + ":-"
    spaces.sort()
    return "SN"[side] + ":" + ",".join(g.SPACE_NAMES[s] + ("!" if f else "") for s, f in spaces)


def format_position(pos):
    rows = []
    for y in range(6, -1, -1):
        first = g.post_index(g.ROW_LETTERS[y] + "1")
        rows.append("".join(GEMS[pos.posts[first + k]] for k in range(g.ROW_LEN[y])))
    return "%s %s %s %s %d %d" % (
        "/".join(rows),
        _jewel_text(pos, 0),
        _jewel_text(pos, 1),
        SIDES[pos.side],
        pos.tally[0],
        pos.tally[1],
    )


def format_move(pos, m):
    """Text of turn m played from pos (the position before it)."""
    p = m & 63
    head = g.POST_NAMES[p] if p != core.NO_POST else "-"
    keep = (m >> core.KEEP_SHIFT) & 63
    if keep:
        head += "!%d" % (keep - 1)  # a forfeit turn (rule 3.1)
    out = [head]
    base = pos.side * 3
    for i in range(core.n_steps(m)):
        c = core.step_code(m, i)
        s = pos.jewel[base + (c & 3)]
        t = g.EXIT_TO[s * 3 + (c >> 2)]
        out.append(g.SPACE_NAMES[s] + "-" + g.SPACE_NAMES[t])
    return " ".join(out)


def parse_move_syntax(text):
    """(post or NO_POST, [(from space, to space), ...]); NotationError on bad
    syntax. A placement with a forfeit ("D3!1") is read by parse_move."""
    if not isinstance(text, str):
        raise NotationError("turn must be text")
    parts = text.split()
    if not parts:
        raise NotationError("empty turn: expected '<post or -> <step> ...'")
    if parts[0] == "-":
        post = core.NO_POST
    else:
        post = g.post_index(parts[0])
        if post < 0:
            raise NotationError("bad post %r: expected A1..G4 or '-'" % parts[0])
    steps = []
    for t in parts[1:]:
        ends = t.split("-")
        if len(ends) != 2:
            raise NotationError("bad step %r: expected <from>-<to> like S1-a2" % t)
        a = g.space_index(ends[0])
        b = g.space_index(ends[1])
        if a < 0 or b < 0:
            raise NotationError("bad step %r: unknown space %r" % (t, ends[0] if a < 0 else ends[1]))
        steps.append((a, b))
    if len(steps) > 3:
        raise NotationError("a turn has at most 3 jewel steps, got %d" % len(steps))
    return post, steps


def parse_move(pos, text):
    """The legal turn of pos written as text (steps in any executable
    order); NotationError if malformed or not legal here."""
    kept = -1
    head = text.split()[0] if isinstance(text, str) and text.split() else ""
    if "!" in head:
        # A forfeit turn (rule 3.1): the placement keeps only the first
        # `kept` captures of its chain.
        name, k = (head.split("!") + [""])[:2]
        if head.count("!") != 1 or not k.isdigit() or len(k) > 2:
            raise NotationError("bad forfeit %r: expected <post>!<captures kept> like D3!1" % head)
        kept = int(k)
        text = name + text.strip()[len(head):]
    post, steps = parse_move_syntax(text)
    if kept >= 0:
        return _parse_forfeit(pos, text, post, kept, steps)
    return _find(pos, text, post, steps, pos.legal_moves())


def _parse_forfeit(pos, text, post, kept, steps):
    if post == core.NO_POST or pos.posts[post]:
        raise NotationError("a forfeit %r needs a vacant post" % text.strip())
    if pos.result != -1:
        raise NotationError("illegal turn %r: the game is over" % text.strip())
    # Fewer captures kept than the chain has: otherwise it is the plain turn.
    q = pos._q
    cnt = pos._place(post, q, 0)
    pos._unplace(q, 0, cnt)
    if kept >= cnt - 1:
        raise NotationError(
            "%r keeps %d captures; the chain of %s has %d: write the plain turn"
            % (text.strip(), kept, g.POST_NAMES[post], cnt - 1)
        )
    buf = array("i", bytes(4 * core.MAX_SETS))
    n = pos.gen_forfeit(buf, 0, post, kept)
    return _find(pos, text, post, steps, [buf[i] for i in range(n)])


def _find(pos, text, post, steps, moves):
    """The turn among moves with this placement and step set."""
    here = [pos.jewel[i] for i in range(6)]
    for a, b in steps:
        if a not in here:
            raise NotationError("no jewel on %s in %r" % (g.SPACE_NAMES[a], text.strip()))
        if b in here:
            raise NotationError(
                "%s-%s in %r: %s is still occupied at that point"
                % (g.SPACE_NAMES[a], g.SPACE_NAMES[b], text.strip(), g.SPACE_NAMES[b])
            )
        here[here.index(a)] = b
    want = sorted(steps)
    base = pos.side * 3
    for m in moves:
        if m & 63 != post or core.n_steps(m) != len(steps):
            continue
        got = []
        for i in range(core.n_steps(m)):
            c = core.step_code(m, i)
            s = pos.jewel[base + (c & 3)]
            got.append((s, g.EXIT_TO[s * 3 + (c >> 2)]))
        got.sort()
        if got == want:
            return m
    raise NotationError("illegal turn %r in this position" % text.strip())
