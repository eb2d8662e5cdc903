"""Issue 35: the page's words come from the board's one diagnosis. Run per
game in a subprocess (the simulator picks its board at import)."""
import os
import subprocess
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def _frames(game, script):
    """Run script (the script contract's lines) on game's simulated board and
    return the page's frame after each `say` line, as JSON."""
    code = textwrap.dedent('''
        import json, sys
        from simulator.script import parse, run, PageView
        from simulator.sim import Simulation
        from simulator.frame import frame
        sim = Simulation(seed=1)
        sim.boot()
        frames = []
        page = PageView(sim)
        orig = page.say
        def say():
            line = orig()
            frames.append(frame(page))
            return line
        page.say = say
        import simulator.script as S
        S.PageView = lambda s: page
        run(sim, parse(sys.stdin.read()), out=lambda line: None)
        sim.shutdown()
        print(json.dumps([{k: f[k] for k in ("state", "state_label", "moves", "move_notes", "say", "say_fault",
                                               "fix_record", "names", "hint_words")} for f in frames]))
    ''')
    env = dict(os.environ)
    env.pop("TRIAD_SIM_BOARD", None)
    from simulator.choice import board_for_game

    env["TRIAD_SIM_BOARD"] = board_for_game(game)
    r = subprocess.run([sys.executable, "-c", code], input=script, cwd=ROOT, capture_output=True, text=True,
                       timeout=300, env=env)
    assert r.returncode == 0, r.stderr[-3000:]
    import json

    return json.loads(r.stdout.strip().splitlines()[-1])


START = "..../...../....../......./....../...../.... S:S1,S2,S3 N:N1,N2,N3 s 0 0"


def test_cornelson_a_gem_that_captures_nothing_is_no_swap():
    # Defect 9: "board state: swap" showed for a gem that captured nothing.
    f = _frames("cornelson", "position %s\nplace D4\nwait 1000\nsay\n" % START)[0]
    assert f["state"] == "swap"  # (the board's own phase name, on the wire)
    assert f["state_label"] == "steps"
    assert "Swap" not in f["say"]


def test_cornelson_a_gem_that_captures_is_a_swap_and_a_forfeit_is_noted_in_the_move_list():
    script = ("serial set mode trap\nposition ..../...../....../......./ns..../...../.... S:S1,S2,S3 N:c5,N2,N3 n 0 0\n"
              "place C3\nwait 1000\nsay\nlift c5\nplace c4\nlift N2\nplace f4\nwait 300\nlift N3\nplace f6\n"
              "wait 1500\nsay\n")
    f1, f2 = _frames("cornelson", script)
    assert f1["state_label"] == "swap"
    assert f2["moves"] == ["C3!0 c5-c4 N2-f4 N3-f6"]
    assert "rule 3.1" in f2["move_notes"][0] and "C3" in f2["move_notes"][0]


def test_the_fault_words_name_what_blinks_and_nothing_else():
    # Browne, defect 3: the words named E3 (put back, right) while H6 blinked.
    script = ("position R:C1,D1,D2,E1,E2,E3,F2,F3,G3 G:A3,A4,A5,B4,B5,B6,C5,C6,C7 B:G7,G8,G9,H7,H8,H9,I7,I8,I9 r\n"
              "lift E3\nplace E3\nwait 1000\nplace H6\nwait 1000\nsay\nlift H6\nwait 500\nsay\n")
    f1, f2 = _frames("browne", script)
    assert f1["fix_record"].startswith("empty H6")
    assert "H6" in f1["say_fault"] and "E3" not in f1["say_fault"]
    assert f2["fix_record"] == "" and f2["say_fault"] == ""


def test_cornelson_a_hinted_gem_is_lit_apart_from_every_vacant_post():
    # Defect 7: the hinted post was the same green as every empty post (the
    # legend's hint colour not what showed), and nothing was said.
    f = _frames("cornelson", "position %s\npress hint\nwait 1500\nsay\n" % START)[0]
    from triad.games.cornelson.geometry import SITE_NAMES

    cyan = [SITE_NAMES[i] for i, n in enumerate(f["names"][:len(SITE_NAMES)]) if n == "hint"]
    assert cyan == ["A3"], cyan
    assert f["hint_words"].startswith("Hint: put a new South gem on A3")


def test_cornelson_a_turn_without_a_gem_may_begin_with_any_jewel():
    # Found by fuzz_board --words (Breach, late in a game with every post
    # taken): a legal jewel step was called a fault until the turn was done.
    script = ("serial set mode breach\nposition nssn/nssnn/nsssnn/nssssss/nsssss/nnsss/nnss S:a3,c7,e7 N:d8,c1 n 5 1\n"
              "wait 1500\nlift c1\nplace c2\nwait 600\nsay\nlift d8\nwait 600\nsay\nplace d9\nwait 1500\nsay\n")
    f1, f2, f3 = _frames("cornelson", script)
    assert f1["say_fault"] == "" and f1["fix_record"] == "", (f1["say_fault"], f1["fix_record"])
    assert f2["say_fault"] == "" and f2["fix_record"] == "", (f2["say_fault"], f2["fix_record"])
    assert f3["moves"][-1] == "- d8-d9 c1-c2", f3["moves"]  # (the turn in the notation's own order)
    assert f3["say_fault"] == ""


def test_cornelson_jewels_are_called_jewels_and_gems_gems():
    # Issue 47.3: "put the gems back on ..., N1, N2 and N3" named jewels
    # gems (the first missing piece's name for them all).
    from triad.games import load
    from triad.games.text import fix_record, fix_words

    g = load("cornelson")
    text = fix_words(g, fix_record("fill D4 a2 a4 a6 N1 N2 N3"))
    assert text.startswith("Put the gem back on D4 and the jewels back on a2, a4, a6, N1, N2 and N3 (blinking white)."), text


def test_a_piece_not_the_movers_is_named_with_its_side_and_the_turn_said():
    # Issue 47.1, for each game: whose piece it is and whose turn.
    from triad.games import load
    from triad.games.text import fix_record, fix_words

    n = load("nehren")
    pos = n.parse_position("w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0")
    assert fix_words(n, fix_record("fill a6"), "", pos).startswith(
        "Put White's die back on a6 (blinking white): it is Black's turn.")
    c = load("cornelson")
    pos = c.parse_position(START)
    assert fix_words(c, fix_record("fill N1"), "", pos).startswith(
        "Put North's jewel back on N1 (blinking white): it is South's turn.")
    # (one's own piece: no side named, no turn said)
    assert fix_words(c, fix_record("fill S1"), "", pos).startswith("Put the jewel back on S1 (blinking white).")


def test_cornelson_a_turn_names_every_spot_it_still_needs():
    # Found by the words fuzz (issue 47.7): two captured gems lit at once,
    # and jewels to step lit with them; a full board's turn ("-") is steps.
    from triad.games import load
    from triad.games.cornelson.words import finish_state_text

    c = load("cornelson")
    pos = c.parse_position(START)
    text = finish_state_text(pos, "D4", {"take": ["E2", "F1", "f5", "P10"]})
    assert "the captured gems on E2 and F1" in text and "still to step: the jewels on f5 and P10" in text, text
    text = finish_state_text(pos, "-", {"take": ["d11", "P1"]})
    assert text.startswith("No gem to place") and "the jewels on d11 and P1" in text and "Swap" not in text, text


def test_cornelson_a_barrier_is_read_after_the_turns_gem_and_captures():
    # Issue 47.2: a jewel's step refused by a Barrier is said so, read after
    # the turn's own gem and captures (the board's `evt capture <post>`): a
    # capture turns one of the Barrier's gems, and the Barrier is gone.
    from triad.games import load
    from triad.games.cornelson.words import refusal

    c = load("cornelson")
    pos = c.parse_position("..../...../....../......./....../.ns../.n.. S:a2,S2,S3 N:N1,N2,N3 s 0 0")
    a2, a3 = c.SITE_NAMES.index("a2"), c.SITE_NAMES.index("a3")
    assert refusal(pos, a2, a3, "D4") == "a Barrier, two of the opponent's gems, stands on the border between"
    assert refusal(pos, a2, a3, "B1") == ""  # (B1 captures B2: no Barrier left)
    assert refusal(pos, a2, a3, "B1!0") != ""  # (the capture forfeit, rule 3.1: the Barrier stands)
    # No gem read yet while a post is vacant: no Barrier is said (the gem
    # may capture one of its gems); a reason the gem cannot change is.
    assert refusal(pos, a2, a3, "") == ""
    assert refusal(pos, a2, c.SITE_NAMES.index("b3"), "") == "a jewel steps across one border, to a space next to its own"
