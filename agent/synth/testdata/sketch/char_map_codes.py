def char_map(s):
    table = {" ": "/", "a": ".-", "b": "-...", "c": "-.-.", "d": "-..", "e": "."}
    out = []
    for c in s:
        v = table[c]
        out.append(v)
    return " ".join(out)


def solve(input_data):
    s = input_data
    return char_map(s)
