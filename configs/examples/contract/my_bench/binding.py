"""A benchmark bound to reconstruct in the original workflow's form.

Nothing here is reconstruct's: the task is a dataclass of the benchmark's
own, random_inputs(k, exclude) draws fresh inputs, evaluate is async and
returns records, check_candidate is a tool of the benchmark's own for the
coding agent, on_example sees every observed example and workspace says
where a run's files go. reconstruct calls make_task(**task_args) and
heldout(**task_args) (see docs/binding.md).
"""

import asyncio
import importlib.util
import random
from dataclasses import dataclass, field
from typing import Any, Callable, List, Optional

PROGRAMS = {
    "triple_plus_one": lambda x: 3 * x + 1,
    "negate": lambda x: -x,
    "square": lambda x: x * x,
    "distance_to_ten": lambda x: abs(x - 10),
}

LO, HI = -100, 100


@dataclass
class ReconstructionTask:
    name: str
    input_type: str
    input_constraints: str
    kind: str
    oracle: Callable[[Any], Any]
    random_inputs: Optional[Callable[..., List[Any]]] = None
    evaluate: Optional[Callable] = None
    on_example: Optional[Callable] = None
    tools: List[Any] = field(default_factory=list)
    workspace: Optional[str] = None
    lo: Optional[int] = None
    hi: Optional[int] = None


def _random_inputs(k, exclude):
    """k integers in [LO, HI] not in exclude (the observed inputs)."""
    seen = set(x for x in exclude if isinstance(x, int))
    out = []
    for _ in range(100 * k):
        if len(out) == k:
            break
        x = random.randint(LO, HI)
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out


def _load(program_path):
    spec = importlib.util.spec_from_file_location("candidate", program_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def _evaluate(program_path, inputs):
    """The benchmark's own harness: one record an input."""
    module = _load(program_path)
    results = []
    for x in inputs:
        try:
            results.append({"ok": True, "output": module.solve(x)})
        except Exception as e:  # the candidate's failure is that input's
            results.append({"ok": False, "error": "%s: %s" % (type(e).__name__, e)})
        await asyncio.sleep(0)
    return results


def _on_example(input, output, source):
    return {"input": input, "output": output, "source": source}


def make_task(name):
    program = PROGRAMS[name]

    def check_candidate(program_path, samples: int = 10):
        """Runs candidate.py on `samples` inputs of the benchmark's own
        and says on how many it agrees with the hidden program (not which)."""
        module = _load(program_path)
        rng = random.Random(samples)
        xs = [rng.randint(LO, HI) for _ in range(samples)]
        right = 0
        for x in xs:
            try:
                right += module.solve(x) == program(x)
            except Exception:
                pass
        return "%d of %d agree" % (right, samples)

    return ReconstructionTask(
        name=name,
        input_type="an integer",
        input_constraints="an integer between %d and %d" % (LO, HI),
        kind="int",
        oracle=program,
        random_inputs=_random_inputs,
        evaluate=_evaluate,
        on_example=_on_example,
        tools=[check_candidate],
        workspace="runs/" + name,
        lo=LO,
        hi=HI,
    )


def heldout(name):
    program = PROGRAMS[name]
    rng = random.Random(7)
    return [(x, program(x)) for x in rng.sample(range(LO, HI + 1), 20)]
