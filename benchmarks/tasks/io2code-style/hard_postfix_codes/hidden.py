"""Hidden program for hard_postfix_codes: the value of the expression (for - the operand on top of the stack is subtracted from the one below it).

Input: digits and operator codes above 9: 10 is +, 11 is -, 12 is *; a well-formed postfix expression of 1 to 13 tokens.
Invalid input raises ValueError.
"""


def eval_postfix_codes(tokens):
    """The value of a postfix expression over digits with +, -, * coded 10, 11, 12."""
    tokens = _int_list(tokens, 0, 12, 1, 13)
    stack = []
    for t in tokens:
        if t <= 9:
            stack.append(t)
            continue
        if len(stack) < 2:
            raise ValueError(f"operator code {t} lacks its operands")
        b, a = stack.pop(), stack.pop()
        stack.append(a + b if t == 10 else a - b if t == 11 else a * b)
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
