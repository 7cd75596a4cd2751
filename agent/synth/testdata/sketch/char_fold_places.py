def char_fold(s):
    table = {" ": 0, "-": 2}
    h = 0
    for c in s:
        if c in table:
            v = table[c]
        elif "a" <= c <= "z" or "A" <= c <= "Z":
            v = ord(c.lower()) - ord("a") + 1
        else:
            raise KeyError(c)
        h = h + v
    return h


def solve(input_data):
    s = input_data
    return char_fold(s)
