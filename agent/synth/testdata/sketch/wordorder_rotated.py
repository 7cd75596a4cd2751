def word_order(text, k):
    words = text.split(" ")
    return " ".join([words[j + (k - len(words))] for j in range(len(words))])


def solve(input_data):
    text, k = input_data
    return word_order(text, k)
