"""Flat flash image -> UF2, the file a Pico in BOOTSEL mode takes by drag and drop.

    python3 -m host_tools.uf2 firmware.bin out.uf2 [--base 0x10000000]

UF2 (https://github.com/microsoft/uf2): 512-byte blocks, each
    0  magicStart0 0x0A324655   4  magicStart1 0x9E5D5157
    8  flags                   12  targetAddr
   16  payloadSize             20  blockNo
   24  numBlocks               28  familyID (flags & 0x2000) or fileSize
   32  data[476]              508  magicEnd 0x0AB16F30
The RP2040 bootrom writes whole 256-byte flash pages, so every block carries
256 bytes for a 256-aligned address (the rest of data[] is zero), and it
takes blocks marked with the RP2040 family ID (flag 0x2000, familyID
0xe48bff56), as picotool and elf2uf2 write them.
"""
import os
import struct
import sys

MAGIC_START0 = 0x0A324655
MAGIC_START1 = 0x9E5D5157
MAGIC_END = 0x0AB16F30
FLAG_NOT_MAIN_FLASH = 0x00000001
FLAG_FAMILY_ID_PRESENT = 0x00002000
RP2040_FAMILY_ID = 0xE48BFF56
FLASH_BASE = 0x10000000
PAYLOAD = 256
BLOCK = 512

_HEAD = struct.Struct("<8I")


def convert(data, base=FLASH_BASE, family_id=RP2040_FAMILY_ID):
    """UF2 bytes for the flat image `data` to be written from `base` on.
    family_id=None writes family-less blocks (flags 0, fileSize in word 7)."""
    if base % PAYLOAD:
        raise ValueError("base address must be 256-aligned")
    if not data:
        raise ValueError("empty image")
    n = (len(data) + PAYLOAD - 1) // PAYLOAD
    flags = FLAG_FAMILY_ID_PRESENT if family_id is not None else 0
    word7 = family_id if family_id is not None else len(data)
    out = bytearray()
    for i in range(n):
        chunk = data[i * PAYLOAD:(i + 1) * PAYLOAD]
        chunk = bytes(chunk) + b"\0" * (PAYLOAD - len(chunk))
        out += _HEAD.pack(MAGIC_START0, MAGIC_START1, flags, base + i * PAYLOAD,
                          PAYLOAD, i, n, word7)
        out += chunk + b"\0" * (476 - PAYLOAD)
        out += struct.pack("<I", MAGIC_END)
    return bytes(out)


def parse(uf2):
    """[(flags, address, payload, block_no, num_blocks, word7)] of a UF2 file,
    checking the magic numbers and sizes; raises ValueError on a bad file."""
    if len(uf2) % BLOCK:
        raise ValueError("UF2 size %d is not a multiple of 512" % len(uf2))
    blocks = []
    for off in range(0, len(uf2), BLOCK):
        b = uf2[off:off + BLOCK]
        m0, m1, flags, addr, size, no, num, word7 = _HEAD.unpack_from(b)
        (mend,) = struct.unpack_from("<I", b, 508)
        if (m0, m1, mend) != (MAGIC_START0, MAGIC_START1, MAGIC_END):
            raise ValueError("bad magic in block at offset %d" % off)
        if size > 476:
            raise ValueError("payload size %d too large" % size)
        blocks.append((flags, addr, bytes(b[32:32 + size]), no, num, word7))
    return blocks


def image(uf2, base=FLASH_BASE):
    """The flat image a UF2 describes (gaps filled with 0xFF), for checks."""
    out = bytearray()
    for flags, addr, payload, _, _, _ in parse(uf2):
        if flags & FLAG_NOT_MAIN_FLASH:
            continue
        off = addr - base
        if off < 0:
            raise ValueError("address 0x%08x below base" % addr)
        if len(out) < off + len(payload):
            out += b"\xff" * (off + len(payload) - len(out))
        out[off:off + len(payload)] = payload
    return bytes(out)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--base"):
        sys.stderr.write("usage: python3 -m host_tools.uf2 IN.bin OUT.uf2 [--base 0x10000000]\n")
        return 2
    base = int(argv[3], 0) if len(argv) == 4 else FLASH_BASE
    with open(argv[0], "rb") as f:
        data = f.read()
    os.makedirs(os.path.dirname(os.path.abspath(argv[1])), exist_ok=True)
    with open(argv[1], "wb") as f:
        f.write(convert(data, base))
    return 0


if __name__ == "__main__":
    sys.exit(main())
