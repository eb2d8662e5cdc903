# The viper loops of the main-loop tick (match_kernels.diff, fastbytes.zero,
# app._copy_if_changed, rp2._chain_sum/_scale_into, scan._integrate) give exactly what their
# plain-Python meaning gives, on both runtimes (on CPython the shim runs the
# viper source as Python; on MicroPython it is machine code).
from triad.board import match_kernels as K
from triad import app
from triad.board import fastbytes
from triad.board import scan
from triad.compat import ticks_add
from triad.boards import pico_v1

FRAME_BYTES = 3 * (pico_v1.N_SITES + pico_v1.N_STATUS)


class Lcg:
    def __init__(self, seed):
        self.s = seed

    def next(self, n):
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.s >> 8) % n


def diff_py(occ, exp, n):
    """The controller's viper _diff in plain Python: the reference."""
    nmiss = nextra = miss = extra = 0
    for i in range(n):
        if occ[i] != exp[i]:
            if exp[i]:
                nmiss = min(255, nmiss + 1)
                miss = i + 1
            else:
                nextra = min(255, nextra + 1)
                extra = i + 1
    return nmiss | (nextra << 8) | (miss << 16) | (extra << 23)


def test_diff_equals_the_plain_loop():
    rng = Lcg(5)
    for k in range(400):
        occ = bytearray(36)
        exp = bytearray(36)
        density = rng.next(4) + 1
        for i in range(36):
            exp[i] = 1 if rng.next(5) < density else 0
            occ[i] = exp[i]
        for _ in range(rng.next(5)):
            i = rng.next(36)
            occ[i] ^= 1
        assert K.diff(occ, exp, 36) == diff_py(occ, exp, 36), (k, occ, exp)
    # Every board's size, aligned and one byte off (the byte loop then),
    # against the byte loop too (diff takes words on MicroPython).
    for n in (36, 61, 109):
        for off in (0, 1):
            for k in range(100):
                occ = bytearray(n + 1)
                exp = bytearray(n + 1)
                for i in range(n + 1):
                    exp[i] = 1 if rng.next(3) == 0 else 0
                    occ[i] = exp[i]
                for _ in range(rng.next(4)):
                    occ[rng.next(n + 1)] ^= 1
                o = memoryview(occ)[off:off + n] if off else occ
                e = memoryview(exp)[off:off + n] if off else exp
                want = diff_py(o, e, n)
                assert K.diff(o, e, n) == want == K.diff_bytes(o, e, n), (n, off, k)
    full = bytearray(b"\x01" * 36)
    empty = bytearray(36)
    assert K.diff(empty, full, 36) == 36 | (36 << 16)
    assert K.diff(full, empty, 36) == (36 << 8) | (36 << 23)
    assert K.diff(full, full, 36) == 0


def test_scan_integrators_equal_the_plain_loop():
    # Every board's matrix size, a shuffled matrix-to-site map, every
    # debounce from 1 to 5 and holds of 0, 5 and 10 ms: 60 readings of
    # random switches, mostly steady, 1 to 10 ms apart on a clock that
    # wraps past the ticks' period, at a running lateness that grows,
    # shrinks (an early scan gives time back) and wraps past it too.
    from array import array

    rng = Lcg(11)
    dated = 0
    waited = 0
    for n in (36, 64, 110):
        for limit in (1, 2, 3, 5):
            for hold in (0, 5, 10):
                if hold > (limit - 1) * 5:
                    continue  # (the scanner's hold: DEBOUNCE readings 5 ms apart)
                cmap = bytearray(range(n))
                for i in range(n - 1, 0, -1):
                    j = rng.next(i + 1)
                    cmap[i], cmap[j] = cmap[j], cmap[i]
                raw = bytearray(n)
                count = [bytearray(n), bytearray(n)]
                stable = [bytearray(n), bytearray(n)]
                since = [array("i", bytes(4 * n)), array("i", bytes(4 * n))]
                began = [array("H", bytes(2 * n)), array("H", bytes(2 * n))]
                lost = (1 << 30) - 150
                now = (1 << 30) - 300
                flips = 0
                for k in range(60):
                    for _ in range(rng.next(6)):
                        raw[rng.next(n)] ^= 1
                    lost = ticks_add(lost, rng.next(41) - 10)
                    now = ticks_add(now, 1 + rng.next(10))
                    a = scan._integrate(raw, count[0], stable[0], cmap, n, limit, since[0], lost, began[0], now, hold)
                    b = scan.integrate_py(raw, count[1], stable[1], cmap, n, limit, since[1], lost, began[1], now, hold)
                    assert a == b and count[0] == count[1] and stable[0] == stable[1], (n, limit, hold, k)
                    assert since[0] == since[1] and began[0] == began[1], (n, limit, hold, k)
                    flips += b >= 0
                    dated += b > 0
                    waited += sum(1 for m in range(n) if 0 < count[1][m] < limit and raw[m] != stable[1][cmap[m]])
                assert flips > 5, (n, limit, hold)  # the stable snapshot did change along the way
    assert dated > 5  # and changes were dated back
    assert waited > 5  # and some waited, mid-way, for their hold


def test_word_loops_equal_the_byte_loops():
    # fastbytes' zero, copy_if_changed and next_diff (four bytes at a time
    # on MicroPython) against their byte loops: every length 0..40 and the
    # frame sizes, buffers aligned and one byte off (memoryview slices: the
    # byte loop then), differences anywhere.
    rng = Lcg(3)
    for n in list(range(41)) + [132, 201, 423]:
        for off in (0, 1, 3):
            for k in range(3):
                a0 = bytearray(n + 8)
                for i in range(n + 8):
                    a0[i] = rng.next(3)
                b0 = bytearray(a0)
                for _ in range(rng.next(3)):
                    b0[rng.next(n + 8)] ^= 1 + rng.next(200)
                a = memoryview(a0)[off:off + n] if off else a0
                b = memoryview(b0)[off:off + n] if off else b0
                c0 = bytearray(b0)
                c = memoryview(c0)[off:off + n] if off else c0
                start = rng.next(n + 1)
                assert fastbytes.next_diff(a, b, start, n) == fastbytes.next_diff_bytes(a, c, start, n), (n, off)
                want = fastbytes.copy_bytes_if_changed(a, c, n)
                assert fastbytes.copy_if_changed(a, b, n) == want, (n, off)
                assert b0 == c0, (n, off)
                assert fastbytes.next_diff(a, b, 0, n) == n
                fastbytes.zero(b, n)
                fastbytes.zero_bytes(c, n)
                assert b0 == c0 and bytes(b0[off:off + n]) == bytes(n), (n, off)


def test_clear_and_copy_if_changed():
    f = bytearray(b"\x07" * FRAME_BYTES)
    fastbytes.zero(f, FRAME_BYTES)
    assert f == bytearray(FRAME_BYTES)
    src = bytearray(FRAME_BYTES)
    dst = bytearray(FRAME_BYTES)
    assert not app._copy_if_changed(src, dst)
    src[FRAME_BYTES - 1] = 9
    src[0] = 3
    assert app._copy_if_changed(src, dst)
    assert dst == src
    assert not app._copy_if_changed(src, dst)


def test_led_scaling_equals_the_plain_formula():
    from triad.drivers import rp2

    rng = Lcg(11)
    chain = bytes([(i * 7) % 44 for i in range(44)])
    for order in ((1, 0, 2, 3), (0, 1, 2, 3), (2, 1, 0, 3)):
        for scale in (0, 1, 64, 128, 191, 192, 255):
            frame = bytearray(132)
            for i in range(132):
                frame[i] = rng.next(256)
            total = 0
            for p in range(44):
                s = chain[p] * 3
                total += frame[s] + frame[s + 1] + frame[s + 2]
            assert rp2._chain_sum(frame, chain, 44) == total
            bpp = 3 if order[0] != 3 else 4
            buf = bytearray(44 * bpp)
            packed = order[0] | (order[1] << 2) | (order[2] << 4)
            rp2._scale_into(buf, frame, chain, 44, bpp, packed, scale)
            want = bytearray(44 * bpp)
            for p in range(44):
                s = chain[p] * 3
                for k in range(3):
                    want[p * bpp + order[k]] = (frame[s + k] * scale) // 255
            assert buf == want, (order, scale)


def test_the_matchers_site_scans_equal_their_plain_meaning():
    rng = Lcg(9)
    for k in range(300):
        n = 36 + rng.next(80)
        occ = bytearray(n)
        exp = bytearray(n)
        vis = bytearray(n)
        for i in range(n):
            occ[i] = exp[i] = rng.next(2)
            if rng.next(20) == 0:
                occ[i] ^= 1
            if rng.next(25) == 0:
                vis[i] = 1
        marked = [i for i in range(n) if vis[i]]
        assert K.only_one(vis, n) == (marked[0] if len(marked) == 1 else -1), (k, marked)
        i = 0
        want = [j for j in range(n) if occ[j] != exp[j] or vis[j]]
        got = []
        while True:
            i = K.next_changed(occ, exp, vis, i, n)
            if i >= n:
                break
            got.append(i)
            i += 1
        assert got == want, k


def _plain(module, name, uses=()):
    """The function `name` of module's source compiled as plain Python
    (its @micropython.viper line dropped, the pointer casts identities):
    the meaning the viper machine code must have."""
    path = module.__file__
    if path.endswith(".mpy") or path.endswith(".pyc"):
        path = path[: path.rfind(".")] + ".py"
    with open(path) as f:
        src = f.read()
    start = src.index("\ndef " + name + "(")
    end = src.find("\n\n\n", start)
    text = src[start + 1 : end if end > 0 else len(src)]
    ns = {}
    # The module's private consts (_LIFT, _W_STEP, ...): MicroPython folds
    # them into the code and keeps no global, so they are read from the text.
    for line in src.split("\n"):
        if line.startswith("_") and " = const(" in line:
            k = line[: line.index(" ")]
            ns[k] = int(line[line.index("const(") + 6 : line.index(")")])
    ns["ptr8"] = ns["ptr32"] = lambda x: x
    ns["int"] = int
    for u in uses:
        ns[u] = _plain(module, u)  # a viper function it calls, plain too
    exec(text, ns)
    return ns[name]


def _both(steps, match):
    """The matcher as the board runs it (matcher.py): _steps, then match
    given what it found."""

    def run(fp, nf, occ, exp, vis, work, ctx, nxt, n, arr, dep):
        return match(fp, nf, occ, exp, vis, work, ctx, nxt, n, steps(fp, nf, occ, exp, vis, work, n, arr, dep))

    return run


def _random_footprint(rng, fp, n):
    nf = rng.next(7) + 1
    for j in range(nf):
        s = rng.next(n)
        act = rng.next(3)
        role = rng.next(4) + (16 if rng.next(2) else 0)
        fp[j] = s | (act << 8) | (role << 10)
    if rng.next(4) == 0:
        fp[nf - 1] = 255 | (1 << 8) | (17 << 10)  # a free drop
    return nf


def test_matcher_equals_its_plain_meaning():
    # The per-move matcher (_match, _free_extra) runs as viper on the board;
    # its plain source must say the same on random footprints, boards,
    # visits, picked outcomes and differences to explain.
    from array import array

    match_py = _both(_plain(K, "_steps"), _plain(K, "match"))
    free_py = _plain(K, "free_extra")
    rng = Lcg(11)
    n = 12
    fp = array("i", bytes(4 * 32))
    kinds = {}
    for k in range(1500):
        nf = _random_footprint(rng, fp, n)
        occ = bytearray(n)
        exp = bytearray(n)
        vis = bytearray(n)
        for i in range(n):
            exp[i] = rng.next(2)
            occ[i] = exp[i] if rng.next(3) else exp[i] ^ 1
            vis[i] = 1 if occ[i] != exp[i] or rng.next(6) == 0 else 0
        # When each site filled and emptied this turn (the order of events).
        # (stamps are ms: spread some turns out past a slide's time, so the
        # late-source and slide-capture windows are crossed both ways)
        arr = array("i", bytes(8 * n))
        dep = array("i", bytes(8 * n))
        scale = 23 if k % 3 == 2 else 1
        for i in range(n):
            if vis[i]:
                arr[i] = rng.next(8)
                dep[i] = rng.next(8)
                arr[n + i] = rng.next(arr[i] + 1)  # (the first time: no later)
                dep[n + i] = rng.next(dep[i] + 1)
        for i in range(2 * n):
            arr[i] *= scale
            dep[i] *= scale
        n_diff = 0
        for i in range(n):
            if occ[i] != exp[i]:
                n_diff += 1
        if rng.next(4) == 0:
            n_diff = rng.next(4)  # a board some moves cannot explain
        fixed = rng.next(n) if rng.next(3) == 0 else 255
        only = rng.next(n + 1) - 1 if rng.next(2) else -1
        ctx = fixed | ((rng.next(4) + 16) << 8) | (n_diff << 16) | ((only + 1) << 23)
        assert K.free_extra(occ, exp, vis, fp, nf - 1, n, arr, dep) == free_py(
            occ, exp, vis, fp, nf - 1, n, arr, dep), k
        w1 = bytearray(K.WORK_SIZE)
        w2 = bytearray(K.WORK_SIZE)
        nxt1 = bytearray(n)
        nxt2 = bytearray(n)
        got = _both(K._steps, K.match)(fp, nf, occ, exp, vis, w1, ctx, nxt1, n, arr, dep)
        want = match_py(fp, nf, occ, exp, vis, w2, ctx, nxt2, n, arr, dep)
        assert got == want, (k, got, want)
        assert w1 == w2 and nxt1 == nxt2, (k, list(fp)[:nf], w1, w2, nxt1, nxt2)
        kinds[got & 255] = 1
    # The random boards reach every verdict: none, candidate, under way,
    # complete.
    assert 0 in kinds and 1 in kinds and len(kinds) >= 5, sorted(kinds)



def _may_begin(steps, site):
    # Where a move may begin (issue 35): its first step's site; when it
    # begins with the lift of a piece that moves (ROLE_SOURCE 1), at any
    # such lift (Cornelson's jewels in a turn without a gem).
    if not steps:
        return False
    if steps[0][0] == site:
        return True
    if steps[0][1:] != (0, 1):
        return False
    return any(s == site and (a, r) == (0, 1) for s, a, r in steps)


def test_where_a_move_may_begin_equals_its_plain_meaning():
    # begins (which moves a site's list holds) and begun_before (a move in
    # several sites' lists is matched once, at the first that changed) run
    # as viper on the tick; their plain source and the meaning above say
    # the same on random footprints and boards.
    from array import array

    begins_py = _plain(K, "begins")
    before_py = _plain(K, "begun_before")
    rng = Lcg(13)
    n = 12
    fp = array("i", bytes(4 * 32))
    seen = {}
    for k in range(1500):
        nf = _random_footprint(rng, fp, n) if rng.next(5) else 0
        if nf and rng.next(2):
            fp[0] = (fp[0] & 255) | (1 << 10)  # a lift of a piece that moves first
            for j in range(1, nf):
                if rng.next(2) and fp[j] & 255 != 255:
                    fp[j] = (fp[j] & 255) | (1 << 10)  # ... and more of them
        steps = [(fp[j] & 255, (fp[j] >> 8) & 3, fp[j] >> 10) for j in range(nf)]
        occ = bytearray(n)
        exp = bytearray(n)
        vis = bytearray(n)
        for i in range(n):
            exp[i] = rng.next(2)
            occ[i] = exp[i] if rng.next(3) else exp[i] ^ 1
            vis[i] = 1 if rng.next(6) == 0 else 0
        for site in range(n):
            want = _may_begin(steps, site)
            assert K.begins(fp, nf, site) == begins_py(fp, nf, site) == (1 if want else 0), (k, steps, site)
            changed = [s for s in range(site) if (occ[s] != exp[s] or vis[s]) and _may_begin(steps, s)]
            # (a move that begins at its first step's site only is listed
            # at one site: never matched before)
            want = 1 if changed and steps[0][1:] == (0, 1) else 0
            got = K.begun_before(fp, nf, occ, exp, vis, site)
            assert got == before_py(fp, nf, occ, exp, vis, site) == want, (k, steps, site)
            seen[(want, _may_begin(steps, site))] = 1
    assert len(seen) == 4, sorted(seen)  # (each verdict reached)

def test_matcher_times_a_slide_against_a_capture():
    # A move lifts u, lands on s and takes c off (a Nehren capture); c's
    # piece could as well have slid to s. The stamps are ms: the reading
    # stands only while the times say a person made it (the source left
    # before the landing, or within a slide's time after it; the capture
    # not as the landing came), on viper and its plain meaning alike.
    from array import array

    from triad.games import LIFT, PLACE, ROLE_SOURCE, ROLE_REMOVE

    match_py = _both(_plain(K, "_steps"), _plain(K, "match"))
    n = 6
    u, s, c = 1, 2, 3
    fp = array("i", [u | (LIFT << 8) | (ROLE_SOURCE << 10), s | (PLACE << 8) | (17 << 10),
                     c | (LIFT << 8) | (ROLE_REMOVE << 10)] + [0] * 29)
    exp = bytearray([0, 1, 0, 1, 0, 0])
    occ = bytearray([0, 0, 1, 0, 0, 0])
    vis = bytearray([0, 1, 1, 1, 0, 0])
    ctx = 255 | (3 << 16)

    def verdict(t_source, t_land, t_capture):
        arr = array("i", bytes(8 * n))
        dep = array("i", bytes(8 * n))
        arr[s] = arr[n + s] = t_land
        dep[u] = dep[n + u] = t_source
        dep[c] = dep[n + c] = t_capture
        got = []
        for f in (_both(K._steps, K.match), match_py):
            work = bytearray(K.WORK_SIZE)
            nxt = bytearray(n)
            got.append((f(fp, 3, occ, exp, vis, work, ctx, nxt, n, arr, dep) & 255, bytes(work), bytes(nxt)))
        assert got[0] == got[1], (t_source, t_land, t_capture)
        return got[0][0]

    full = verdict(1, 500, 800)  # lift, place, a pause, the capture
    assert full & 4
    assert verdict(1, 500, 520) == 0  # the capture went as the piece landed: its slide
    assert verdict(1, 500, 500) == 0  # ... in the same scan
    assert verdict(520, 500, 1) == full  # the source a scan or two late: a slide
    assert verdict(600, 500, 1) == 0  # 0.1 s late: it stood there as the piece landed


def test_paint_where_equals_the_plain_loop():
    seed = 5
    for trial in range(30):
        n = 1 + trial * 4
        frame = bytearray(3 * n + 6)
        src = bytearray(3 * n)
        mask = bytearray(n)
        occ = bytearray(n)
        for i in range(3 * n):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            src[i] = seed & 255
            frame[i] = (seed >> 8) & 255
        for i in range(n):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            mask[i] = (seed >> 3) % 3  # 0, 1 or 2: any set value counts
            occ[i] = (seed >> 9) & 1
        want = bytearray(frame)
        for i in range(n):
            if mask[i] and not occ[i]:
                want[3 * i:3 * i + 3] = src[3 * i:3 * i + 3]
        fastbytes.paint_where(frame, src, mask, occ, n)
        assert frame == want, trial


def test_stamps_equal_their_plain_meaning():
    # The order of events (_stamp): each changed site gets the turn's next
    # count, one count per scan, as filled or emptied.
    from array import array

    stamp_py = _plain(K, "stamp")
    rng = Lcg(5)
    n = 20
    a1 = array("i", bytes(8 * n))
    d1 = array("i", bytes(8 * n))
    a2 = array("i", bytes(8 * n))
    d2 = array("i", bytes(8 * n))
    p1 = bytearray(n)
    p2 = bytearray(n)
    s1 = s2 = 0
    for k in range(300):
        occ = bytearray(n)
        for i in range(n):
            occ[i] = rng.next(2) if rng.next(4) == 0 else p1[i]
        s1 = K.stamp(occ, p1, a1, d1, s1, n)
        s2 = stamp_py(occ, p2, a2, d2, s2, n)
        assert (s1, p1, a1, d1) == (s2, p2, a2, d2), k
        for i in range(n):
            # the first time this turn: never after the last, set with it
            assert d1[n + i] <= d1[i] and (d1[n + i] == 0) == (d1[i] == 0), k
            assert a1[n + i] <= a1[i] and (a1[n + i] == 0) == (a1[i] == 0), k
        assert p1 == occ
    assert s1 > 0 and (max(a1) == s1 or max(d1) == s1)


def _think_loop(sites, frame, now):
    # The thinking light as the loop over every site drew it (the reference).
    from triad.board import palette as pal

    k = len(sites)
    ring = k if k > 2 else 3
    head = (now // pal.THINK_STEP_MS) % ring
    tail = (head + ring - 1) % ring
    for i in range(k):
        j = 3 * sites[i]
        if i == head:
            rgb = pal.THINK
            frame[j], frame[j + 1], frame[j + 2] = rgb[0], rgb[1], rgb[2]
        elif i == tail:
            rgb = pal.THINK
            frame[j], frame[j + 1], frame[j + 2] = rgb[0] * 64 // 255, rgb[1] * 64 // 255, rgb[2] * 64 // 255


def test_thinking_light_equals_the_loop_over_the_sites():
    from triad.board import lights

    rng = Lcg(9)
    for k in range(1, 9):
        for _ in range(4):
            # (sites may repeat: a small board's ring of one or two)
            sites = bytes(rng.next(20) for _ in range(k))
            for step in range(12):
                now = step * 200 + rng.next(200)
                a = bytearray(60)
                b = bytearray(60)
                lights._render_think(sites, a, now)
                _think_loop(sites, b, now)
                assert a == b, (sites, now)
