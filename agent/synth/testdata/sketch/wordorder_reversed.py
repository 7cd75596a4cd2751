def word_order(s):
    words = s.split(" ")
    return " ".join([words[-1 - j] for j in range(len(words))])


def solve(input_data):
    s = input_data
    return word_order(s)
