#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check a PNG that a real renderer made from an SVG, as a person would look
at it: the size the SVG asks for, and a picture rather than a blank page.

    scripts/check-png.py FILE.svg FILE.png [MIN_COLOURS]

Exit 0 when the PNG is the SVG's width x height, holds at least MIN_COLOURS
distinct colours (default 16) and has ink (pixels that are not white) on
between 2% and 98% of its area; else one line saying what is wrong, exit 1.
The standard library only: the PNG is decoded here (8-bit RGB or RGBA, not
interlaced, which is what rsvg-convert writes)."""
import collections
import re
import struct
import sys
import zlib


def svg_size(path):
    with open(path, encoding="utf-8") as f:
        head = f.read(4096)
    m = re.search(r'<svg[^>]*\swidth="(\d+)"[^>]*\sheight="(\d+)"', head)
    if not m:
        sys.exit(f"check-png: {path} has no <svg width=... height=...>")
    return int(m.group(1)), int(m.group(2))


def chunks(data):
    pos = 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        yield kind, data[pos + 8:pos + 8 + length]
        pos += 12 + length


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def add_bytes(line, prev):
    """(line[i] + prev[i]) mod 256 for every i, on two big integers instead
    of a Python-level loop per byte: the low 7 bits of each byte add without
    reaching the next byte, and bit 7 is the carry into it xor both bit 7s."""
    size = len(line)
    low7 = int.from_bytes(b"\x7f" * size, "little")
    bit7 = int.from_bytes(b"\x80" * size, "little")
    a, b = int.from_bytes(line, "little"), int.from_bytes(prev, "little")
    total = ((a & low7) + (b & low7)) ^ ((a ^ b) & bit7)
    return bytearray(total.to_bytes(size, "little"))


def unfilter_row(kind, line, prev, bpp):
    if kind == 0:
        return line
    if kind == 2:  # up: the common case, every byte at once (see add_bytes)
        return add_bytes(line, prev)
    for i in range(len(line)):
        left = line[i - bpp] if i >= bpp else 0
        up = prev[i]
        corner = prev[i - bpp] if i >= bpp else 0
        add = (0, left, up, (left + up) // 2, paeth(left, up, corner))[kind]
        line[i] = (line[i] + add) & 0xFF
    return line


def unfilter(raw, width, height, bpp):
    stride = width * bpp
    rows, prev, pos = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        prev = unfilter_row(kind, line, prev, bpp)
        rows.append(prev)
    return rows


def decode(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"check-png: {path} is not a PNG")
    idat = b""
    for kind, body in chunks(data):
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    if depth != 8 or colour not in (2, 6) or interlace:
        sys.exit(f"check-png: {path}: only 8-bit RGB or RGBA, not interlaced, is decoded here")
    bpp = 4 if colour == 6 else 3
    return width, height, bpp, unfilter(zlib.decompress(idat), width, height, bpp)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: scripts/check-png.py FILE.svg FILE.png [MIN_COLOURS]")
    svg, png = sys.argv[1], sys.argv[2]
    min_colours = int(sys.argv[3]) if len(sys.argv) == 4 else 16
    want = svg_size(svg)
    width, height, bpp, rows = decode(png)
    if (width, height) != want:
        sys.exit(f"check-png: {png} is {width}x{height}; {svg} asks for {want[0]}x{want[1]}")
    counts = collections.Counter()
    for line in rows:
        line = bytes(line)
        counts.update(line[x:x + bpp] for x in range(0, len(line), bpp))
    blank = sum(c for pixel, c in counts.items()
                if pixel[:3] == b"\xff\xff\xff" or (bpp == 4 and pixel[3] == 0))
    colours, share = counts, 1 - blank / (width * height)
    if len(colours) < min_colours:
        sys.exit(f"check-png: {png} has {len(colours)} distinct colours (at least {min_colours} "
                 "expected): blank or nearly so")
    if not 0.02 <= share <= 0.98:
        sys.exit(f"check-png: {png} has ink on {share:.1%} of its area: blank, or one flat fill")
    print(f"check-png: {png}: {width}x{height} as the SVG asks, {len(colours)} colours, "
          f"ink on {share:.1%}")


if __name__ == "__main__":
    main()
