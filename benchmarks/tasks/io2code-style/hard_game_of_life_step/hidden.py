"""Hidden program for hard_game_of_life_step: the grid after one step of Conway's Game of Life (no wrap-around).

Input: grid: list of rows of cells (0 dead, 1 alive), all rows the same length; 1 to 6 rows of 1 to 6 cells; cells outside the grid count as dead.
Invalid input raises ValueError.
"""


def life_step(grid):
    """The next generation: a live cell survives with 2 or 3 live neighbours, a dead one is born with 3."""
    if not isinstance(grid, list) or not 1 <= len(grid) <= 6:
        raise ValueError("expected 1 to 6 rows")
    width = len(grid[0]) if isinstance(grid[0], list) else -1
    if not 1 <= width <= 6:
        raise ValueError("expected rows of 1 to 6 cells")
    for row in grid:
        _bit_list(row, width, width)
    h = len(grid)
    out = []
    for r in range(h):
        row = []
        for c in range(width):
            n = sum(grid[rr][cc] for rr in range(max(0, r - 1), min(h, r + 2))
                    for cc in range(max(0, c - 1), min(width, c + 2)) if (rr, cc) != (r, c))
            row.append(1 if n == 3 or (grid[r][c] and n == 2) else 0)
        out.append(row)
    return out


def _bit_list(x, min_len, max_len):
    """Return x when it is a list of min_len..max_len bits (0 or 1)."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} bits")
    for v in x:
        if isinstance(v, bool) or v not in (0, 1):
            raise ValueError(f"every element must be 0 or 1, got {v!r}")
    return x
