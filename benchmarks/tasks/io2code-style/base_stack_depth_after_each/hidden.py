"""Hidden program for base_stack_depth_after_each: the depth of the stack after each token.

Input: list of integers: a positive number is pushed onto a stack, a 0 pops the top (a pop on an empty stack does nothing); 0 to 14 integers, each between 0 and 9.
Invalid input raises ValueError.
"""


def stack_depths(tokens):
    """The depth of the stack after each token."""
    tokens = _int_list(tokens, 0, 9, 0, 14)
    stack, out = [], []
    for t in tokens:
        if t == 0:
            if stack:
                stack.pop()
        else:
            stack.append(t)
        out.append(len(stack))
    return out


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
