package dsl

// Operators over the words of a text read as runs of letters: a text
// split at every character that is not a letter (punctuation sticks to no
// word, unlike str.split), and the commonest string of a list with how
// often it occurs (word frequencies).

// wordOps are the runs of ASCII letters of a string, the most common
// string of a list (the first occurring on ties, "" for an empty list)
// and its number of occurrences (0 for an empty list).
func wordOps() []*Operator {
	return []*Operator{
		op1("letter_runs", FamList, func(s string) ([]string, bool) { return letterRuns(s), true },
			func(e *Emitter, a []Code) Code {
				e.use("re")
				return Call("re.findall", Atom(`"[A-Za-z]+"`), a[0])
			}),
		op1("most_common", FamList, func(ws []string) (string, bool) {
			w, _ := mostCommonFirst(ws)
			return w, true
		}, pyOnly(func(a []Code) Code {
			return Atom("max(" + a[0].S + ", key=" + a[0].At(pAtom) + `.count, default="")`)
		})),
		op1("most_common_count", FamList, func(ws []string) (int64, bool) {
			_, n := mostCommonFirst(ws)
			return int64(n), true
		}, pyOnly(func(a []Code) Code {
			return Atom("max(map(" + a[0].At(pAtom) + ".count, " + a[0].S + "), default=0)")
		})),
		// The lengths of the runs of equal words: in a sorted list, how
		// often each distinct word occurs.
		op1("run_lengths", FamScan, func(ws []string) ([]int64, bool) { return runLengths(nil, ws), true },
			func(e *Emitter, a []Code) Code {
				e.use("itertools")
				return Atom("[len(list(g)) for _, g in itertools.groupby(" + a[0].S + ")]")
			}),
	}
}

// letterRuns is re.findall("[A-Za-z]+", s): the maximal runs of ASCII
// letters, in order.
func letterRuns(s string) []string {
	out := []string{}
	start := -1
	for i := 0; i <= len(s); i++ {
		letter := i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z')
		switch {
		case letter && start < 0:
			start = i
		case !letter && start >= 0:
			out = append(out, s[start:i])
			start = -1
		}
	}
	return out
}

// mostCommonFirst is max(ws, key=ws.count, default=""), with the count:
// the most frequent string, the first occurring on ties (max keeps the
// first of equal keys), and ("", 0) for an empty list.
func mostCommonFirst(ws []string) (string, int) {
	if len(ws) > 64 {
		counts := make(map[string]int, len(ws))
		for _, w := range ws {
			counts[w]++
		}
		best, bestN := "", 0
		for _, w := range ws {
			if counts[w] > bestN {
				best, bestN = w, counts[w]
			}
		}
		return best, bestN
	}
	best, bestN := "", 0
	for i, w := range ws {
		n := 0
		for _, v := range ws[i:] {
			if v == w {
				n++
			}
		}
		// ws[:i] holds no earlier copy of a better w: an earlier copy
		// counted at least as many.
		if n > bestN {
			best, bestN = w, n
		}
	}
	return best, bestN
}
