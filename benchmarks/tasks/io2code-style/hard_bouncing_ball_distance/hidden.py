"""Hidden program for hard_bouncing_ball_distance: the distance in metres the ball travels, rounded to 2 decimals, from the drop until it lands after its last bounce: it falls the height, and each bounce takes it up to ratio times the previous height and down again.

Input: [height, ratio, bounces]: the height a ball is dropped from in metres, the fraction of its height it keeps at each bounce and the number of bounces; height from 0 to 100 with at most one decimal; ratio from 0 to 1 with at most two decimals; bounces an integer from 0 to 30.
Invalid input raises ValueError.
"""

def ball_distance(query):
    """Total up and down travel of a bouncing ball."""
    height, ratio, bounces = _args(query, 3, "[height, ratio, bounces]")
    height = _num(height, 0, 100)
    ratio = _num(ratio, 0, 1)
    bounces = _int(bounces, 0, 30)
    distance = height
    for _ in range(bounces):
        height = height * ratio
        distance += 2 * height
    return round(distance, 2)


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x


def _num(x, lo, hi):
    """Return x as a float when it is a number in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not lo <= x <= hi:
        raise ValueError(f"expected a number in [{lo}, {hi}], got {x!r}")
    return float(x)


def _args(x, n, what):
    """Return x when it is a list of n arguments."""
    if not isinstance(x, list) or len(x) != n:
        raise ValueError(f"expected {what}")
    return x
