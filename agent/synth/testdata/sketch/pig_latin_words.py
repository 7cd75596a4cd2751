def cut_before_vowel(w):
    k = 0
    while k < len(w) and not (w[k] in "aeiouAEIOU"):
        k += 1
    return w[:k], w[k:]


def wordwise(s):
    words = s.split(" ")
    return " ".join([rest + (head + "ay") if head.isalpha() else w + "way" for i, w in enumerate(words) for head, rest in [cut_before_vowel(w)]])


def solve(input_data):
    s = input_data
    return wordwise(s)
