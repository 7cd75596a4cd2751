package synth

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// String operators, and operators over lists of strings.

// stringOps are the basic string operators: length, case, slicing,
// searching, character classes, conversions.
func stringOps() []*operator {
	return []*operator{
		op1("len", famScalar, func(s string) (int64, bool) { return int64(len([]rune(s))), true },
			pyOnly(func(a []code) code { return call("len", a[0]) })),
		sMap("upper", "upper", strings.ToUpper),
		sMap("lower", "lower", strings.ToLower),
		sMap("strip", "strip", strings.TrimSpace),
		sMap("capitalize", "capitalize", pyCapitalize),
		sMap("title", "title", pyTitle),
		sMap("swapcase", "swapcase", pySwapcase),
		op1("reverse", famScalar, func(s string) (string, bool) { return reverseString(s), true },
			pyOnly(func(a []code) code { return atom(a[0].at(pAtom) + "[::-1]") })),
		op1("sorted_chars", famScalar, func(s string) (string, bool) {
			r := []rune(s)
			slices.Sort(r)
			return string(r), true
		}, pyOnly(func(a []code) code { return atom(`"".join(sorted(` + a[0].s + `))`) })),
		op2("concat", famScalar, func(s, t string) (string, bool) {
			if len(s)+len(t) > maxLen {
				return "", false
			}
			return s + t, true
		}, pyOnly(func(a []code) code { return binop(a[0], "+", a[1], pAdd) })),
		op2("repeat", famScalar, func(s string, k int64) (string, bool) {
			if k <= 0 {
				return "", true
			}
			if k > maxLen || int64(len(s))*k > maxLen {
				return "", false
			}
			return strings.Repeat(s, int(k)), true
		}, pyOnly(func(a []code) code { return binop(a[0], "*", a[1], pMul) })),
		op2("seq", famScalar, func(s, t string) (bool, bool) { return s == t, true },
			pyOnly(func(a []code) code { return cmpop(a[0], "==", a[1]) })),
		op2("contains", famScalar, func(s, t string) (bool, bool) { return strings.Contains(t, s), true },
			pyOnly(func(a []code) code { return cmpop(a[0], "in", a[1]) })),
		op2("count", famScalar, func(s, t string) (int64, bool) {
			if t == "" {
				return int64(len([]rune(s)) + 1), true
			}
			return int64(strings.Count(s, t)), true
		}, pyOnly(func(a []code) code { return method(a[0], "count", a[1]) })),
		op2("char_at", famScalar, func(s string, i int64) (string, bool) {
			r, good := at([]rune(s), i)
			if !good {
				return "", false
			}
			return string(r), true
		}, pyOnly(func(a []code) code { return atom(a[0].at(pAtom) + "[" + a[1].s + "]") })),
		op2("prefix", famScalar, func(s string, k int64) (string, bool) { return string(takeList([]rune(s), k)), true },
			pyOnly(func(a []code) code { return atom(a[0].at(pAtom) + "[:" + a[1].s + "]") })),
		op2("suffix", famScalar, func(s string, k int64) (string, bool) { return string(dropList([]rune(s), k)), true },
			pyOnly(func(a []code) code { return atom(a[0].at(pAtom) + "[" + a[1].s + ":]") })),
		sPred("isdigit", func(s string) bool { return allRunes(s, isASCIIDigit) }, func(a code) code { return method(a, "isdigit") }),
		sPred("isalpha", func(s string) bool { return allRunes(s, unicode.IsLetter) }, func(a code) code { return method(a, "isalpha") }),
		sPred("isspace", func(s string) bool { return allRunes(s, unicode.IsSpace) }, func(a code) code { return method(a, "isspace") }),
		sPred("isupper", func(s string) bool { return strings.ToLower(s) != s && strings.ToUpper(s) == s },
			func(a code) code { return method(a, "isupper") }),
		sPred("islower", func(s string) bool { return strings.ToUpper(s) != s && strings.ToLower(s) == s },
			func(a code) code { return method(a, "islower") }),
		sPred("is_vowel", func(s string) bool { return s != "" && strings.Contains("aeiouAEIOU", s) },
			func(a code) code { return cmpop(a, "in", atom(`"aeiouAEIOU"`)) }),
		op1("ord", famScalar, func(s string) (int64, bool) {
			r := []rune(s)
			if len(r) != 1 {
				return 0, false
			}
			return int64(r[0]), true
		}, pyOnly(func(a []code) code { return call("ord", a[0]) })),
		op1("chr", famScalar, func(n int64) (string, bool) {
			if n < 0 || n > 0xD7FF {
				return "", false
			}
			return string(rune(n)), true
		}, pyOnly(func(a []code) code { return call("chr", a[0]) })),
		op1("str", famScalar, func(n int64) (string, bool) { return strconv.FormatInt(n, 10), true },
			pyOnly(func(a []code) code { return call("str", a[0]) })),
		op2("shift", famScalar, func(s string, k int64) (string, bool) { return shiftLetter(s, k), true },
			func(e *emitter, a []code) code {
				e.helper("shift_letters", pyShiftLetters)
				return call("shift_letters", a...)
			}),
	}
}

// stringLibraryOps are Python idioms over strings: run-length encoding,
// the most common character.
func stringLibraryOps() []*operator {
	return []*operator{
		rare(costs(2, op1("run_length_encode", famScalar, func(s string) (string, bool) {
			r := []rune(s)
			var sb strings.Builder
			for _, n := range runLengths(nil, r) {
				sb.WriteRune(r[0])
				sb.WriteString(strconv.FormatInt(n, 10))
				r = r[n:]
			}
			return sb.String(), true
		}, func(e *emitter, a []code) code {
			e.use("itertools")
			return atom(`"".join(k + str(len(list(g))) for k, g in itertools.groupby(` + a[0].s + "))")
		}))),
		rare(op1("mode", famScalar, func(s string) (string, bool) {
			r := []rune(s)
			if len(r) == 0 {
				return "", true
			}
			return string(mostCommon(nil, r)), true
		}, pyOnly(func(a []code) code {
			return atom("max(sorted(" + a[0].s + "), key=" + a[0].at(pAtom) + `.count, default="")`)
		}))),
	}
}

// stringNamedOps are named combinations over strings.
func stringNamedOps() []*operator {
	return []*operator{
		op1("isalnum", famScalar, func(s string) (bool, bool) {
			return allRunes(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }), true
		}, pyOnly(func(a []code) code { return method(a[0], "isalnum") })),
		op1("is_palindrome", famScalar, func(s string) (bool, bool) { return s == reverseString(s), true },
			pyOnly(func(a []code) code { return cmpop(a[0], "==", atom(a[0].at(pAtom)+"[::-1]")) })),
	}
}

// stringListOps split and join strings, work on lists of strings, and
// map, filter and count characters.
func stringListOps() []*operator {
	I, B, S := tInt, tBool, tStr
	return []*operator{
		op1("split", famList, func(s string) ([]string, bool) {
			f := strings.Fields(s)
			if f == nil {
				f = []string{}
			}
			return f, true
		}, pyOnly(func(a []code) code { return method(a[0], "split") })),
		op1("chars", famList, func(s string) ([]string, bool) {
			r := []rune(s)
			out := make([]string, len(r))
			for i, c := range r {
				out[i] = string(c)
			}
			return out, true
		}, pyOnly(func(a []code) code { return call("list", a[0]) })),
		op1("join", famList, func(ws []string) (string, bool) { return strings.Join(ws, " "), true },
			pyOnly(func(a []code) code { return method(atom(`" "`), "join", a[0]) })),
		op1("concat_all", famList, func(ws []string) (string, bool) { return strings.Join(ws, ""), true },
			pyOnly(func(a []code) code { return method(atom(`""`), "join", a[0]) })),
		op1("len", famList, func(ws []string) (int64, bool) { return int64(len(ws)), true },
			pyOnly(func(a []code) code { return call("len", a[0]) })),
		op1("sorted", famList, func(ws []string) ([]string, bool) { return sortedCopy(nil, ws, false), true },
			pyOnly(func(a []code) code { return call("sorted", a[0]) })),
		op1("reversed", famList, func(ws []string) ([]string, bool) { return reversed(nil, ws), true },
			pyOnly(func(a []code) code { return atom(a[0].at(pAtom) + "[::-1]") })),
		op1("first", famList, func(ws []string) (string, bool) { return at(ws, 0) },
			pyOnly(func(a []code) code { return atom(a[0].at(pAtom) + "[0]") })),
		op1("last", famList, func(ws []string) (string, bool) { return at(ws, -1) },
			pyOnly(func(a []code) code { return atom(a[0].at(pAtom) + "[-1]") })),
		op1("unique", famList, func(ws []string) ([]string, bool) { return uniqueOrdered(nil, ws), true },
			pyOnly(func(a []code) code { return atom("list(dict.fromkeys(" + a[0].s + "))") })),
		comprehension(opL1("map", famList, sigS, S, mapL[string, string],
			func(e *emitter, l *lambda, a []code) code { return comp(e.lam(l, atom("w")), "w", a[0].s) })),
		comprehension(opL1("map", famList, sigS, I, mapL[string, int64],
			func(e *emitter, l *lambda, a []code) code { return comp(e.lam(l, atom("w")), "w", a[0].s) })),
		comprehension(opL1("filter", famList, sigS, B, filterL[string],
			func(e *emitter, l *lambda, a []code) code {
				return atom("[w for w in " + a[0].s + " if " + e.lam(l, atom("w")).s + "]")
			})),
		opL1("sort_by", famList, sigS, I, sortByL[string],
			func(e *emitter, l *lambda, a []code) code {
				return atom("sorted(" + a[0].s + ", key=" + e.fn(l, "w") + ")")
			}),
		opL1("max_by", famList, sigS, I, func(ar *arena, l *lambda, ws []string) (string, bool) { return extremeByL(ar, l, ws, true) },
			func(e *emitter, l *lambda, a []code) code {
				return atom("max(" + a[0].s + ", key=" + e.fn(l, "w") + ")")
			}),
		opL1("min_by", famList, sigS, I, func(ar *arena, l *lambda, ws []string) (string, bool) { return extremeByL(ar, l, ws, false) },
			func(e *emitter, l *lambda, a []code) code {
				return atom("min(" + a[0].s + ", key=" + e.fn(l, "w") + ")")
			}),
		comprehension(opL1("map_chars", famList, sigS, S, func(ar *arena, l *lambda, s string) (string, bool) {
			var sb strings.Builder
			for _, c := range s {
				v, good := lam1[string, string](ar, l, string(c))
				if !good {
					return "", false
				}
				sb.WriteString(v)
			}
			return sb.String(), true
		}, func(e *emitter, l *lambda, a []code) code {
			return atom(`"".join(` + e.lam(l, atom("c")).s + " for c in " + a[0].s + ")")
		})),
		comprehension(opL1("filter_chars", famList, sigS, B, func(ar *arena, l *lambda, s string) (string, bool) {
			var sb strings.Builder
			for _, c := range s {
				v, good := lam1[string, bool](ar, l, string(c))
				if !good {
					return "", false
				}
				if v {
					sb.WriteRune(c)
				}
			}
			return sb.String(), true
		}, func(e *emitter, l *lambda, a []code) code {
			return atom(`"".join(c for c in ` + a[0].s + " if " + e.lam(l, atom("c")).s + ")")
		})),
		comprehension(opL1("count_chars", famList, sigS, B, func(ar *arena, l *lambda, s string) (int64, bool) {
			n := int64(0)
			for _, c := range s {
				v, good := lam1[string, bool](ar, l, string(c))
				if !good {
					return 0, false
				}
				if v {
					n++
				}
			}
			return n, true
		}, func(e *emitter, l *lambda, a []code) code {
			return atom("sum(1 for c in " + a[0].s + " if " + e.lam(l, atom("c")).s + ")")
		})),
	}
}

// stringRunLengthOps are the lengths of a string's runs of one character.
func stringRunLengthOps() []*operator {
	return []*operator{
		op1("run_lengths", famScan, func(s string) ([]int64, bool) { return runLengths(nil, []rune(s)), true },
			func(e *emitter, a []code) code {
				e.use("itertools")
				return atom("[len(list(g)) for _, g in itertools.groupby(" + a[0].s + ")]")
			}),
	}
}

// stringSplitOps split a string at every single space.
func stringSplitOps() []*operator {
	return []*operator{
		op1("split_on_space", famList, func(s string) ([]string, bool) { return strings.Split(s, " "), true },
			pyOnly(func(a []code) code { return method(a[0], "split", atom(`" "`)) })),
	}
}

// pyTitle is Python's str.title.
func pyTitle(s string) string {
	var sb strings.Builder
	prevCased := false
	for _, r := range s {
		cased := unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r)
		if cased {
			if prevCased {
				r = unicode.ToLower(r)
			} else {
				r = unicode.ToUpper(r)
			}
		}
		prevCased = cased
		sb.WriteRune(r)
	}
	return sb.String()
}

// pyCapitalize is Python's str.capitalize.
func pyCapitalize(s string) string {
	r := []rune(s)
	for i := range r {
		if i == 0 {
			r[i] = unicode.ToUpper(r[i])
		} else {
			r[i] = unicode.ToLower(r[i])
		}
	}
	return string(r)
}

func pySwapcase(s string) string {
	r := []rune(s)
	for i, c := range r {
		switch {
		case unicode.IsUpper(c):
			r[i] = unicode.ToLower(c)
		case unicode.IsLower(c):
			r[i] = unicode.ToUpper(c)
		}
	}
	return string(r)
}

func allRunes(s string, pred func(rune) bool) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !pred(r) {
			return false
		}
	}
	return true
}

func isASCIIDigit(r rune) bool { return r >= '0' && r <= '9' }

func reverseString(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// shiftLetter moves ASCII letters k places round the alphabet, keeping case.
func shiftLetter(s string, k int64) string {
	var sb strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z':
			m, _ := pyMod(int64(r-'a')+k, 26)
			r = 'a' + rune(m)
		case r >= 'A' && r <= 'Z':
			m, _ := pyMod(int64(r-'A')+k, 26)
			r = 'A' + rune(m)
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

const pyShiftLetters = `
def shift_letters(s, k):
    out = []
    for c in s:
        if "a" <= c <= "z":
            c = chr((ord(c) - ord("a") + k) % 26 + ord("a"))
        elif "A" <= c <= "Z":
            c = chr((ord(c) - ord("A") + k) % 26 + ord("A"))
        out.append(c)
    return "".join(out)
`

// stringProgramOps are string operators of whole programs only, not of
// lambda bodies: where a pattern occurs in a string, first (str.find) or
// everywhere, overlaps included, and the character codes.
func stringProgramOps() []*operator {
	return []*operator{
		op2("find", famScalar, func(s, p string) (int64, bool) {
			occ := occurrences([]rune(s), []rune(p), true)
			if len(occ) == 0 {
				return -1, true
			}
			return occ[0], true
		}, pyOnly(func(a []code) code { return method(a[0], "find", a[1]) })),
		// codes are a string's character codes: checksums and scores
		// of characters are then sums and folds over a list.
		op1("codes", famList, func(s string) ([]int64, bool) {
			out := []int64{}
			for _, r := range s {
				out = append(out, int64(r))
			}
			return out, true
		}, pyOnly(func(a []code) code { return atom("[ord(c) for c in " + a[0].s + "]") })),
		op2("occurrences", famList, func(s, p string) ([]int64, bool) {
			return occurrences([]rune(s), []rune(p), false), true
		}, pyOnly(func(a []code) code {
			return atom("[i for i in range(len(" + a[0].s + ") - len(" + a[1].s + ") + 1) if " +
				a[0].at(pAtom) + ".startswith(" + a[1].s + ", i)]")
		})),
	}
}

// occurrences lists the indices where p starts in s, overlaps included
// (only the first when first is set).
func occurrences(s, p []rune, first bool) []int64 {
	out := []int64{}
	for i := 0; i+len(p) <= len(s); i++ {
		if slices.Equal(s[i:i+len(p)], p) {
			out = append(out, int64(i))
			if first {
				break
			}
		}
	}
	return out
}
