"""Hidden program for hard_bowling_score: the total score: a frame scores its pins, a spare adds the next roll and a strike the next two rolls; the tenth frame's bonus rolls count only as those bonuses.

Input: the rolls of a complete game of ten-pin bowling; one character per roll: X a strike, / a spare, - a miss, 1 to 9 the pins knocked down; ten frames, with the bonus rolls the tenth frame earns.
Invalid input raises ValueError.
"""

def bowling(s):
    """Score a complete bowling game written as a string of rolls."""
    if not isinstance(s, str) or len(s) > 21:
        raise ValueError("expected a string of at most 21 rolls")
    rolls = []
    pos = 0

    def roll(standing):
        """Read the next roll; standing is 10 for the first ball at a full rack, else the pins left by the ball before."""
        nonlocal pos
        if pos >= len(s):
            raise ValueError("the game ends too early")
        c = s[pos]
        pos += 1
        first_ball = standing is None
        if c == "X" and first_ball:
            pins = 10
        elif c == "/" and not first_ball:
            pins = standing
        elif c == "-":
            pins = 0
        elif c in "123456789" and (first_ball or int(c) < standing):
            pins = int(c)
        else:
            raise ValueError(f"roll {c!r} at position {pos - 1} is not possible here")
        rolls.append(pins)
        return pins

    starts = []
    for frame in range(10):
        starts.append(len(rolls))
        first = roll(None)
        if first == 10:
            if frame == 9:
                second = roll(None)
                roll(None if second == 10 else 10 - second)
            continue
        second = roll(10 - first)
        if frame == 9 and first + second == 10:
            roll(None)
    if pos != len(s):
        raise ValueError("the game has rolls after the tenth frame")
    score = 0
    for i in starts:
        if rolls[i] == 10 or rolls[i] + rolls[i + 1] == 10:
            score += rolls[i] + rolls[i + 1] + rolls[i + 2]
        else:
            score += rolls[i] + rolls[i + 1]
    return score
