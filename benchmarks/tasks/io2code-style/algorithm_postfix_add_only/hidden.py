"""Hidden program for algorithm_postfix_add_only: the value of the expression.

Input: a postfix expression coded as integers: 0-9 are operands and 10 means addition; a well-formed expression of 1 to 15 tokens.
Invalid input raises ValueError.
"""


def eval_postfix_sum(tokens):
    """The value of a postfix expression over digits where 10 means +."""
    tokens = _int_list(tokens, 0, 10, 1, 15)
    stack = []
    for t in tokens:
        if t == 10:
            if len(stack) < 2:
                raise ValueError("an addition lacks its operands")
            stack.append(stack.pop() + stack.pop())
        else:
            stack.append(t)
    if len(stack) != 1:
        raise ValueError("the expression must leave exactly one value")
    return stack[0]


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
