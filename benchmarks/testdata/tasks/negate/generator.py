def generate(k, exclude, rng):
    seen = set(exclude)
    out = []
    while len(out) < k:
        x = rng.randint(-1000, 1000)
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out
