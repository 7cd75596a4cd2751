def char_table(s):
    table = {"C": 100, "D": 500, "I": 1, "L": 50, "M": 1000, "V": 5, "X": 10}
    total = 0
    for i, ch in enumerate(s):
        v = table[ch]
        if i + 1 < len(s) and table[s[i + 1]] > v:
            v = -v
        total += v
    return total


def solve(input_data):
    s = input_data
    return char_table(s)
