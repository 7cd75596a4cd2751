def wrap(s):
    lines, line = [], ""
    for word in s.split():
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= 12:
            line += " " + word
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return "\n".join(lines)


def solve(input_data):
    s = input_data
    return wrap(s)
