"""Hidden program for hard_wallis_product: 2 times the product of the n terms (2k/(2k-1)) * (2k/(2k+1)) for k = 1 to n, multiplied in order and not rounded (2.0 for n = 0).

Input: integer n; one integer between 0 and 500.
Invalid input raises ValueError.
"""

def wallis(n):
    """Wallis' product for pi with n factors."""
    n = _int(n, 0, 500)
    product = 2.0
    for k in range(1, n + 1):
        product *= (2 * k / (2 * k - 1)) * (2 * k / (2 * k + 1))
    return product


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
