"""Hidden program for base_cooling_coffee: the drink's temperature after the given minutes when every minute it moves k of the way to room temperature (temp = temp + k * (room - temp)), not rounded.

Input: [temp, room, k, minutes]: the starting temperature of a drink, the room temperature, a cooling factor and a number of minutes; temp and room whole degrees from -20 to 100; k from 0 to 1 with at most two decimals; minutes an integer from 0 to 60.
Invalid input raises ValueError.
"""

def cool(query):
    """Newton's cooling, one minute at a time."""
    temp, room, k, minutes = _args(query, 4, "[temp, room, k, minutes]")
    temp = _num(_int(temp, -20, 100), -20, 100)
    room = _int(room, -20, 100)
    k = _num(k, 0, 1)
    minutes = _int(minutes, 0, 60)
    for _ in range(minutes):
        temp = temp + k * (room - temp)
    return temp


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
