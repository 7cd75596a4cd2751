def align(words):
    a, b = words
    prev = [0 for j in range(len(b) + 1)]
    for i in range(1, len(a) + 1):
        cur = [0]
        for j in range(1, len(b) + 1):
            up, left = prev[j], cur[j - 1]
            cur.append(prev[j - 1] + 1 if a[i - 1] == b[j - 1] else max(up, left))
        prev = cur
    return prev[-1]


def solve(input_data):
    words = input_data
    return align(words)
