"""Hidden program for algorithm_postfix_is_valid: whether the tokens form a well-formed postfix expression: no operator lacks its two operands and exactly one value is left at the end.

Input: tokens: digits 0 to 9 and the operator codes 10 and 11; 0 to 12 tokens.
Invalid input raises ValueError.
"""


def postfix_is_valid(tokens):
    """Whether the tokens form a well-formed postfix expression with binary operators 10 and 11."""
    tokens = _int_list(tokens, 0, 11, 0, 12)
    depth = 0
    for t in tokens:
        if t >= 10:
            if depth < 2:
                return False
            depth -= 1
        else:
            depth += 1
    return depth == 1


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
