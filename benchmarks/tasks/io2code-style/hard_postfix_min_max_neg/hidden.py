"""Hidden program for hard_postfix_min_max_neg: the value of the expression.

Input: list of tokens in postfix order: integers from -9 to 9 (as JSON numbers) and the words "max", "min" (two operands) and "neg" (one operand); a well-formed expression of 1 to 13 tokens.
Invalid input raises ValueError.
"""


def eval_min_max_neg(tokens):
    """The value of a postfix expression with max, min and neg."""
    if not isinstance(tokens, list) or not 1 <= len(tokens) <= 13:
        raise ValueError("expected a list of 1 to 13 tokens")
    stack = []
    for t in tokens:
        if t in ("max", "min"):
            if len(stack) < 2:
                raise ValueError(f"{t} lacks its two operands")
            b, a = stack.pop(), stack.pop()
            stack.append(max(a, b) if t == "max" else min(a, b))
        elif t == "neg":
            if not stack:
                raise ValueError("neg lacks its operand")
            stack.append(-stack.pop())
        elif isinstance(t, int) and not isinstance(t, bool) and -9 <= t <= 9:
            stack.append(t)
        else:
            raise ValueError(f"unknown token {t!r}")
    if len(stack) != 1:
        raise ValueError("the expression must leave exactly one value")
    return stack[0]
