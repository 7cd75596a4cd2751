import json


def generate(k, exclude, rng):
    seen = {json.dumps(x) for x in exclude}
    out = []
    while len(out) < k:
        xs = [rng.randint(-20, 20) for _ in range(rng.randint(0, 8))]
        if json.dumps(xs) not in seen:
            seen.add(json.dumps(xs))
            out.append(xs)
    return out
