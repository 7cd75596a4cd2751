def align(words):
    a, b = words
    prev = [j for j in range(len(b) + 1)]
    for i in range(1, len(a) + 1):
        cur = [i]
        for j in range(1, len(b) + 1):
            up, left = prev[j], cur[j - 1]
            diag = prev[j - 1]
            cur.append(prev[j - 1] if a[i - 1] == b[j - 1] else 1 + min(up, left, diag))
        prev = cur
    return prev[-1]


def solve(input_data):
    words = input_data
    return align(words)
