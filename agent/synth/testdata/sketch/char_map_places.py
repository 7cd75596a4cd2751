def char_map(s):
    table = {" ": 0}
    out = []
    for c in s:
        if c in table:
            v = table[c]
        elif "a" <= c <= "z" or "A" <= c <= "Z":
            v = ord(c.lower()) - ord("a") + 1
        else:
            raise KeyError(c)
        out.append(v)
    return out


def solve(input_data):
    s = input_data
    return char_map(s)
