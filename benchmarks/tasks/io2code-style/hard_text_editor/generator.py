"""Random inputs for hard_text_editor: operations: list of ["type", text], ["backspace", count] or ["undo"]; 0 to 10 operations; typed text of 1 to 4 lowercase letters; counts between 1 and 5."""
import json

NAME = 'hard_text_editor'

EDGE_CASES = [
    [],
    [['undo']],
    [['type', 'abc']],
    [['type', 'ab'], ['undo']],
    [['type', 'abcd'], ['backspace', 2], ['undo'], ['type', 'e']],
    [['backspace', 5], ['type', 'x'], ['undo'], ['undo']],
    [['type', 'ab'], ['type', 'cd'], ['undo'], ['backspace', 1]],
]


def _draw(rng):
    ops = []
    for _ in range(rng.randint(0, 10)):
        r = rng.random()
        if r < 0.45:
            ops.append(["type", "".join(rng.choice("abcde") for _ in range(rng.randint(1, 4)))])
        elif r < 0.75:
            ops.append(["backspace", rng.randint(1, 5)])
        else:
            ops.append(["undo"])
    return ops


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
