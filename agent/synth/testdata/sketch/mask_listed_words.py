def wordwise(text, stop):
    words = text.split(" ")
    return " ".join(["#" * len(w) if w.lower() in stop else w for i, w in enumerate(words)])


def solve(input_data):
    text, stop = input_data
    return wordwise(text, stop)
