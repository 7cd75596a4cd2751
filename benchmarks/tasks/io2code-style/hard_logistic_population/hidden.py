"""Hidden program for hard_logistic_population: the population after the given years, not rounded, when each year it changes by rate * population * (1 - population / capacity) and falls to 0 if that would take it below 0.

Input: [population, rate, capacity, years]: a starting population, a growth rate, the capacity of the habitat and a number of years; population an integer from 1 to 1000; rate from 0 to 1.5 with at most two decimals; capacity an integer from 1 to 1000; years an integer from 0 to 50.
Invalid input raises ValueError.
"""

def population(query):
    """Logistic growth of a population, year by year."""
    pop, rate, capacity, years = _args(query, 4, "[population, rate, capacity, years]")
    pop = _num(_int(pop, 1, 1000), 1, 1000)
    rate = _num(rate, 0, 1.5)
    capacity = _int(capacity, 1, 1000)
    years = _int(years, 0, 50)
    for _ in range(years):
        pop = pop + rate * pop * (1 - pop / capacity)
        if pop < 0:
            pop = 0.0
    return pop


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x


def _num(x, lo, hi):
    """Return x as a float when it is a number in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not lo <= x <= hi:
        raise ValueError(f"expected a number in [{lo}, {hi}], got {x!r}")
    return float(x)


def _args(x, n, what):
    """Return x when it is a list of n arguments."""
    if not isinstance(x, list) or len(x) != n:
        raise ValueError(f"expected {what}")
    return x
