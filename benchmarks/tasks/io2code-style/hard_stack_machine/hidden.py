"""Hidden program for hard_stack_machine: the final stack (bottom first) of a stack machine that skips any instruction needing more operands than the stack holds.

Input: program: list of instructions ["push", n], ["pop"], ["add"], ["mul"], ["dup"], ["swap"], ["neg"]; 0 to 12 instructions; push operands between -9 and 9.
Invalid input raises ValueError.
"""


ARITY = {"push": 0, "pop": 1, "add": 2, "mul": 2, "dup": 1, "swap": 2, "neg": 1}


def run_stack_machine(program):
    """The final stack (bottom first); instructions lacking operands are skipped."""
    if not isinstance(program, list) or len(program) > 12:
        raise ValueError("expected a list of at most 12 instructions")
    stack = []
    for ins in program:
        if not isinstance(ins, list) or not ins or not isinstance(ins[0], str) or ins[0] not in ARITY:
            raise ValueError(f"unknown instruction {ins!r}")
        op = ins[0]
        if op == "push":
            if len(ins) != 2 or isinstance(ins[1], bool) or not isinstance(ins[1], int) or not -9 <= ins[1] <= 9:
                raise ValueError(f"push takes one integer between -9 and 9, got {ins!r}")
            stack.append(ins[1])
            continue
        if len(ins) != 1:
            raise ValueError(f"{op} takes no operand, got {ins!r}")
        if len(stack) < ARITY[op]:
            continue
        if op == "pop":
            stack.pop()
        elif op == "add":
            stack.append(stack.pop() + stack.pop())
        elif op == "mul":
            stack.append(stack.pop() * stack.pop())
        elif op == "dup":
            stack.append(stack[-1])
        elif op == "swap":
            stack[-1], stack[-2] = stack[-2], stack[-1]
        elif op == "neg":
            stack[-1] = -stack[-1]
    return stack
