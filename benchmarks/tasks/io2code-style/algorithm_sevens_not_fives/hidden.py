"""Hidden program for algorithm_sevens_not_fives: the numbers from a to b inclusive that are divisible by 7 but not by 5, in increasing order.

Input: [a, b]: two integers; both between 0 and 300; when a is larger than b there is nothing between them.
Invalid input raises ValueError.
"""

def sevens_not_fives(query):
    """Multiples of 7 that are not multiples of 5, from a to b."""
    a, b = _pair(query, 0, 300)
    out = []
    for n in range(a, b + 1):
        if n % 7 == 0 and n % 5 != 0:
            out.append(n)
    return out


def _pair(x, lo, hi):
    """Return x as (a, b) when it is a list of two integers in [lo, hi]."""
    if not isinstance(x, list) or len(x) != 2:
        raise ValueError("expected a pair [a, b]")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"both members must be integers in [{lo}, {hi}], got {v!r}")
    return x[0], x[1]
