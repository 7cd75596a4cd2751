"""Hidden program for algorithm_popped_values: the values removed by the pops, in the order they are removed (a pop on an empty stack removes nothing).

Input: list of integers; positive ones are pushed onto a stack, a 0 pops the top; 0 to 14 integers from 0 to 9.
Invalid input raises ValueError.
"""


def popped_values(tokens):
    """The values removed by the pops, in order."""
    tokens = _int_list(tokens, 0, 9, 0, 14)
    stack, out = [], []
    for t in tokens:
        if t:
            stack.append(t)
        elif stack:
            out.append(stack.pop())
    return out


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
