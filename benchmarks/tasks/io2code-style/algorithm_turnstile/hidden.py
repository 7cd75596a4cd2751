"""Hidden program for algorithm_turnstile: the turnstile's state after every event: it starts "locked", a coin unlocks it, a push on an unlocked turnstile lets one person through and locks it again, and a push on a locked one changes nothing.

Input: list of events, each the string "coin" or "push"; 0 to 14 events.
Invalid input raises ValueError.
"""


def turnstile(events):
    """The state ("locked" or "unlocked") after every event."""
    if not isinstance(events, list) or len(events) > 14:
        raise ValueError("expected a list of at most 14 events")
    state, out = "locked", []
    for e in events:
        if e == "coin":
            state = "unlocked"
        elif e == "push":
            state = "locked"
        else:
            raise ValueError(f"unknown event {e!r}; expected \"coin\" or \"push\"")
        out.append(state)
    return out
