"""Random inputs for algorithm_eval_plus_minus: an arithmetic expression; 1 to 30 characters: numbers of 1 to 3 digits joined by + and -, no spaces, no sign in front of the first number."""
import json

NAME = 'algorithm_eval_plus_minus'

EDGE_CASES = [
    '0',
    '7',
    '1+1',
    '10-20',
    '999-999+1',
    '1+2+3+4+5',
    '100-1-1-1',
    '007+3',
]


def _draw(rng):
    terms = [str(rng.randint(0, 999) if rng.random() < 0.4 else rng.randint(0, 20)) for _ in range(rng.randint(1, 7))]
    s = terms[0]
    for t in terms[1:]:
        nxt = s + rng.choice("+-") + t
        if len(nxt) > 30:
            break
        s = nxt
    return s


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
