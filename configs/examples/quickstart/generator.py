"""Random inputs for the quickstart: lists of 0 to 12 integers in [-50, 50]."""
import json


def generate(k, exclude, rng):
    seen = {json.dumps(x) for x in exclude}
    out = []
    while len(out) < k:
        xs = [rng.randint(-50, 50) for _ in range(rng.randint(0, 12))]
        key = json.dumps(xs)
        if key not in seen:
            seen.add(key)
            out.append(xs)
    return out
