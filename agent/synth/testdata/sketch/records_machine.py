def interpret(toks):
    stack = []
    for tok in toks:
        word, *args = tok.split(" ")
        if word == "exch":
            if len(stack) < 2:
                continue
            stack[-1], stack[-2] = stack[-2], stack[-1]
        elif word == "twice":
            if len(stack) < 1:
                continue
            stack.append(stack[-1])
        elif word == "drop":
            if len(stack) < 1:
                continue
            stack.pop()
        elif word == "put":
            stack.append(int(args[0]))
        elif word == "plus":
            if len(stack) < 2:
                continue
            b = stack.pop()
            a = stack.pop()
            stack.append(a + b)
        else:
            stack.append(int(word))
    return stack


def token(t):
    """One token as text: a record [word, arguments...] as its parts joined by spaces."""
    return " ".join(str(p) for p in t) if isinstance(t, list) else str(t)


def solve(input_data):
    toks = [token(t) for t in input_data]
    return interpret(toks)
