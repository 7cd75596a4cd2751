"""Hidden program for algorithm_count_min_max_lines: three lines "Count: N", "Min: A" and "Max: B" joined by newlines; only the line "Count: 0" for an empty list.

Input: list of integers; 0 to 10 integers, each between -99 and 99.
Invalid input raises ValueError.
"""

def count_min_max(xs):
    """A small report of the list, one fact per line."""
    xs = _int_list(xs, -99, 99, 0, 10)
    lines = ["Count: " + str(len(xs))]
    if xs:
        lines.append("Min: " + str(min(xs)))
        lines.append("Max: " + str(max(xs)))
    return "\n".join(lines)


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
