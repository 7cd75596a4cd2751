def wordwise(s):
    words = s.split("_")
    return "".join([w.capitalize() if i > 0 else w for i, w in enumerate(words)])


def solve(input_data):
    s = input_data
    return wordwise(s)
