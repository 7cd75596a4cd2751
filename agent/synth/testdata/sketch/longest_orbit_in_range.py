def parity_orbit(a, b):
    def orbit_of(m):
        if m < 1:
            raise ValueError("an orbit starts at a positive integer")
        count, peak = 0, m
        while m != 1:
            if count == 10000:
                raise ValueError("the orbit does not reach 1")
            m = m // 2 if m % 2 == 0 else 3 * m + 1
            count += 1
            peak = max(peak, m)
        return count, peak
    lo, hi = min(a, b), max(a, b)
    return max(range(lo, hi + 1), key=lambda m: (orbit_of(m)[0], -m))


def solve(input_data):
    a, b = input_data
    return parity_orbit(a, b)
