"""Random inputs for hard_bowling_score: the rolls of a complete game of ten-pin bowling; one character per roll: X a strike, / a spare, - a miss, 1 to 9 the pins knocked down; ten frames, with the bonus rolls the tenth frame earns."""
import json

NAME = 'hard_bowling_score'

EDGE_CASES = [
    'XXXXXXXXXXXX',
    '--------------------',
    '9-9-9-9-9-9-9-9-9-9-',
    '5/5/5/5/5/5/5/5/5/5/5',
    'X7/9-X-88/-6XXX81',
    '-/-/-/-/-/-/-/-/-/-/X',
    'X-/X-/X-/X-/X-/X',
    '1-1-1-1-1-1-1-1-1-XX7',
]


def _frame(rng, last):
    """One frame as text; the tenth frame with its bonus rolls."""
    if rng.random() < 0.3:
        text = "X"
    else:
        a = rng.randint(0, 9)
        b = rng.randint(0, 10 - a)
        text = _pin(a) + ("/" if a + b == 10 else _pin(b))
    if not last:
        return text
    if text == "X":
        a = rng.choice([10, 10, rng.randint(0, 9)])
        if a == 10:
            b = rng.choice([10, rng.randint(0, 9)])
            return text + "X" + ("X" if b == 10 else _pin(b))
        b = rng.randint(0, 10 - a)
        return text + _pin(a) + ("/" if a + b == 10 else _pin(b))
    if text.endswith("/"):
        a = rng.choice([10, rng.randint(0, 9)])
        return text + ("X" if a == 10 else _pin(a))
    return text


def _pin(n):
    return "-" if n == 0 else str(n)


def _draw(rng):
    return "".join(_frame(rng, i == 9) for i in range(10))


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
