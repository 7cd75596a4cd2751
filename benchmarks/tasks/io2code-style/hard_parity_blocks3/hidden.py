"""Hidden program for hard_parity_blocks3: the parity (xor) of each block of three bits; the last block may be shorter.

Input: list of bits (0 or 1); 0 to 14 bits.
Invalid input raises ValueError.
"""


def parity_blocks3(bits):
    """The parity (xor) of each block of three bits; the last block may be shorter."""
    bits = _bit_list(bits, 0, 14)
    return [sum(bits[i:i + 3]) % 2 for i in range(0, len(bits), 3)]


def _bit_list(x, min_len, max_len):
    """Return x when it is a list of min_len..max_len bits (0 or 1)."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} bits")
    for v in x:
        if isinstance(v, bool) or v not in (0, 1):
            raise ValueError(f"every element must be 0 or 1, got {v!r}")
    return x
