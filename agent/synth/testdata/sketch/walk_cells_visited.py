def walk(s):
    x, y = 0, 0
    seen = {(0, 0)}
    for c in s:
        if c == "D":
            y += 1
            seen.add((x, y))
        elif c == "E":
            x += 1
            seen.add((x, y))
        elif c == "U":
            y -= 1
            seen.add((x, y))
        elif c == "W":
            x -= 1
            seen.add((x, y))
    return len(seen)


def solve(input_data):
    s = input_data
    return walk(s)
