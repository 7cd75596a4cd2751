import os


def crash(x):
    # The hidden program dies instead of answering: an infrastructure
    # failure, not an invalid input.
    os._exit(3)
