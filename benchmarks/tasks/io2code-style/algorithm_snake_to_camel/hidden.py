"""Hidden program for algorithm_snake_to_camel: the identifier in camelCase: the parts between underscores are joined, every part after the first with its first character upper-cased (empty parts vanish).

Input: an identifier in snake_case; 0 to 30 characters: lowercase letters, digits and underscores.
Invalid input raises ValueError.
"""


def snake_to_camel(name):
    """The snake_case identifier in camelCase."""
    name = _string(name, 30, "abcdefghijklmnopqrstuvwxyz0123456789_")
    parts = name.split("_")
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
