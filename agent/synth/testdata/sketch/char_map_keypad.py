def char_map(s):
    table = {" ": "0", "a": "2", "b": "2", "c": "2", "d": "3", "e": "3", "f": "3", "g": "4"}
    out = []
    for c in s:
        v = table[c]
        out.append(v)
    return "".join(out)


def solve(input_data):
    s = input_data
    return char_map(s)
