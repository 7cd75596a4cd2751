def digit_loop(xs, ys):
    a = list(xs)
    b = list(ys)
    n = max(len(a), len(b))
    a += [0] * (n - len(a))
    b += [0] * (n - len(b))
    out, carry = [], 0
    for i in range(len(a)):
        t = a[i] + b[i] + carry
        carry = t // 2
        out.append(t % 2)
    if carry:
        out.append(carry)
    return out


def solve(input_data):
    xs, ys = input_data
    return digit_loop(xs, ys)
