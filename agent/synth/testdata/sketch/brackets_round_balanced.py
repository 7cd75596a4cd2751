def brackets(s):
    stack = []
    broken = False
    for c in s:
        if c == "(":
            stack.append(c)
        elif c == ")":
            if not stack:
                broken = True
            else:
                stack.pop()
    return not broken and not stack


def solve(input_data):
    s = input_data
    return brackets(s)
