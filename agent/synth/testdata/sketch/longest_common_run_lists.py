def align(xs, ys):
    prev = [0 for j in range(len(ys) + 1)]
    best = max(prev)
    for i in range(1, len(xs) + 1):
        cur = [0]
        for j in range(1, len(ys) + 1):
            cur.append(prev[j - 1] + 1 if xs[i - 1] == ys[j - 1] else 0)
        best = max(best, max(cur))
        prev = cur
    return best


def solve(input_data):
    xs, ys = input_data
    return align(xs, ys)
