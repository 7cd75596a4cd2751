def solve(input_data):
    n = input_data
    return sum(int(d) for d in str(abs(sum(int(d) for d in str(abs(sum(int(d) for d in str(abs(n)))))))))
