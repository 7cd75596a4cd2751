"""Hidden program for hard_eval_rpn: the value of the reverse-Polish expression.

Input: expression in reverse Polish notation: list of tokens, digits "0".."9" and operators "+", "-", "*"; a well-formed expression of 1 to 13 tokens.
Invalid input raises ValueError.
"""


def eval_rpn(tokens):
    """Evaluate a postfix expression over single digits with +, - and *."""
    if not isinstance(tokens, list) or not 1 <= len(tokens) <= 13:
        raise ValueError("expected a list of 1 to 13 tokens")
    stack = []
    for tok in tokens:
        if isinstance(tok, str) and len(tok) == 1 and tok.isdigit():
            stack.append(int(tok))
        elif tok in ("+", "-", "*"):
            if len(stack) < 2:
                raise ValueError(f"operator {tok!r} lacks operands")
            b, a = stack.pop(), stack.pop()
            stack.append(a + b if tok == "+" else a - b if tok == "-" else a * b)
        else:
            raise ValueError(f"unknown token {tok!r}")
    if len(stack) != 1:
        raise ValueError("the expression leaves more than one value")
    return stack[0]
