"""Random inputs for hard_stack_machine: program: list of instructions ["push", n], ["pop"], ["add"], ["mul"], ["dup"], ["swap"], ["neg"]; 0 to 12 instructions; push operands between -9 and 9."""
import json

NAME = 'hard_stack_machine'

EDGE_CASES = [
    [],
    [['push', 3]],
    [['add']],
    [['push', 2], ['push', 3], ['add']],
    [['push', 2], ['dup'], ['mul'], ['neg']],
    [['push', 1], ['push', 2], ['swap'], ['pop']],
    [['pop'], ['push', -9], ['swap'], ['push', 9], ['mul']],
]


def _draw(rng):
    program = []
    for _ in range(rng.randint(0, 12)):
        if rng.random() < 0.4:
            program.append(["push", rng.randint(-9, 9)])
        else:
            program.append([rng.choice(["pop", "add", "mul", "dup", "swap", "neg"])])
    return program


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
