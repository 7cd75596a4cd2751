def wordwise(s):
    words = s.split()
    return " ".join([w.capitalize() for i, w in enumerate(words)])


def solve(input_data):
    s = input_data
    return wordwise(s)
