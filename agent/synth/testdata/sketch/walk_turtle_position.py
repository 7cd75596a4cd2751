def walk(s):
    x, y, dx, dy = 0, 0, 0, 1
    for c in s:
        if c == "F":
            x, y = x + dx, y + dy
        elif c == "L":
            dx, dy = -dy, dx
        elif c == "R":
            dx, dy = dy, -dx
    return [x, y]


def solve(input_data):
    s = input_data
    return walk(s)
