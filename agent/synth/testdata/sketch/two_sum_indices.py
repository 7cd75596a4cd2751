def first_pair(nums, target):
    for j in range(len(nums)):
        for i in range(j):
            if nums[i] == target - nums[j]:
                return [i, j]
    return []


def solve(input_data):
    nums, target = input_data
    return first_pair(nums, target)
