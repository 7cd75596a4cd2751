"""Hidden program for hard_bits_debounce2: the debounced state after each reading: it starts at 0 and takes a new value only once the readings have shown that value twice in a row.

Input: list of bits read from a noisy switch; 0 to 16 bits.
Invalid input raises ValueError.
"""


def debounce2(bits):
    """The debounced state: a new value is taken after two equal readings in a row."""
    bits = _bit_list(bits, 0, 16)
    state, prev, out = 0, None, []
    for b in bits:
        if b != state and b == prev:
            state = b
        out.append(state)
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
