"""Engine node rate before and after the speed work (issue 15), one run.

    python3 bench/engine_speed_run.py [--micropython PATH] [--pico]
                                      [--pico-python PATH] [--uf2 PATH]

Extracts the engine of commit BEFORE (firmware/triad/engine/ as it was
before the viper evaluation) from git into a temporary package
`enginebefore`, then runs bench/engine_speed.py, which times both engines on
the same fixed-node searches: on the MicroPython unix port (heap limited to
a Pico's) and, with --pico, on the board's UF2 in the emulated Pico with
`enginebefore` on the board's filesystem (emulated time; build the UF2 with
`python3 -m host_tools.pico_build uf2` first). Prints the script's figure
lines prefixed with mp. / pico.
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEFORE = "75261cf"
FILES = ("__init__.py", "search.py", "evaluate.py")


def extract(dest):
    pkg = os.path.join(dest, "enginebefore")
    os.mkdir(pkg)
    for name in FILES:
        src = subprocess.run(["git", "show", "%s:firmware/triad/engine/%s" % (BEFORE, name)],
                             cwd=ROOT, check=True, capture_output=True, text=True).stdout
        with open(os.path.join(pkg, name), "w") as f:
            f.write(src.replace("triad.engine.", "enginebefore."))


def main(argv):
    mp = os.path.join(ROOT, ".venv", "bin", "micropython")
    pico_py = os.path.join(ROOT, ".venv-pico", "bin", "python")
    uf2 = os.path.join(ROOT, "build", "triad-board.uf2")
    pico = False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--pico":
            pico = True
        elif a in ("--micropython", "--pico-python", "--uf2") and i + 1 < len(argv):
            i += 1
            if a == "--micropython":
                mp = argv[i]
            elif a == "--pico-python":
                pico_py = argv[i]
            else:
                uf2 = argv[i]
        else:
            raise SystemExit(__doc__)
        i += 1
    rc = 0
    with tempfile.TemporaryDirectory() as tmp:
        extract(tmp)
        env = dict(os.environ, MICROPYPATH=tmp + ":" + os.path.join(ROOT, "firmware"))
        p = subprocess.run([mp, "-X", "heapsize=192K", "bench/engine_speed.py"], cwd=ROOT, env=env,
                           capture_output=True, text=True)
        for line in p.stdout.splitlines():
            print("mp." + line, flush=True)
        if p.returncode:
            sys.stderr.write(p.stderr)
            rc = 1
        if pico:
            p = subprocess.run([pico_py, "-m", "host_tools.emulator", "--uf2", uf2, "--littlefs", tmp,
                                "--timeout", "3600", "bench/engine_speed.py", "pico"],
                               cwd=ROOT, capture_output=True, text=True)
            for line in p.stdout.splitlines():
                if line.startswith("engine_"):
                    print("pico." + line, flush=True)
                else:
                    print("pico# " + line, flush=True)
            if p.returncode:
                sys.stderr.write(p.stderr)
                rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
