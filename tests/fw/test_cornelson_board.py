# Cornelson's TRIAD on the generic controller and the tri_v1 board: a gem
# placed on a post, each captured gem swapped (lifted and put back as the
# capturer's), the jewels stepped in any order; errors as everywhere.
# CPython and MicroPython.
from triad.board import controller as C
from triad.board import palette as pal
from triad.boards import tri_v1
from triad.games import load
from siterig import SiteRig

G = load("cornelson")
N = G.N_SITES
EMPTY = "..../...../....../......./....../...../...."


def site(name):
    return G.site_index(name)


class Rig(SiteRig):
    def __init__(self, position):
        SiteRig.__init__(self, G, tri_v1, position)

    def step(self, fr, to, ms=100):
        self.set(fr, 0, ms)
        self.set(to, 1, ms)


def test_first_turn_gem_then_jewels_in_any_order():
    rig = Rig(G.START)
    assert rig.ctl.state == C.PLAY
    rig.set("D4", 1, 1000)  # South's gem
    assert rig.ctl.state == C.FINISH
    assert rig.ctl.moves_text() == ""
    # The jewels still to move show their docks; S3 goes first.
    rig.step("S3", "a6")
    rig.step("S1", "a2")
    assert rig.ctl.moves_text() == ""
    rig.step("S2", "a4", 1000)
    assert rig.ctl.moves_text() == "D4 S1-a2 S2-a4 S3-a6"
    assert rig.ctl.pos.side == 1


def test_a_captured_gem_is_swapped_before_the_turn_commits():
    pos = "..../...../....../sn...../....../...../.... S:S1,S2,S3 N:N1,N2,N3 s 0 0"
    rig = Rig(pos)
    rig.set("D3", 1, 1000)  # brackets North's D2 between D1 and D3
    assert rig.ctl.state == C.FINISH
    assert rig.ctl.nxt[site("D2")]  # the gem to swap is lit
    for fr, to in (("S1", "a2"), ("S2", "a4"), ("S3", "a6")):
        rig.step(fr, to)
    rig.wait(1000)
    assert rig.ctl.moves_text() == ""  # the swap is still owed
    rig.set("D2", 0, 200)  # North's gem off ...
    rig.set("D2", 1, 1000)  # ... South's gem on
    assert rig.ctl.moves_text() == "D3 S1-a2 S2-a4 S3-a6"
    assert rig.ctl.pos.posts[site("D2")] == 1  # South's now
    assert G.score(rig.ctl.pos, 0) == 1


def test_a_jewel_on_a_wrong_space_is_an_error():
    rig = Rig(G.START)
    rig.set("D4", 1, 1000)
    rig.step("S1", "a3", 2000)  # a3 is no step of S1
    assert rig.ctl.moves_text() == "" and rig.ctl.errors >= 1
