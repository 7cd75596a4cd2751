"""Hidden program for hard_tokenize: the tokens of s: integers, identifiers (a letter or _ then letters, digits, _), the two-character operators == != <= >= and single-character symbols; spaces separate.

Input: string; at most 40 characters from letters, digits, _, space and + - * / ( ) = < > !.
Invalid input raises ValueError.
"""


def tokenize(s):
    """The tokens of s: integers, identifiers (a letter or _ then letters, digits, _), the two-character operators == != <= >= and single-character symbols; spaces separate."""
    s = _string(s, 40, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ +-*/()=<>!')
    tokens, i = [], 0
    while i < len(s):
        c = s[i]
        if c == ' ':
            i += 1
            continue
        j = i + 1
        if c.isdigit():
            while j < len(s) and s[j].isdigit():
                j += 1
        elif c.isalpha() or c == '_':
            while j < len(s) and (s[j].isalnum() or s[j] == '_'):
                j += 1
        elif s[i:i + 2] in ('==', '!=', '<=', '>='):
            j = i + 2
        tokens.append(s[i:j])
        i = j
    return tokens


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
