def parity_orbit(n):
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
    return orbit_of(n)[1]


def solve(input_data):
    n = input_data
    return parity_orbit(n)
