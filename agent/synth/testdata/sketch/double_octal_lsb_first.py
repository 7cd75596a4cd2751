def digit_loop(xs):
    a = list(xs)
    out, carry = [], 0
    for i in range(len(a)):
        t = 2 * a[i] + carry
        carry = t // 8
        out.append(t % 8)
    if carry:
        out.append(carry)
    return out


def solve(input_data):
    xs = input_data
    return digit_loop(xs)
