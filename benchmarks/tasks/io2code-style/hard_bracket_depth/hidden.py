"""Hidden program for hard_bracket_depth: the deepest nesting of (), [] and {} in s, or -1 when the brackets are unbalanced or mismatched; other characters are ignored.

Input: string; at most 30 characters from brackets ()[]{}, lowercase letters and space.
Invalid input raises ValueError.
"""


def bracket_depth(s):
    """The deepest nesting of (), [] and {} in s, or -1 when the brackets are unbalanced or mismatched; other characters are ignored."""
    s = _string(s, 30, '()[]{}abcdefghijklmnopqrstuvwxyz ')
    pairs = {')': '(', ']': '[', '}': '{'}
    stack, best = [], 0
    for c in s:
        if c in '([{':
            stack.append(c)
            best = max(best, len(stack))
        elif c in pairs:
            if not stack or stack.pop() != pairs[c]:
                return -1
    return best if not stack else -1


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
