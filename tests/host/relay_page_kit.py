"""The relay's page as a person plays it (issue 43): a seat's link opened,
a turn made by clicking its spots in the order its notation names them."""
from browser_kit import WAIT_MS


def base(relay_url):
    return relay_url.replace("ws://", "http://").rsplit("/", 1)[0]


def seat_url(relay_url, room, token):
    """The seat's link as the contract writes it: the token in the fragment."""
    return "%s/?room=%s#token=%s" % (base(relay_url), room, token)


def open_seat(browser, relay_url, room, token=None, width=1280, height=860):
    pg = browser.new_page(viewport={"width": width, "height": height})
    pg.set_default_timeout(WAIT_MS)
    pg.goto(seat_url(relay_url, room, token) if token else "%s/?room=%s" % (base(relay_url), room))
    pg.wait_for_function("() => document.querySelectorAll('#board [data-spot]').length > 0 && window.triadRelay?.view")
    return pg


def spots_of(face, text):
    """The spots a move's text names, in its order (the longest name at each place)."""
    names = sorted(face.SITE_NAMES, key=len, reverse=True)
    out, k = [], 0
    while k < len(text):
        hit = next((n for n in names if text.startswith(n, k)), None)
        if hit:
            out.append(hit)
            k += len(hit)
        else:
            k += 1
    return out


def wait_my_turn(pg, ply):
    """The page's seat to move at ply (the room has ply moves)."""
    pg.wait_for_function("p => { const t = window.triadRelay?.told; return t && t.ply === p && t.legal && "
                         "t.to_move !== null; }", arg=ply)


def click_turn(pg, face, text):
    """Move `text` made by clicks: each of its spots in notation order, and
    where several moves share those spots, the choice that names it."""
    spots = spots_of(face, text)
    for s in spots:
        pg.click('#board [data-spot="%s"]' % s)
    if pg.is_visible('#choice [data-move="%s"]' % text):
        pg.click('#choice [data-move="%s"]' % text)
    return spots


def piece_at(pg, spot):
    return pg.get_attribute('#board [data-spot="%s"]' % spot, "data-piece")


def wait_shown(pg, ply, dest):
    """The page shows move `ply`: a piece on its destination, the words name it."""
    pg.wait_for_function(
        """([p, d]) => { const v = window.triadRelay?.view; const e = document.querySelector(`#board [data-spot="${d}"]`);
             return v && v.ply === p && e.dataset.piece !== '' && document.querySelector('#last').textContent.includes(d); }""",
        arg=[ply, dest])


def key_turn(pg, face, text):
    """Move `text` made by the keyboard alone: the board focused, the arrow
    keys walk the cursor to each of its spots in notation order, Enter
    clicks each; a short choice, if any, by Tab and Enter."""
    spots = spots_of(face, text)
    pg.focus("#board")
    for s in spots:
        for key in ("ArrowRight", "ArrowLeft"):
            # (right to the end, then left: the cursor's order is the page's)
            seen = None
            for _ in range(len(face.SITE_NAMES) + 1):
                at = _cursor(pg)
                if at == s or (at is not None and at == seen):
                    break
                seen = at
                pg.keyboard.press(key)
            if _cursor(pg) == s:
                break
        assert _cursor(pg) == s, (s, _cursor(pg))
        pg.keyboard.press("Enter")
    if pg.is_visible('#choice [data-move="%s"]' % text):
        pg.focus('#choice [data-move="%s"]' % text)
        pg.keyboard.press("Enter")
    return spots


def _cursor(pg):
    """The spot under the keyboard's cursor (None before the first key)."""
    return pg.evaluate("() => { const id = document.querySelector('#board').getAttribute('aria-activedescendant');"
                       " const e = id && document.getElementById(id); return e ? e.dataset.spot : null; }")


def wait_held(pg, ply, face, pos):
    """The page shows move `ply` and its board holds a piece on exactly the
    spots that hold one in `pos` (a Triad's removal may empty the very spot
    a die was put on)."""
    held = sorted(face.SITE_NAMES[i] for i in range(face.N_SITES) if face.owner(pos, i) >= 0)
    pg.wait_for_function(
        """([p, want]) => { const v = window.triadRelay?.view;
             const got = [...document.querySelectorAll('#board [data-spot]')].filter(e => e.dataset.piece)
               .map(e => e.dataset.spot).sort();
             return v && v.ply === p && JSON.stringify(got) === JSON.stringify(want); }""",
        arg=[ply, held])
