"""Caps on what is unpacked from a zip member or a compressed HTTP body: a decompression bomb is refused, with why."""

from __future__ import annotations

MAX_UNPACKED = 4 << 30  # bytes of one member or body once unpacked (the SEC's largest, an FSDS num.txt, is < 1 GiB)
MAX_RATIO = 200  # unpacked / packed: the SEC's JSON and tab-separated files pack 5-20 times
RATIO_FLOOR = 64 << 20  # below this many bytes unpacked, any ratio passes (a small file of repeats packs well)


def too_big(packed: int, unpacked: int) -> str | None:
    """Why a member or body that unpacked this far is refused, or None while it is within the caps."""
    if unpacked > MAX_UNPACKED:
        return f"it unpacks past {MAX_UNPACKED:,} bytes"
    if unpacked > RATIO_FLOOR and unpacked > MAX_RATIO * max(packed, 1):
        return f"it unpacks to more than {MAX_RATIO} times its {packed:,} packed bytes (a decompression bomb?)"
    return None
