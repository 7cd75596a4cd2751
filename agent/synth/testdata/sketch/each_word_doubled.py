def wordwise(s):
    words = s.split(" ")
    return " ".join([w + w for i, w in enumerate(words)])


def solve(input_data):
    s = input_data
    return wordwise(s)
