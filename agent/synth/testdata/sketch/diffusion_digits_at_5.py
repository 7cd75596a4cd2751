def error_diffusion(xs):
    carry, out = 0, []
    for x in xs:
        v = x + carry
        level = int(v >= 5)
        carry = v - 10 * level
        out.append(level)
    return out


def solve(input_data):
    xs = input_data
    return error_diffusion(xs)
