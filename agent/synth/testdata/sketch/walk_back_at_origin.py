def walk(s):
    x, y = 0, 0
    for c in s:
        if c == "D":
            y += 1
        elif c == "E":
            x += 1
        elif c == "U":
            y -= 1
        elif c == "W":
            x -= 1
    return x == 0 and y == 0


def solve(input_data):
    s = input_data
    return walk(s)
