"""The board's LittleFS filesystem as an image file, for the emulated Pico
(simulator/pico.py: the modelled board's flash; host_tools/emulator.py:
files to put on it). Needs littlefs-python (.venv-pico)."""
import os

# The RPI_PICO flash layout of MicroPython's rp2 port: the filesystem is the
# last 1408 KiB of the 2 MiB flash, in 4 KiB blocks (mounted with progsize 256).
LFS_BLOCK_SIZE = 4096
LFS_BLOCK_COUNT = 352


def make_littlefs(src_dir, out_path):
    """A LittleFS v2 image of the tree under src_dir, for the RPI_PICO layout."""
    from littlefs import LittleFS, UserContext

    ctx = UserContext(buffsize=LFS_BLOCK_SIZE * LFS_BLOCK_COUNT)
    fs = LittleFS(context=ctx, block_size=LFS_BLOCK_SIZE, block_count=LFS_BLOCK_COUNT, prog_size=256)
    for dirpath, dirnames, filenames in os.walk(src_dir):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        rel = os.path.relpath(dirpath, src_dir)
        if rel != ".":
            fs.makedirs(rel.replace(os.sep, "/"), exist_ok=True)
        for name in sorted(filenames):
            if name.endswith(".pyc"):
                continue
            dest = name if rel == "." else rel.replace(os.sep, "/") + "/" + name
            with open(os.path.join(dirpath, name), "rb") as f, fs.open(dest, "wb") as g:
                g.write(f.read())
    fs.unmount()
    os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)
    with open(out_path, "wb") as f:
        f.write(ctx.buffer)
    return out_path
