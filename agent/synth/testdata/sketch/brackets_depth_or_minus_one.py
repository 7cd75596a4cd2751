def brackets(s):
    stack = []
    deepest = 0
    broken = False
    for c in s:
        if c in "([{":
            stack.append(c)
            deepest = max(deepest, len(stack))
        elif c in ")]}":
            if not stack:
                broken = True
            elif stack.pop() != "([{"[")]}".index(c)]:
                broken = True
    if broken or stack:
        return -1
    return deepest


def solve(input_data):
    s = input_data
    return brackets(s)
