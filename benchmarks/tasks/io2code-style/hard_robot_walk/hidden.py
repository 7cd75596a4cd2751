"""Hidden program for hard_robot_walk: the final position [x, y] of a robot that starts at the origin facing north and obeys F (step forward), L and R (turn 90 degrees).

Input: string; at most 30 characters, each F, L or R.
Invalid input raises ValueError.
"""


def robot_walk(s):
    """The final position [x, y] of a robot that starts at the origin facing north and obeys F (step forward), L and R (turn 90 degrees)."""
    s = _string(s, 30, 'FLR')
    x = y = 0
    dx, dy = 0, 1
    for c in s:
        if c == 'F':
            x, y = x + dx, y + dy
        elif c == 'L':
            dx, dy = -dy, dx
        else:
            dx, dy = dy, -dx
    return [x, y]


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
