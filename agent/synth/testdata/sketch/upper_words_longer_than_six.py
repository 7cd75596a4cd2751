def wordwise(s):
    words = s.split(" ")
    return " ".join([w.upper() if len(w) > 6 else w for i, w in enumerate(words)])


def solve(input_data):
    s = input_data
    return wordwise(s)
