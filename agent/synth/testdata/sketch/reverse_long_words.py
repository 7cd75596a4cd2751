def wordwise(s):
    words = s.split(" ")
    return " ".join([w[::-1] if len(w) > 4 else w for i, w in enumerate(words)])


def solve(input_data):
    s = input_data
    return wordwise(s)
