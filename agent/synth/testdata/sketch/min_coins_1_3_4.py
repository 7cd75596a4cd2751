def recurrence_table(n):
    f = [0] * (n + 1)
    for i in range(1, n + 1):
        f[i] = 1 + min(f[i - s] for s in (1, 3, 4) if s <= i)
    return f[n]


def solve(input_data):
    n = input_data
    return recurrence_table(n)
