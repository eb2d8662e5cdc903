"""tests/fuzz_ranges.py (issue 47.7): `make fuzz` in seed ranges that
resume where the last run stopped and add up across runs. The fuzzer is a
stand-in here (the real one takes minutes a range): what is tested is which
ranges run, with which seeds, what is kept and how it adds up."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import fuzz_ranges as fr  # noqa: E402

STUB = '''import sys
a = sys.argv[1:]
seed = int(a[a.index("--seed") + 1]); n = int(a[a.index("--scripts") + 1])
if seed == %(fail)d:
    open(a[a.index("--out") + 1], "w").write("# the failing script\\n")
    print("FAIL words: a stand-in failure (script written to %%s)" %% a[a.index("--out") + 1])
print("fuzz %%s mode=%%s seats=%%s seed=%%d: %%d scripts, %%d turns (0 the board's), 1 actions, 0 noise, %%d power cuts, "
      "crashes 0, illegal 0, wrong 0, lost 0, hangs 0; refused lines 2; 1 s; words: %%d checks (1 with fault words, "
      "%%d naming what the turn still needs), 0 mistakes, %%d bad, 0 asks" %% (
      a[a.index("--game") + 1], a[a.index("--mode") + 1], a[a.index("--seats") + 1], seed, n, 3 * n, n, 10 * n, n,
      1 if seed == %(fail)d else 0))
sys.exit(1 if seed == %(fail)d else 0)
'''


def _stub(tmp_path, fail=-1):
    p = tmp_path / "stub.py"
    p.write_text(STUB % {"fail": fail})
    return str(p)


def test_ranges_resume_and_add_up(tmp_path):
    root = str(tmp_path / "fuzz")
    stub = _stub(tmp_path)
    # 250 scripts a game over 2 configurations: 125 here, ranges of 50: 50, 50, 25.
    assert fr.ranges_of("nehren.standard.0.2", 250, 50) == [(1000, 50), (1001, 50), (1002, 25)]
    assert fr.run("nehren.standard.0.2", 250, 50, 2, 8, root=root, fuzzer=stub) == (2, 0)
    d = os.path.join(root, "nehren-standard-0")
    assert sorted(os.listdir(d)) == ["seed-1000.txt", "seed-1001.txt"]
    # The next run resumes at the first range not run, and stops when all are.
    assert fr.run("nehren.standard.0.2", 250, 50, 2, 8, root=root, fuzzer=stub) == (1, 0)
    assert fr.run("nehren.standard.0.2", 250, 50, 0, 8, root=root, fuzzer=stub) == (0, 0)
    with open(os.path.join(d, "seed-1002.txt")) as f:
        kept = f.read()
    assert "range 2 of nehren.standard.0.2: 25 scripts from seed 1002" in kept and "seed=1002: 25 scripts" in kept
    fr.run("nehren.standard.1.2", 250, 50, 1, 8, root=root, fuzzer=stub)
    got = fr.read(root)
    assert fr.add_up(got["nehren-standard-0"])["scripts"] == 125
    table = fr.table(root)
    assert "| nehren-standard-0 | 3 | 125 | 375 |" in table
    assert "| **nehren** (all its configurations) | 4 | **175** | **525** |" in table


def test_a_failing_range_is_kept_counted_and_stops_the_run(tmp_path):
    root = str(tmp_path / "fuzz")
    stub = _stub(tmp_path, fail=1001)
    assert fr.run("browne.standard.0.3", 300, 50, 0, 8, root=root, fuzzer=stub) == (2, 1)
    with open(os.path.join(root, "browne-standard-0", "seed-1001.txt")) as f:
        assert "FAIL words" in f.read()
    assert fr.add_up(fr.read(root)["browne-standard-0"])["words bad"] == 1


def test_a_failed_range_runs_again_whole_and_what_it_found_is_kept(tmp_path):
    # (issue 47.7: the scripts after a failure never ran; a range that
    # failed is not done, and the totals still count the failure found)
    root = str(tmp_path / "fuzz")
    d = os.path.join(root, "browne-standard-0")
    assert fr.run("browne.standard.0.3", 450, 50, 0, 8, root=root, fuzzer=_stub(tmp_path, fail=1001)) == (2, 1)
    with open(os.path.join(d, "seed-1001.txt")) as f:
        commit = f.readline().split("commit ")[1].split(",")[0]
    # The next run, after the fix, begins with the failed range, then goes on.
    assert fr.run("browne.standard.0.3", 450, 50, 2, 8, root=root, fuzzer=_stub(tmp_path)) == (2, 0)
    assert sorted(os.listdir(d)) == ["seed-1000.txt", "seed-1001.found-%s.script.txt" % commit,
                                     "seed-1001.found-%s.txt" % commit, "seed-1001.txt", "seed-1002.txt"]
    with open(os.path.join(d, "seed-1001.txt")) as f:
        assert "FAIL" not in f.read()
    with open(os.path.join(d, "seed-1001.found-%s.txt" % commit)) as f:
        assert "(script written to seed-1001.found-%s.script.txt)" % commit in f.read()
    assert fr.add_up(fr.read(root)["browne-standard-0"])["scripts"] == 150  # (each range's last run)
    table = fr.table(root)
    assert "| browne-standard-0 | 3 | 150 |" in table and table.splitlines()[2].endswith("| 1 |"), table
    assert table.splitlines()[-1].endswith("| **1** |"), table


def test_the_totals_in_the_document_are_the_ranges_kept():
    # docs/fuzzing.md's table is the kept ranges added up (make fuzz-totals
    # after each run), and every kept summary has every count the totals
    # add (a count missing from the fuzzer's line would be a silent 0).
    for lines in list(fr.read().values()) + list(fr.read(found=True).values()):
        fr.add_up(lines, strict=True)
    # (and every kept range is one of its configuration's: a seed of its mode)
    for name in os.listdir(fr.DIR):
        base = fr.SEED_BASE + fr.MODE_SEEDS.get(name.split("-")[1], 0)
        for fn in os.listdir(os.path.join(fr.DIR, name)):
            seed = int(fn.split(".")[0][len("seed-"):])
            assert 0 <= seed - base < 10000, (name, fn)
    with open(os.path.join(fr.ROOT, "docs", "fuzzing.md")) as f:
        doc = f.read()
    kept = doc.split(fr.BEGIN, 1)[1].split(fr.END, 1)[0].strip()
    assert kept == fr.table(), "docs/fuzzing.md's totals are stale: make fuzz-totals"


def test_the_totals_go_between_the_documents_markers(tmp_path):
    root = str(tmp_path / "fuzz")
    fr.run("cornelson.trap.0.6", 60, 10, 1, 8, root=root, fuzzer=_stub(tmp_path))
    doc = tmp_path / "doc.md"
    doc.write_text("before\n%s\nold\n%s\nafter\n" % (fr.BEGIN, fr.END))
    fr.write(str(doc), root)
    text = doc.read_text()
    assert text.startswith("before\n") and text.endswith("after\n") and "old" not in text
    assert "| cornelson-trap-0 | 1 | 10 |" in text


def test_a_mode_that_would_repeat_anothers_scripts_has_seeds_of_its_own(tmp_path):
    # Cornelson's Trap at seed 1000 ran Standard's very scripts (issue 47.7):
    # its ranges draw other seeds, and a kept range names them.
    assert fr.ranges_of("cornelson.standard.0.6", 600, 100)[0] == (1000, 100)
    assert fr.ranges_of("cornelson.trap.0.6", 600, 100)[0] == (21000, 100)
    root = str(tmp_path / "fuzz")
    assert fr.run("cornelson.trap.0.6", 120, 10, 1, 8, root=root, fuzzer=_stub(tmp_path)) == (1, 0)
    with open(os.path.join(root, "cornelson-trap-0", "seed-21000.txt")) as f:
        assert f.readline().startswith("# range 0 of cornelson.trap.0.6: 10 scripts from seed 21000")
