def wordwise(s):
    words = s.split(" ")
    return " ".join([w[::-1] if 2 ** 2 < len(w) else w for i, w in enumerate(words)])


def solve(input_data):
    s = input_data
    return wordwise(s)
