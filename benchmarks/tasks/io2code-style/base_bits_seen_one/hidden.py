"""Hidden program for base_bits_seen_one: 0 until the first 1, then 1 at that position and everywhere after it.

Input: list of bits; 0 to 15 bits.
Invalid input raises ValueError.
"""


def seen_one(bits):
    """0 until the first 1, then 1 from there on."""
    bits = _bit_list(bits, 0, 15)
    seen, out = 0, []
    for b in bits:
        seen = seen or b
        out.append(seen)
    return out


def _bit_list(x, min_len, max_len):
    """Return x when it is a list of min_len..max_len bits (0 or 1)."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} bits")
    for v in x:
        if isinstance(v, bool) or v not in (0, 1):
            raise ValueError(f"every element must be 0 or 1, got {v!r}")
    return x
