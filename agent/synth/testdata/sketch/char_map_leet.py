def char_map(s):
    table = {"a": "4", "e": "3", "o": "0"}
    out = []
    for c in s:
        if c.lower() in table:
            v = table[c.lower()]
        else:
            v = c
        out.append(v)
    return "".join(out)


def solve(input_data):
    s = input_data
    return char_map(s)
