def char_fold(s):
    h = 0
    for c in s:
        v = ord(c)
        h = (h * 31 + v) % 1000003
    return h


def solve(input_data):
    s = input_data
    return char_fold(s)
