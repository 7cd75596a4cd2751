"""Random inputs for hard_bracket_depth: string; at most 30 characters from brackets ()[]{}, lowercase letters and space."""
import json

NAME = 'hard_bracket_depth'

EDGE_CASES = [
    '',
    'a',
    '()',
    '(]',
    '([]{})',
    '((((',
    'a(b[c]d)e',
    '}{',
    '([)]',
    '{[()()]}',
]


def _draw(rng):
    if rng.random() < 0.7:
        # A balanced string with some noise characters, sometimes corrupted.
        out, stack = "", []
        while len(out) < rng.randint(0, 28):
            if stack and rng.random() < 0.45:
                out += {"(": ")", "[": "]", "{": "}"}[stack.pop()]
            elif rng.random() < 0.2:
                out += rng.choice("ab x")
            else:
                c = rng.choice("([{")
                stack.append(c)
                out += c
        while stack:
            out += {"(": ")", "[": "]", "{": "}"}[stack.pop()]
        out = out[:30]
        if out and rng.random() < 0.2:
            i = rng.randrange(len(out))
            out = out[:i] + rng.choice("()[]{}") + out[i + 1:]
        return out
    return "".join(rng.choice("()[]{}ab") for _ in range(rng.randint(0, 12)))


def generate(k, exclude, rng):
    """Return k inputs, distinct from each other and from every input in exclude."""
    seen = {_key(x) for x in exclude}
    edges = list(EDGE_CASES)
    out = []
    attempts = 0
    while len(out) < k:
        attempts += 1
        if attempts > 500 * (k + 10):
            raise ValueError(f"{NAME}: found only {len(out)} fresh inputs of the {k} asked; the input space is exhausted")
        if edges and rng.random() < 0.25:
            x = edges.pop(rng.randrange(len(edges)))
        else:
            x = _draw(rng)
        key = _key(x)
        if key not in seen:
            seen.add(key)
            out.append(x)
    return out


def _norm(x):
    if isinstance(x, bool) or x is None or isinstance(x, str):
        return x
    if isinstance(x, (int, float)):
        return float(x)
    if isinstance(x, dict):
        return {str(k): _norm(v) for k, v in x.items()}
    return [_norm(v) for v in x]


def _key(x):
    """Identity of an input after JSON normalisation (1 and 1.0 are the same)."""
    return json.dumps(_norm(x), sort_keys=True)
