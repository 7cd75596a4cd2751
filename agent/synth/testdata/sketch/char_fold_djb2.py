def char_fold(s):
    h = 5381
    for c in s:
        v = ord(c)
        h = (h * 33 + v) % 4294967296
    return h


def solve(input_data):
    s = input_data
    return char_fold(s)
