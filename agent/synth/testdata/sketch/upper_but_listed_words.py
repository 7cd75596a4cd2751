def wordwise(s):
    words = s.split(" ")
    return " ".join([w.lower() if w.lower() in {"a", "and", "of", "the"} else w.upper() for i, w in enumerate(words)])


def solve(input_data):
    s = input_data
    return wordwise(s)
