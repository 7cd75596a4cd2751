def segments(text, n):
    count = 0
    for seg in text.split():
        if n < len(seg):
            count += 1
    return count


def solve(input_data):
    text, n = input_data
    return segments(text, n)
