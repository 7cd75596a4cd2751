def digit_loop(xs, ys):
    a = xs[::-1]  # least significant digit first
    b = ys[::-1]  # least significant digit first
    n = max(len(a), len(b))
    a += [0] * (n - len(a))
    b += [0] * (n - len(b))
    out, carry = [], 0
    for i in range(len(a)):
        t = a[i] - b[i] + carry
        carry = t // 10
        out.append(t % 10)
    if carry:
        out.append(carry)
    while len(out) > 1 and out[-1] == 0:
        out.pop()
    return out[::-1]


def solve(input_data):
    xs, ys = input_data
    return digit_loop(xs, ys)
