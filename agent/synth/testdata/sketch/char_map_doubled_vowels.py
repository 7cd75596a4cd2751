def char_map(s):
    table = {"a": "a0", "b": "b", "c": "c", "d": "d", "e": "e4", "i": "i8", "o": "o14", "u": "u20"}
    out = []
    for c in s:
        v = table[c]
        out.append(v)
    return "".join(out)


def solve(input_data):
    s = input_data
    return char_map(s)
