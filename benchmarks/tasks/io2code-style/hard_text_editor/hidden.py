"""Hidden program for hard_text_editor: the text left by an editor where undo reverts the most recent type or backspace not yet undone.

Input: operations: list of ["type", text], ["backspace", count] or ["undo"]; 0 to 10 operations; typed text of 1 to 4 lowercase letters; counts between 1 and 5.
Invalid input raises ValueError.
"""


def text_editor(ops):
    """The final text; undo pops the history of earlier texts."""
    if not isinstance(ops, list) or len(ops) > 10:
        raise ValueError("expected a list of at most 10 operations")
    text, history = "", []
    for op in ops:
        if (isinstance(op, list) and len(op) == 2 and op[0] == "type" and isinstance(op[1], str)
                and 1 <= len(op[1]) <= 4 and op[1].isalpha() and op[1].islower() and op[1].isascii()):
            history.append(text)
            text += op[1]
        elif (isinstance(op, list) and len(op) == 2 and op[0] == "backspace" and not isinstance(op[1], bool)
                and isinstance(op[1], int) and 1 <= op[1] <= 5):
            history.append(text)
            text = text[:max(0, len(text) - op[1])]
        elif op == ["undo"]:
            if history:
                text = history.pop()
        else:
            raise ValueError(f"unknown operation {op!r}")
    return text
