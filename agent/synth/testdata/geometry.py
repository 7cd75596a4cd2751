import math


def solve(input_data):
    pts = input_data
    return sum([math.dist(p, q) for p, q in zip(pts, pts[1:])])
