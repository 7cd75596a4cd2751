def wordwise(s):
    words = s.split(" ")
    return " ".join([w.lower() if w.lower() in {"a", "and", "of", "the"} and i * (len(words) - 1 - i) > 0 else w.capitalize() for i, w in enumerate(words)])


def solve(input_data):
    s = input_data
    return wordwise(s)
