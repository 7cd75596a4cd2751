"""Hidden program for hard_bit_runs: the lengths of the alternating runs, starting with a run of zeros (of length 0 when the list starts with 1).

Input: list of bits (0 or 1); 0 to 14 bits.
Invalid input raises ValueError.
"""


def bit_runs(bits):
    """The lengths of the alternating runs, starting with a run of zeros (of length 0 when the list starts with 1)."""
    bits = _bit_list(bits, 0, 14)
    out, cur, n = [], 0, 0
    for b in bits:
        if b == cur:
            n += 1
        else:
            out.append(n)
            cur, n = b, 1
    if bits:
        out.append(n)
    return out


def _bit_list(x, min_len, max_len):
    """Return x when it is a list of min_len..max_len bits (0 or 1)."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} bits")
    for v in x:
        if isinstance(v, bool) or v not in (0, 1):
            raise ValueError(f"every element must be 0 or 1, got {v!r}")
    return x
