package dsl

// Operators comparing two sequences position by position, as zip pairs
// them (up to the shorter one's end): how many positions hold equal
// elements and how many hold different ones (the Hamming distance of two
// sequences of one length). count(zip(xs, ys), lambda) says the same in
// seven nodes, beyond the sizes the levels reach beside other work.

// positionOps are the counts of equal and of different positions of two
// integer lists and of two strings.
func positionOps() []*Operator {
	return []*Operator{
		op2("matches", FamList, func(xs, ys []int64) (int64, bool) { return countPositions(xs, ys, true), true }, pyOnly(matchesCode("=="))),
		op2("mismatches", FamList, func(xs, ys []int64) (int64, bool) { return countPositions(xs, ys, false), true }, pyOnly(matchesCode("!="))),
		op2("matches", FamList, func(s, t string) (int64, bool) { return countPositions([]rune(s), []rune(t), true), true }, pyOnly(matchesCode("=="))),
		op2("mismatches", FamList, func(s, t string) (int64, bool) { return countPositions([]rune(s), []rune(t), false), true }, pyOnly(matchesCode("!="))),
	}
}

// countPositions counts the positions below both lengths whose elements
// are equal (or differ).
func countPositions[T comparable](xs, ys []T, equal bool) int64 {
	n := int64(0)
	for i := range min(len(xs), len(ys)) {
		if (xs[i] == ys[i]) == equal {
			n++
		}
	}
	return n
}

// matchesCode writes the count as a sum over zip of the comparison op.
func matchesCode(op string) func(a []Code) Code {
	return func(a []Code) Code {
		return Call("sum", Atom("x "+op+" y for x, y in zip("+a[0].S+", "+a[1].S+")"))
	}
}
