"""Random inputs for algorithm_roman_to_int: a Roman numeral; a valid numeral in standard subtractive form for a number from 1 to 3999, upper case."""
import json
import math

NAME = 'algorithm_roman_to_int'

EDGE_CASES = [
    'I',
    'IV',
    'IX',
    'XIV',
    'XL',
    'XC',
    'CD',
    'MCMXCIV',
    'MMMCMXCIX',
    'MMXXIV',
    'LVIII',
]


def _draw(rng):
    r = rng.random()
    if r < 0.3:
        n = rng.randint(1, 50)
    elif r < 0.6:
        n = int(10 ** rng.uniform(0, math.log10(3999)))
    else:
        n = rng.randint(1, 3999)
    return _roman(n)


def _roman(n):
    """N as a Roman numeral in standard subtractive form."""
    out = ""
    for value, sym in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                       (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out += sym
            n -= value
    return out


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
