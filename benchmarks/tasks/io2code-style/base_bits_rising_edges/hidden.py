"""Hidden program for base_bits_rising_edges: 1 where a bit is 1 and the bit before it is 0 (the bit before the first counts as 0), else 0.

Input: list of bits (0/1); up to 16 bits.
Invalid input raises ValueError.
"""


def rising_edges(bits):
    """1 where a bit is 1 and the bit before it 0 (0 before the start), else 0."""
    bits = _bit_list(bits, 0, 16)
    prev, out = 0, []
    for b in bits:
        out.append(1 if b == 1 and prev == 0 else 0)
        prev = b
    return out


def _bit_list(x, min_len, max_len):
    """Return x when it is a list of min_len..max_len bits (0 or 1)."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} bits")
    for v in x:
        if isinstance(v, bool) or v not in (0, 1):
            raise ValueError(f"every element must be 0 or 1, got {v!r}")
    return x
