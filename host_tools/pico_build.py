"""Builds the board's firmware from Debian's sources (host tool, stdlib only).

    python3 -m host_tools.pico_build uf2     [--board B | --board all] [--out PATH]
    python3 -m host_tools.pico_build unix32  [--out build/micropython32]
    python3 -m host_tools.pico_build sources          # fetch + unpack only

`uf2` builds MicroPython's RP2040 port (board RPI_PICO) with the project's
firmware frozen in through manifests/<B>.py (B a board description in
firmware/triad/boards/, default pico_v1; the image holds that board and its
games only) and converts firmware.bin to UF2 with host_tools/uf2.py:
build/triad-board-<B>.uf2, and build/triad-board.uf2 for pico_v1 as well
(the name the README and the flashing guide give). `--board all` builds
every board's. Every build checks that each frozen native/viper function
sits on a 4-byte boundary (check_native_alignment) and fails naming the
ones that do not. `unix32` builds the same MicroPython's unix port as a
32-bit binary with single-precision floats: its heap figures match the
RP2040's object sizes.

Sources: the pinned `micropython` source package, the arch-all
`pico-sdk-source` and `tinyusb-source` packages and the `mbedtls` source
package of Debian's trixie suite, fetched through a PRIVATE apt configuration
(own sources list, lists, cache and status under the cache directory), so the
machine's apt configuration is untouched. Its mirror is the one the machine's
own apt configuration names. The arm-none-eabi toolchain, cmake and
gcc-multilib are this machine's own (bookworm) packages, installed with the
machine's apt-get when missing (needs root or password-less sudo).

Cache: ${TRIAD_BUILD_CACHE:-${XDG_CACHE_HOME:-~/.cache}/triad-build}, outside
the repository, shared by every clone on the machine (guarded by a lock).
A finished UF2 / binary is kept there under a key made of the pinned
versions, the flags and a hash of firmware/, manifests/ and the build code:
a second build with unchanged inputs copies it and does nothing else.

Exit status: 0 built, 1 failed, 3 Debian's packages could not be reached
(callers skip the emulated-Pico tests with a message saying so).
"""
import argparse
import fcntl
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Pinned Debian versions (trixie). MicroPython must be exactly this one; the
# others fall back to trixie's candidate (with a warning) if the mirror has
# dropped the pinned revision, since only their upstream version matters.
MICROPYTHON_VERSION = "1.25.0+ds-1"
PINS = {
    "pico-sdk-source": "2.1.1-1",
    "tinyusb-source": "0.18.0+dfsg-1",
    "mbedtls": "3.6.6-0.1~deb13u1",
}
SUITE = "trixie"
BOARD = "RPI_PICO"  # MicroPython's board (the Pico); ours are firmware/triad/boards/
DEFAULT_BOARD = "pico_v1"  # `make uf2` with no BOARD
TOOLCHAIN_PKGS = ["gcc-arm-none-eabi", "libnewlib-arm-none-eabi",
                  "libstdc++-arm-none-eabi-newlib", "cmake", "make", "python3"]
UNIX32_PKGS = ["gcc-multilib", "make"]
UNIX32_FLAGS = ["VARIANT=standard", "MICROPY_PY_SSL=0", "MICROPY_PY_BTREE=0",
                "MICROPY_PY_FFI=0", "MICROPY_FORCE_32BIT=1",
                "CFLAGS_EXTRA=-DMICROPY_FLOAT_IMPL=MICROPY_FLOAT_IMPL_FLOAT",
                "BUILD=build-triad32", "PROG=micropython32",
                "FROZEN_MANIFEST="]  # the variant freezes micropython-lib (absent)
EXIT_UNREACHABLE = 3


class Unreachable(Exception):
    """Debian's packages could not be reached (network / mirror / apt)."""


def log(msg):
    sys.stderr.write("[pico_build] %s\n" % msg)
    sys.stderr.flush()


def cache_dir():
    d = os.environ.get("TRIAD_BUILD_CACHE")
    if not d:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
        d = os.path.join(base, "triad-build")
    os.makedirs(d, exist_ok=True)
    return d


def run(cmd, **kw):
    log("$ " + " ".join(cmd))
    return subprocess.run(cmd, check=True, **kw)


def nproc():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


# ---------------------------------------------------------------- toolchain

def _root_cmd():
    if os.geteuid() == 0:
        return []
    if shutil.which("sudo") and subprocess.run(["sudo", "-n", "true"],
                                               capture_output=True).returncode == 0:
        return ["sudo", "-n"]
    return None


def _missing(pkgs):
    out = subprocess.run(["dpkg-query", "-W", "-f", "${Package} ${Status}\n"] + pkgs,
                         capture_output=True, text=True).stdout
    ok = {ln.split()[0] for ln in out.splitlines() if ln.endswith(" installed")}
    return [p for p in pkgs if p not in ok]


def ensure_host_packages(pkgs):
    """Installs the machine's (bookworm) packages the build needs."""
    if not shutil.which("dpkg-query"):
        raise SystemExit("pico_build: needs a Debian-like machine (dpkg/apt)")
    missing = _missing(pkgs)
    if not missing:
        return
    pre = _root_cmd()
    if pre is None:
        raise SystemExit("pico_build: missing packages %s and not root; run: "
                         "apt-get install %s" % (" ".join(missing), " ".join(missing)))
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    # Wait for another install's dpkg lock rather than fail at once (a fresh
    # machine's first `make test` may install from two places at a time).
    apt = ["apt-get", "-o", "DPkg::Lock::Timeout=900"]
    log("installing the machine's packages: " + " ".join(missing))
    lists = glob.glob("/var/lib/apt/lists/*_Packages*")
    if not lists or time.time() - max(os.path.getmtime(p) for p in lists) > 86400:
        if subprocess.run(pre + apt + ["update", "-q"], env=env).returncode != 0:
            raise Unreachable("apt-get update failed")
    r = subprocess.run(pre + apt + ["install", "-y", "-q", "--no-install-recommends"]
                       + missing, env=env)
    if r.returncode != 0:
        # A stale list gives 404s: refresh once and retry.
        subprocess.run(pre + apt + ["update", "-q"], env=env)
        r = subprocess.run(pre + apt + ["install", "-y", "-q",
                                        "--no-install-recommends"] + missing, env=env)
        if r.returncode != 0:
            raise Unreachable("apt-get install %s failed" % " ".join(missing))


# ------------------------------------------------------------- private apt

def machine_mirror():
    """(URI, keyring) of the machine's main Debian archive, from its apt config."""
    uris = []
    for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
        with open(path) as f:
            for stanza in f.read().split("\n\n"):
                fields = {}
                for line in stanza.splitlines():
                    if ":" in line and not line.startswith(("#", " ")):
                        k, v = line.split(":", 1)
                        fields[k.strip().lower()] = v.strip()
                if "uris" in fields and "security" not in fields.get("suites", "") + fields["uris"]:
                    uris.append((fields["uris"].split()[0], fields.get("signed-by")))
    for path in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
        if not os.path.exists(path):
            continue
        with open(path) as f:
            for line in f:
                m = re.match(r"\s*deb\s+(\[[^\]]*\]\s+)?(\S+)\s+(\S+)", line)
                if m and "security" not in m.group(2) + m.group(3):
                    opts = m.group(1) or ""
                    k = re.search(r"signed-by=(\S+?)[\s\]]", opts)
                    uris.append((m.group(2), k.group(1) if k else None))
    for uri, key in uris:
        if "debian" in uri:
            return uri, key
    if uris:
        return uris[0]
    raise Unreachable("no Debian mirror found in the machine's apt configuration")


def _user():
    import pwd

    return pwd.getpwuid(os.geteuid()).pw_name


class PrivateApt:
    def __init__(self, cache):
        self.dir = os.path.join(cache, "apt")
        self.files = os.path.join(self.dir, "files")
        for d in ("etc", "lists/partial", "cache/archives/partial", "files"):
            os.makedirs(os.path.join(self.dir, d), exist_ok=True)
        status = os.path.join(self.dir, "status")
        if not os.path.exists(status):
            open(status, "w").close()
        self.updated = False

    def opts(self):
        d = self.dir
        return ["-o", "Dir::Etc::SourceList=" + os.path.join(d, "etc/sources.list"),
                "-o", "Dir::Etc::SourceParts=/dev/null",
                "-o", "Dir::Etc::Preferences=/dev/null",
                "-o", "Dir::Etc::PreferencesParts=/dev/null",
                "-o", "Dir::State::Lists=" + os.path.join(d, "lists"),
                "-o", "Dir::State::status=" + os.path.join(d, "status"),
                "-o", "Dir::Cache=" + os.path.join(d, "cache"),
                "-o", "Debug::NoLocking=1",
                "-o", "APT::Sandbox::User=" + _user(),
                "-q"]

    def update(self):
        if self.updated:
            return
        uri, key = machine_mirror()
        key = key or "/usr/share/keyrings/debian-archive-keyring.gpg"
        opt = "[signed-by=%s] " % key if os.path.exists(key) else ""
        with open(os.path.join(self.dir, "etc/sources.list"), "w") as f:
            f.write("# written by host_tools/pico_build.py from the machine's apt configuration\n")
            f.write("deb %s%s %s main\n" % (opt, uri, SUITE))
            f.write("deb-src %s%s %s main\n" % (opt, uri, SUITE))
        r = subprocess.run(["apt-get"] + self.opts() + ["update"], capture_output=True, text=True)
        if r.returncode != 0 or re.search(r"^(E:|Err:)", r.stdout + r.stderr, re.M):
            raise Unreachable("private apt-get update for %s failed:\n%s" % (SUITE, r.stdout + r.stderr))
        self.updated = True

    def _have(self, pattern):
        hits = glob.glob(os.path.join(self.files, pattern))
        return hits[0] if hits else None

    def fetch_source(self, pkg, version, exact=True):
        """Downloads a source package into files/; returns its upstream tarball."""
        upstream = version.split("-")[0] if "-" in version else version
        have = self._have("%s_%s.orig.tar.*" % (pkg, upstream.split(":")[-1]))
        if have and os.path.exists(os.path.join(self.files, "%s_%s.dsc" % (pkg, version))):
            return have, version
        self.update()
        version = self._available(pkg, version, "showsrc", exact)
        r = subprocess.run(["apt-get"] + self.opts() + ["source", "--download-only",
                            "%s=%s" % (pkg, version)], cwd=self.files, capture_output=True, text=True)
        if r.returncode != 0:
            raise Unreachable("apt-get source %s=%s failed:\n%s" % (pkg, version, r.stderr))
        upstream = version.split("-")[0]
        have = self._have("%s_%s.orig.tar.*" % (pkg, upstream))
        if not have:
            raise SystemExit("pico_build: no upstream tarball for %s %s" % (pkg, version))
        return have, version

    def fetch_deb(self, pkg, version, exact=True):
        have = self._have("%s_%s_all.deb" % (pkg, version.replace(":", "%3a")))
        if have:
            return have, version
        self.update()
        version = self._available(pkg, version, "policy", exact)
        r = subprocess.run(["apt-get"] + self.opts() + ["download", "%s=%s" % (pkg, version)],
                           cwd=self.files, capture_output=True, text=True)
        if r.returncode != 0:
            raise Unreachable("apt-get download %s=%s failed:\n%s" % (pkg, version, r.stderr))
        have = self._have("%s_*_all.deb" % pkg)
        return have, version

    def _available(self, pkg, version, how, exact):
        if how == "showsrc":
            out = subprocess.run(["apt-cache"] + self.opts() + ["showsrc", pkg],
                                 capture_output=True, text=True).stdout
            versions = re.findall(r"^Version: (\S+)", out, re.M)
        else:
            out = subprocess.run(["apt-cache"] + self.opts() + ["madison", pkg],
                                 capture_output=True, text=True).stdout
            versions = [ln.split("|")[1].strip() for ln in out.splitlines() if "|" in ln]
        if version in versions:
            return version
        if not versions:
            raise Unreachable("%s is not in %s" % (pkg, SUITE))
        if exact:
            raise SystemExit("pico_build: %s %s is gone from %s (has %s); update the pin in %s"
                             % (pkg, version, SUITE, ", ".join(versions), __file__))
        log("warning: %s %s not in %s, using %s" % (pkg, version, SUITE, versions[0]))
        return versions[0]


# ---------------------------------------------------------------- sources

def _extract_tar(tarball, dest, strip=1):
    tmp = dest + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    run(["tar", "-xf", tarball, "-C", tmp, "--strip-components=%d" % strip])
    shutil.rmtree(dest, ignore_errors=True)
    os.rename(tmp, dest)


def _find_one(base, name):
    for dirpath, dirnames, _ in os.walk(base):
        if name in dirnames:
            return os.path.join(dirpath, name)
    return None


def prepare_sources(cache, need_rp2=True):
    """Unpacked MicroPython tree (with lib/ filled for the rp2 port when
    need_rp2); returns its path. Reused while the pins are unchanged."""
    apt = PrivateApt(cache)
    src = os.path.join(cache, "src")
    os.makedirs(src, exist_ok=True)
    mp_dir = os.path.join(src, "micropython-" + MICROPYTHON_VERSION)
    stamp = os.path.join(mp_dir, ".triad-unpacked")
    if not os.path.exists(stamp):
        tarball, _ = apt.fetch_source("micropython", MICROPYTHON_VERSION)
        _extract_tar(tarball, mp_dir)
        # The +ds tarball ships lib/ submodules empty; the rp2 manifest check
        # wants micropython-lib present (our manifest needs nothing from it).
        os.makedirs(os.path.join(mp_dir, "lib/micropython-lib"), exist_ok=True)
        open(os.path.join(mp_dir, "lib/micropython-lib/README.md"), "a").close()
        with open(stamp, "w") as f:
            f.write(MICROPYTHON_VERSION + "\n")
    patch_mpy_tool(mp_dir)
    if not need_rp2:
        return mp_dir
    rp2_stamp = os.path.join(mp_dir, ".triad-rp2-libs")
    want = repr(sorted(PINS.items()))
    if os.path.exists(rp2_stamp) and open(rp2_stamp).read() == want:
        return mp_dir
    got = {}
    for pkg, sub, name in (("pico-sdk-source", "pico-sdk", "pico-sdk"),
                           ("tinyusb-source", "tinyusb", "tinyusb")):
        deb, got[pkg] = apt.fetch_deb(pkg, PINS[pkg], exact=False)
        out = os.path.join(src, "deb-" + pkg)
        shutil.rmtree(out, ignore_errors=True)
        run(["dpkg-deb", "-x", deb, out])
        tree = _find_one(os.path.join(out, "usr/src"), name) or _find_one(out, name)
        if not tree:
            raise SystemExit("pico_build: %s unpacked without a %s tree" % (deb, name))
        lib = os.path.join(mp_dir, "lib", sub)
        shutil.rmtree(lib, ignore_errors=True)
        os.symlink(tree, lib)
    tarball, got["mbedtls"] = apt.fetch_source("mbedtls", PINS["mbedtls"], exact=False)
    _extract_tar(tarball, os.path.join(mp_dir, "lib/mbedtls"))
    with open(rp2_stamp, "w") as f:
        f.write(want)
    log("sources ready: micropython %s, %s" % (MICROPYTHON_VERSION, got))
    return mp_dir


# MicroPython 1.25's tools/mpy-tool.py gives frozen ARMv6-M (Cortex-M0+, the
# RP2040) native and viper functions only 2-byte alignment ("ARM Thumb needs
# halfword"). But the ARMv6-M native emitter (py/asmthumb.c) loads its 32-bit
# constants PC-relative, `ldr rX, [pc, #0]` followed by the literal, and that
# instruction's base is the PC rounded down to a multiple of 4: a function that
# starts at 2 mod 4 reads every such constant two bytes off. On the first UF2
# that was 20 of the 36 frozen native functions, MatrixScanner.update among
# them: STABLE_CAP_MS = const(3600000) read as 293662720, stable_for() went
# negative and the board never left sync. Code compiled at run time lands on
# the heap (16-byte aligned) and was right, so only the frozen image showed it.
# MicroPython once forced 4 bytes for this reason (PR #5014); we put ARMv6-M
# back in mpy-tool's 4-byte branch, and check_native_alignment() proves it on
# every image.
_MPY_TOOL_OLD = """        if config.native_arch in (
            MP_NATIVE_ARCH_ARMV6,
            MP_NATIVE_ARCH_XTENSA,"""
_MPY_TOOL_NEW = """        if config.native_arch in (
            MP_NATIVE_ARCH_ARMV6,
            MP_NATIVE_ARCH_ARMV6M,  # triad: ldr rX, [pc, #0] needs a 4-aligned base
            MP_NATIVE_ARCH_XTENSA,"""


def patch_mpy_tool(mp_dir):
    """Puts frozen ARMv6-M native code on 4-byte alignment (see above)."""
    path = os.path.join(mp_dir, "tools", "mpy-tool.py")
    with open(path) as f:
        text = f.read()
    if _MPY_TOOL_NEW in text:
        return
    if _MPY_TOOL_OLD not in text:
        raise SystemExit("pico_build: %s has changed: the ARMv6-M alignment patch no longer "
                         "applies; check how this MicroPython aligns frozen native code" % path)
    with open(path, "w") as f:
        f.write(text.replace(_MPY_TOOL_OLD, _MPY_TOOL_NEW))
    log("patched %s: frozen ARMv6-M native code 4-byte aligned" % path)


# ------------------------------------------------- the image's native code

class Misaligned(Exception):
    """Frozen native code that would read its constants two bytes off."""


_NATIVE_DECL = re.compile(r"^// frozen native code for file (\S+), scope (\S+)$", re.M)
_CHILDREN = re.compile(r"^static const mp_raw_code_t \*const children_(\w+)\[\] = \{\n(.*?)^\};",
                       re.M | re.S)
_MODULE_SCOPE = re.compile(r"^// frozen bytecode for file (\S+), scope (\w+)__lt_module_gt_$", re.M)


def _child_scopes(node):
    """The scopes MicroPython's compiler makes directly inside `node`, in the
    order it makes them (its raw code's children): functions, lambdas,
    classes and comprehensions, in source order."""
    import ast

    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef,
             ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
    out = []

    def walk(n):
        for c in ast.iter_child_nodes(n):
            if isinstance(c, kinds):
                out.append(c)
            else:
                walk(c)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        for stmt in node.body:
            if isinstance(stmt, kinds):
                out.append(stmt)
            else:
                walk(stmt)
    else:
        walk(node)
    return out


def native_function_names(frozen_c, src_root):
    """{fun_data symbol: "file: Qual.name"} for the frozen native/viper
    functions in frozen_content.c, named by matching each raw code's
    children with the scopes of the module's source (the symbols themselves
    say only the file: fun_data_..._controller_dot_py2)."""
    import ast

    native = {scope: path for path, scope in _NATIVE_DECL.findall(frozen_c)}
    children = {parent: re.findall(r"&proto_fun_(\w+),", body) for parent, body in _CHILDREN.findall(frozen_c)}
    names = {}
    for path, prefix in _MODULE_SCOPE.findall(frozen_c):
        src = os.path.join(src_root, path)
        if not os.path.exists(src):
            continue
        with open(src) as f:
            tree = ast.parse(f.read())
        stack = [(prefix + "__lt_module_gt_", tree, "")]
        while stack:
            sym, node, qual = stack.pop()
            kids = children.get(sym, [])
            scopes = _child_scopes(node)
            if len(kids) != len(scopes):
                continue  # the source and the image disagree: leave these unnamed
            for kid, scope in zip(kids, scopes):
                name = getattr(scope, "name", "<%s>" % type(scope).__name__.lower())
                q = qual + "." + name if qual else name
                if kid in native:
                    names["fun_data_" + kid] = "%s: %s" % (path, q)
                stack.append((kid, scope, q))
    for scope, path in native.items():
        names.setdefault("fun_data_" + scope, "%s: fun_data_%s" % (path, scope))
    return names


def misaligned_native(nm_text, names):
    """The frozen native functions (code in .text: nm type t/T) whose address
    is not a multiple of 4, as [(address, name)]."""
    bad = []
    for line in nm_text.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tT" and parts[2].startswith("fun_data_"):
            addr = int(parts[0], 16)
            if addr % 4:
                bad.append((addr, names.get(parts[2], parts[2])))
    return bad


def check_native_alignment(elf, frozen_c, src_root=None):
    """Raises Misaligned naming every frozen native/viper function of the
    image that does not start on a 4-byte boundary; returns how many native
    functions the image holds."""
    nm = subprocess.run(["arm-none-eabi-nm", elf], check=True, capture_output=True, text=True).stdout
    with open(frozen_c) as f:
        names = native_function_names(f.read(), src_root or os.path.join(ROOT, "firmware"))
    bad = misaligned_native(nm, names)
    if bad:
        raise Misaligned("%d frozen native/viper function(s) not 4-byte aligned: the ARMv6-M "
                         "emitter's `ldr rX, [pc, #0]` would read their 32-bit constants two "
                         "bytes off:\n%s" % (len(bad), "\n".join("  0x%08x %s" % b for b in bad)))
    return sum(1 for ln in nm.splitlines()
               if len(ln.split()) == 3 and ln.split()[1] in "tT" and ln.split()[2].startswith("fun_data_"))


# ---------------------------------------------------------------- builds

def inputs_hash(extra, firmware=True):
    """Hash of everything that decides the output: pins, flags, the build
    code itself and (for the UF2) firmware/ and manifest.py."""
    h = hashlib.sha256()
    h.update(repr((MICROPYTHON_VERSION, sorted(PINS.items()), BOARD, UNIX32_FLAGS, extra)).encode())
    paths = [os.path.join(ROOT, "host_tools", "pico_build.py"),
             os.path.join(ROOT, "host_tools", "uf2.py")]
    if firmware:
        mdir = os.path.join(ROOT, "manifests")
        paths += [os.path.join(mdir, f) for f in sorted(os.listdir(mdir)) if f.endswith(".py")]
        paths.append(os.path.join(ROOT, "host_tools", "uf2_modules", "neopixel.py"))
    for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, "firmware") if firmware else os.devnull):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        paths += [os.path.join(dirpath, f) for f in sorted(filenames) if not f.endswith(".pyc")]
    for p in paths:
        h.update(os.path.relpath(p, ROOT).encode() + b"\0")
        with open(p, "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()[:20]


def _copy_out(src, out):
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    tmp = out + ".tmp"
    shutil.copyfile(src, tmp)
    shutil.copymode(src, tmp)
    os.replace(tmp, out)


def build_mpy_cross(mp_dir, jobs):
    exe = os.path.join(mp_dir, "mpy-cross/build/mpy-cross")
    if not os.path.exists(exe):
        run(["make", "-s", "-C", os.path.join(mp_dir, "mpy-cross"), "-j%d" % jobs])
    return exe


def boards():
    """The board descriptions (firmware/triad/boards/*.py), pico_v1 first."""
    d = os.path.join(ROOT, "firmware", "triad", "boards")
    names = sorted(f[:-3] for f in os.listdir(d) if f.endswith(".py") and f != "__init__.py")
    return sorted(names, key=lambda n: n != DEFAULT_BOARD)


def uf2_path(board):
    """Where `make uf2 BOARD=<board>` writes (build/triad-board-<board>.uf2)."""
    return os.path.join(ROOT, "build", "triad-board-%s.uf2" % board)


def kept_image(board):
    """The cache's name for this board's image of the current inputs, less
    its extension: .uf2, and .elf / .frozen_content.c beside it."""
    return os.path.join(cache_dir(), "out", "triad-board-%s-%s" % (board, inputs_hash(("uf2", board))))


def build_uf2(out, force=False, board=DEFAULT_BOARD):
    from host_tools import uf2

    manifest = os.path.join(ROOT, "manifests", board + ".py")
    if board not in boards() or not os.path.exists(manifest):
        raise SystemExit("pico_build: no board %r (boards: %s; each needs firmware/triad/boards/<board>.py "
                         "and manifests/<board>.py)" % (board, ", ".join(boards())))
    cache = cache_dir()
    kept = kept_image(board) + ".uf2"
    key = inputs_hash(("uf2", board))
    if os.path.exists(kept) and not force:
        for o in out:
            _copy_out(kept, o)
        log("up to date (%s, inputs %s): %s" % (board, key, ", ".join(out)))
        return out
    ensure_host_packages(TOOLCHAIN_PKGS)
    mp_dir = prepare_sources(cache)
    jobs = nproc()
    build_mpy_cross(mp_dir, jobs)
    bdir = os.path.join(cache, "build", "rp2-" + BOARD)
    # MicroPython recompiles a frozen module only when its source is newer
    # than the .mpy kept in the build tree; the tree is shared by every
    # checkout and board on this machine, so another clone's firmware (or
    # another board's) could stay frozen in this one's UF2. Our modules are
    # compiled afresh instead (a few seconds of mpy-cross, and only when the
    # inputs changed).
    for name in ("triad", "main.mpy"):
        stale = os.path.join(bdir, "frozen_mpy", name)
        if os.path.isdir(stale):
            shutil.rmtree(stale)
        elif os.path.exists(stale):
            os.remove(stale)
    run(["cmake", "-S", os.path.join(mp_dir, "ports/rp2"), "-B", bdir,
         "-DMICROPY_BOARD=" + BOARD, "-DPICO_NO_PICOTOOL=1",
         "-DMICROPY_FROZEN_MANIFEST=" + manifest], stdout=subprocess.DEVNULL)
    run(["make", "-s", "-C", bdir, "-j%d" % jobs])
    try:
        n = check_native_alignment(os.path.join(bdir, "firmware.elf"), os.path.join(bdir, "frozen_content.c"))
    except Misaligned as e:
        raise SystemExit("pico_build: %s UF2 refused: %s" % (board, e))
    log("%d frozen native/viper functions, all 4-byte aligned" % n)
    # The ELF and the frozen C beside the UF2: what the alignment test and a
    # person debugging this image (arm-none-eabi-nm, addr2line) look at.
    # out/ does not exist on a machine's first build: make it before the
    # first copy into it (issue 34: the first `make uf2` failed here).
    os.makedirs(os.path.dirname(kept), exist_ok=True)
    for src, ext in (("firmware.elf", ".elf"), ("frozen_content.c", ".frozen_content.c")):
        shutil.copyfile(os.path.join(bdir, src), kept[:-4] + ext)
    binary = os.path.join(bdir, "firmware.bin")
    with open(binary, "rb") as f:
        data = f.read()
    tmp = kept + ".tmp"
    with open(tmp, "wb") as f:
        f.write(uf2.convert(data, uf2.FLASH_BASE, uf2.RP2040_FAMILY_ID))
    os.replace(tmp, kept)
    _prune(os.path.dirname(kept), "triad-board-%s-*.uf2" % board, keep=kept,
           siblings=(".elf", ".frozen_content.c"))
    for o in out:
        _copy_out(kept, o)
    log("wrote %s (%d bytes of firmware, inputs %s)" % (", ".join(out), len(data), key))
    return out


def build_unix32(out, force=False):
    cache = cache_dir()
    key = inputs_hash(("unix32",), firmware=False)
    kept = os.path.join(cache, "out", "micropython32-%s" % key)
    if os.path.exists(kept) and not force:
        _copy_out(kept, out)
        log("up to date (inputs %s): %s" % (key, out))
        return out
    ensure_host_packages(UNIX32_PKGS)
    mp_dir = prepare_sources(cache, need_rp2=False)
    jobs = nproc()
    build_mpy_cross(mp_dir, jobs)
    run(["make", "-s", "-C", os.path.join(mp_dir, "ports/unix"), "-j%d" % jobs] + UNIX32_FLAGS)
    exe = os.path.join(mp_dir, "ports/unix/build-triad32/micropython32")
    if not os.path.exists(exe):
        exe = os.path.join(mp_dir, "ports/unix/micropython32")
    os.makedirs(os.path.dirname(kept), exist_ok=True)
    shutil.copyfile(exe, kept + ".tmp")
    os.chmod(kept + ".tmp", 0o755)
    os.replace(kept + ".tmp", kept)
    _prune(os.path.dirname(kept), "micropython32-*", keep=kept)
    _copy_out(kept, out)
    log("wrote %s (inputs %s)" % (out, key))
    return out


def _prune(d, pattern, keep, n=8, siblings=()):
    """Keeps the newest few outputs (other clones / branches may want them)."""
    olds = sorted((p for p in glob.glob(os.path.join(d, pattern)) if p != keep and not p.endswith(".tmp")),
                  key=os.path.getmtime, reverse=True)
    for p in olds[n:]:
        os.remove(p)
        for ext in siblings:
            sib = os.path.splitext(p)[0] + ext
            if os.path.exists(sib):
                os.remove(sib)


class Lock:
    def __init__(self, cache):
        self.path = os.path.join(cache, "lock")

    def __enter__(self):
        self.f = open(self.path, "w")
        fcntl.flock(self.f, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.f, fcntl.LOCK_UN)
        self.f.close()


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m host_tools.pico_build", description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=["uf2", "unix32", "sources"])
    ap.add_argument("--out", help="output path (default build/triad-board-<board>.uf2, and "
                    "build/triad-board.uf2 for pico_v1; build/micropython32)")
    ap.add_argument("--board", default=DEFAULT_BOARD,
                    help="uf2: the board description to build for, or `all` (default %s)" % DEFAULT_BOARD)
    ap.add_argument("--force", action="store_true", help="rebuild even if a cached output matches")
    args = ap.parse_args(argv)
    t0 = time.time()
    try:
        with Lock(cache_dir()):
            if args.what == "uf2":
                chosen = boards() if args.board == "all" else [args.board]
                if args.out and len(chosen) > 1:
                    ap.error("--out names one file: give one --board")
                for b in chosen:
                    outs = [args.out] if args.out else [uf2_path(b)]
                    if not args.out and b == DEFAULT_BOARD:
                        outs.append(os.path.join(ROOT, "build", "triad-board.uf2"))
                    build_uf2(outs, args.force, b)
            elif args.what == "unix32":
                build_unix32(args.out or os.path.join(ROOT, "build", "micropython32"), args.force)
            else:
                ensure_host_packages(TOOLCHAIN_PKGS)
                print(prepare_sources(cache_dir()))
    except Unreachable as e:
        log("Debian's packages cannot be reached: %s" % e)
        return EXIT_UNREACHABLE
    except subprocess.CalledProcessError as e:
        log("failed: %s" % e)
        return 1
    log("done in %.1f s" % (time.time() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
