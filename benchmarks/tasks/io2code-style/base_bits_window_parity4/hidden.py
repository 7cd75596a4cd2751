"""Hidden program for base_bits_window_parity4: the xor of every bit with the three bits before it (bits before the start count as 0).

Input: list of bits; 0 to 16 bits, each 0 or 1.
Invalid input raises ValueError.
"""


def window_parity4(bits):
    """The xor of every bit with the three bits before it; missing bits count as 0."""
    bits = _bit_list(bits, 0, 16)
    out = []
    for i in range(len(bits)):
        p = 0
        for b in bits[max(0, i - 3):i + 1]:
            p ^= b
        out.append(p)
    return out


def _bit_list(x, min_len, max_len):
    """Return x when it is a list of min_len..max_len bits (0 or 1)."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} bits")
    for v in x:
        if isinstance(v, bool) or v not in (0, 1):
            raise ValueError(f"every element must be 0 or 1, got {v!r}")
    return x
