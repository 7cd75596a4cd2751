"""Hidden program for hard_postfix_to_infix: the same expression in infix notation with every operation wrapped in parentheses, e.g. ["a", "b", "+"] gives "(a+b)".

Input: a postfix expression as a list of one-character tokens: letters a-z and the operators + - * /; well-formed, 1 to 11 tokens.
Invalid input raises ValueError.
"""


def postfix_to_infix(tokens):
    """The expression in fully parenthesised infix notation."""
    if not isinstance(tokens, list) or not 1 <= len(tokens) <= 11:
        raise ValueError("expected a list of 1 to 11 tokens")
    stack = []
    for t in tokens:
        if not isinstance(t, str) or len(t) != 1:
            raise ValueError(f"every token must be one character, got {t!r}")
        if t in "+-*/":
            if len(stack) < 2:
                raise ValueError(f"operator {t!r} lacks its operands")
            b, a = stack.pop(), stack.pop()
            stack.append(f"({a}{t}{b})")
        elif "a" <= t <= "z":
            stack.append(t)
        else:
            raise ValueError(f"unknown token {t!r}")
    if len(stack) != 1:
        raise ValueError("the expression must leave exactly one value")
    return stack[0]
