"""Hidden program for algorithm_postfix_max_depth: the largest number of values on the stack at any moment while the expression is evaluated.

Input: a well-formed postfix expression: digits 0-9, and operators coded 10 (+), 11 (-) and 12 (*); 1 to 15 tokens.
Invalid input raises ValueError.
"""


def postfix_max_depth(tokens):
    """The largest stack depth reached while evaluating the postfix expression."""
    tokens = _int_list(tokens, 0, 12, 1, 15)
    depth = best = 0
    for t in tokens:
        if t >= 10:
            if depth < 2:
                raise ValueError("an operator lacks its operands")
            depth -= 1
        else:
            depth += 1
        best = max(best, depth)
    if depth != 1:
        raise ValueError("the expression must leave exactly one value")
    return best


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
