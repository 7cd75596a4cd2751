"""Random inputs for algorithm_snake_to_camel: an identifier in snake_case; 0 to 30 characters: lowercase letters, digits and underscores."""
import json

NAME = 'algorithm_snake_to_camel'

EDGE_CASES = [
    '',
    'a',
    'snake_case',
    'get_http_response2',
    '_private',
    'trailing_',
    'a__b',
    'x_1_y',
]


PARTS = ["get", "set", "user", "id", "max", "value", "http", "url", "to", "2", "v1", "list", "x", "count"]


def _draw(rng):
    if rng.random() < 0.8:
        name = "_".join(rng.choice(PARTS) for _ in range(rng.randint(1, 5)))
        if rng.random() < 0.15:
            name = "_" + name
        if rng.random() < 0.15:
            name = name.replace("_", "__", 1)
        return name[:30]
    return "".join(rng.choice("abcxyz019__") for _ in range(rng.randint(0, 30)))


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
