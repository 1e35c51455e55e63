"""What is read from input, bounded: regular files only (a FIFO or device could block its reader forever), and caps
on what is unpacked from a zip member or a compressed HTTP body (a decompression bomb is refused, with why)."""

from __future__ import annotations

import stat
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path

from factstore.errors import LoadError

MAX_UNPACKED = 4 << 30  # bytes of one member or body once unpacked (the SEC's largest, an FSDS num.txt, is < 1 GiB)
MAX_RATIO = 200  # unpacked / packed: the SEC's JSON and tab-separated files pack 5-20 times
RATIO_FLOOR = 64 << 20  # below this many bytes unpacked, any ratio passes (a small file of repeats packs well)
BLOCK = 1 << 20  # bytes unpacked at a time, each checked against the caps before the next


def too_big(packed: int, unpacked: int) -> str | None:
    """Why a member or body that unpacked this far is refused, or None while it is within the caps."""
    if unpacked > MAX_UNPACKED:
        return f"it unpacks past {MAX_UNPACKED:,} bytes"
    if unpacked > RATIO_FLOOR and unpacked > MAX_RATIO * max(packed, 1):
        return f"it unpacks to more than {MAX_RATIO} times its {packed:,} packed bytes (a decompression bomb?)"
    return None


def input_path(path: str | Path, *, folder: bool = False) -> Path:
    """A path input is read from, checked without opening it: a regular file (or a folder, where `folder`), else a
    LoadError naming it (missing, a folder, or a FIFO, socket or device, whose reading could wait forever)."""
    path = Path(path)
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        raise LoadError(str(path), f"cannot read: {exc.strerror or exc}") from exc
    if stat.S_ISDIR(mode) and not folder:
        raise LoadError(str(path), "a folder, not a file")
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        raise LoadError(str(path), "not a regular file (a FIFO, socket or device); refusing to read it")
    return path


def member_blocks(archive: zipfile.ZipFile, name: str, source: str) -> Iterator[bytes]:
    """A zip member's bytes as they unpack, a block at a time: a LoadError naming `source` once it is past the caps
    (before the block that passes them is handed on), or where the archive cannot give it."""
    packed, size = archive.getinfo(name).compress_size, 0
    try:
        with archive.open(name) as src:
            while block := src.read(BLOCK):
                size += len(block)
                if why := too_big(packed, size):
                    raise LoadError(source, f"refused: {why}")
                yield block
    except (zipfile.BadZipFile, OSError, EOFError, zlib.error) as exc:
        raise LoadError(source, f"cannot read the member: {exc}") from exc


def read_member(archive: zipfile.ZipFile, name: str, source: str) -> bytes:
    """A zip member's bytes, read through member_blocks (never past the caps)."""
    return b"".join(member_blocks(archive, name, source))


def inflate(packed: bytes, wbits: int, source: str) -> tuple[bytes, bool]:
    """A gzip or deflate stream (zlib's `wbits`) unpacked a block at a time, a LoadError naming `source` once it is
    past the caps; with whether the stream reached its end. zlib.error where it is corrupt."""
    stream, blocks, size, rest = zlib.decompressobj(wbits), [], 0, packed
    while True:
        block = stream.decompress(rest, BLOCK)
        rest = stream.unconsumed_tail
        size += len(block)
        if why := too_big(len(packed), size):
            raise LoadError(source, f"refused: {why}")
        blocks.append(block)
        if stream.eof or (not rest and len(block) < BLOCK):  # a full block may leave output inside zlib: go on
            return b"".join(blocks), stream.eof
