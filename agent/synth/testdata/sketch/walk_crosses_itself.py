def walk(s):
    x, y = 0, 0
    seen = {(0, 0)}
    crossed = False
    for c in s:
        if c == "D":
            y += 1
            crossed = crossed or (x, y) in seen
            seen.add((x, y))
        elif c == "E":
            x += 1
            crossed = crossed or (x, y) in seen
            seen.add((x, y))
        elif c == "U":
            y -= 1
            crossed = crossed or (x, y) in seen
            seen.add((x, y))
        elif c == "W":
            x -= 1
            crossed = crossed or (x, y) in seen
            seen.add((x, y))
    return crossed


def solve(input_data):
    s = input_data
    return walk(s)
