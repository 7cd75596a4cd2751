def same_key(words):
    if len(words) != 2:
        raise ValueError("expected two strings")
    return "".join(sorted(words[0].upper())).strip() == "".join(sorted(words[1].upper())).strip()


def solve(input_data):
    words = input_data
    return same_key(words)
