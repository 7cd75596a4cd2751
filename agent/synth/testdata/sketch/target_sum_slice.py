def first_pair(nums, target):
    for i in range(len(nums)):
        total = 0
        for j in range(i + 1, len(nums) + 1):
            total += nums[j - 1]
            if total == target:
                return [i, j]
    raise ValueError("no pair fits")


def solve(input_data):
    nums, target = input_data
    try:
        return first_pair(nums, target)
    except (ArithmeticError, LookupError, ValueError):
        return None
