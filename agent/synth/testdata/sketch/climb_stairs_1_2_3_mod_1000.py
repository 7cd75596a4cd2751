def recurrence_table(n):
    f = [1] * (n + 1)
    for i in range(1, n + 1):
        f[i] = sum(f[i - s] for s in (1, 2, 3) if s <= i) % 1000
    return f[n]


def solve(input_data):
    n = input_data
    return recurrence_table(n)
