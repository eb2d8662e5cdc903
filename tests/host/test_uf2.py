"""host_tools/uf2.py: flat image -> UF2 blocks as the RP2040 bootrom takes them."""
import struct

import pytest

import host_tools  # noqa: F401
from host_tools import uf2


def test_blocks_follow_the_uf2_spec_for_the_rp2040():
    data = bytes(range(256)) * 2 + b"\x01\x02\x03"  # 2 full pages and a partial one
    out = uf2.convert(data)
    assert len(out) == 3 * 512
    for i in range(3):
        b = out[i * 512:(i + 1) * 512]
        m0, m1, flags, addr, size, no, num, fam = struct.unpack_from("<8I", b)
        assert (m0, m1) == (0x0A324655, 0x9E5D5157)
        assert struct.unpack_from("<I", b, 508)[0] == 0x0AB16F30
        assert flags == 0x2000 and fam == 0xE48BFF56
        assert addr == 0x10000000 + 256 * i and size == 256
        assert (no, num) == (i, 3)
        assert b[32 + 256:508] == bytes(476 - 256)
    last = out[1024 + 32:1024 + 32 + 256]
    assert last == b"\x01\x02\x03" + bytes(253)


def test_round_trip_and_family_less_variant():
    data = bytes((i * 7) & 0xFF for i in range(5000))
    assert uf2.image(uf2.convert(data))[:len(data)] == data
    blocks = uf2.parse(uf2.convert(data, family_id=None))
    assert all(b[0] == 0 and b[5] == len(data) for b in blocks)


def test_bad_input_is_refused():
    with pytest.raises(ValueError):
        uf2.convert(b"", 0x10000000)
    with pytest.raises(ValueError):
        uf2.convert(b"x", 0x10000001)
    good = bytearray(uf2.convert(b"abc"))
    good[0] ^= 1
    with pytest.raises(ValueError):
        uf2.parse(bytes(good))
    with pytest.raises(ValueError):
        uf2.parse(b"\0" * 100)
