"""Hidden program for algorithm_bits_majority_last5: 1 where at least three of the last five bits are ones (bits before the start count as 0), else 0.

Input: a bit stream; 0 to 18 values, each 0 or 1.
Invalid input raises ValueError.
"""


def majority_last5(bits):
    """1 where at least three of the last five bits are ones, else 0."""
    bits = _bit_list(bits, 0, 18)
    window = [0, 0, 0, 0, 0]
    out = []
    for b in bits:
        window = window[1:] + [b]
        out.append(1 if sum(window) >= 3 else 0)
    return out


def _bit_list(x, min_len, max_len):
    """Return x when it is a list of min_len..max_len bits (0 or 1)."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} bits")
    for v in x:
        if isinstance(v, bool) or v not in (0, 1):
            raise ValueError(f"every element must be 0 or 1, got {v!r}")
    return x
