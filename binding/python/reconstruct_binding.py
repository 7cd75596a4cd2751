"""What a task binding returns to reconstruct (see docs/binding.md).

A binding module names a factory, ``module:callable``, that reconstruct calls
with the task's arguments as keyword arguments. The factory returns any object
with the fields below as attributes or keys; this dataclass is one such
object. reconstruct puts this module on the binding's path, so

    from reconstruct_binding import ReconstructionTask

works without installing anything.
"""

from dataclasses import dataclass, field
from typing import Any, Callable, List, Optional

__all__ = ["ReconstructionTask", "KINDS"]

# The input kinds reconstruct knows.
KINDS = ("list", "two_lists", "int", "pair", "string", "points", "other")


@dataclass
class ReconstructionTask:
    """One hidden program and what an agent may know about it.

    input_type, kind and oracle are required. oracle(input) returns the
    hidden program's output for one input (raising rejects the input).
    random_inputs(k), random_inputs(k, rng) or random_inputs(k, exclude, rng)
    returns k fresh inputs. lo and hi bound every number of an input.
    on_example(input, output, source) sees every observed example; what it
    returns (when not None) is appended to the run's binding_log.jsonl.
    evaluate(program_path, inputs) returns a candidate's outputs in place of
    reconstruct's own evaluation. tools names the LLM agent's tools.
    """

    input_type: str
    kind: str
    oracle: Callable[[Any], Any]
    input_constraints: str = ""
    function_name: str = "solve"
    random_inputs: Optional[Callable[..., List[Any]]] = None
    lo: Optional[float] = None
    hi: Optional[float] = None
    name: Optional[str] = None
    level: Optional[str] = None
    family: Optional[str] = None
    on_example: Optional[Callable[[Any, Any, str], Any]] = None
    evaluate: Optional[Callable[[str, List[Any]], List[Any]]] = None
    tools: Optional[List[str]] = field(default=None)
