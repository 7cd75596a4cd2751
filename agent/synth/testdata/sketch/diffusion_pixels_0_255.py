def error_diffusion(xs):
    carry, out = 0, []
    for x in xs:
        v = x + carry
        level = 255 if v >= 128 else 0
        carry = v - 255 if level == 255 else v
        out.append(level)
    return out


def solve(input_data):
    xs = input_data
    return error_diffusion(xs)
