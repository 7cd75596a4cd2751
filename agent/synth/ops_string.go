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
	I, B, S := tInt, tBool, tStr
	return []*operator{
		mk("len", famScalar, ts(S), I, func(a []any) any { return int64(len([]rune(a[0].(string)))) },
			func(a []code) code { return call("len", a[0]) }),
		sMap("upper", "upper", strings.ToUpper),
		sMap("lower", "lower", strings.ToLower),
		sMap("strip", "strip", strings.TrimSpace),
		sMap("capitalize", "capitalize", pyCapitalize),
		sMap("title", "title", pyTitle),
		sMap("swapcase", "swapcase", pySwapcase),
		mk("reverse", famScalar, ts(S), S, func(a []any) any { return reverseString(a[0].(string)) },
			func(a []code) code { return atom(a[0].at(pAtom) + "[::-1]") }),
		mk("sorted_chars", famScalar, ts(S), S, func(a []any) any {
			r := []rune(a[0].(string))
			slices.Sort(r)
			return string(r)
		}, func(a []code) code { return atom(`"".join(sorted(` + a[0].s + `))`) }),
		mk("concat", famScalar, ts(S, S), S, func(a []any) any {
			s := a[0].(string) + a[1].(string)
			if len(s) > maxLen {
				return errV
			}
			return s
		}, func(a []code) code { return binop(a[0], "+", a[1], pAdd) }),
		mk("repeat", famScalar, ts(S, I), S, func(a []any) any {
			s, k := a[0].(string), a[1].(int64)
			if k <= 0 {
				return ""
			}
			if k > maxLen || int64(len(s))*k > maxLen {
				return errV
			}
			return strings.Repeat(s, int(k))
		}, func(a []code) code { return binop(a[0], "*", a[1], pMul) }),
		mk("seq", famScalar, ts(S, S), B, func(a []any) any { return a[0].(string) == a[1].(string) },
			func(a []code) code { return cmpop(a[0], "==", a[1]) }),
		mk("contains", famScalar, ts(S, S), B, func(a []any) any { return strings.Contains(a[1].(string), a[0].(string)) },
			func(a []code) code { return cmpop(a[0], "in", a[1]) }),
		mk("count", famScalar, ts(S, S), I, func(a []any) any {
			s, t := a[0].(string), a[1].(string)
			if t == "" {
				return int64(len([]rune(s)) + 1)
			}
			return int64(strings.Count(s, t))
		}, func(a []code) code { return method(a[0], "count", a[1]) }),
		mk("char_at", famScalar, ts(S, I), S, func(a []any) any {
			v := index([]rune(a[0].(string)), a[1].(int64))
			if r, good := v.(rune); good {
				return string(r)
			}
			return errV
		}, func(a []code) code { return atom(a[0].at(pAtom) + "[" + a[1].s + "]") }),
		mk("prefix", famScalar, ts(S, I), S, func(a []any) any { return string(takeList([]rune(a[0].(string)), a[1].(int64))) },
			func(a []code) code { return atom(a[0].at(pAtom) + "[:" + a[1].s + "]") }),
		mk("suffix", famScalar, ts(S, I), S, func(a []any) any { return string(dropList([]rune(a[0].(string)), a[1].(int64))) },
			func(a []code) code { return atom(a[0].at(pAtom) + "[" + a[1].s + ":]") }),
		sPred("isdigit", func(s string) bool { return allRunes(s, isASCIIDigit) }, func(a code) code { return method(a, "isdigit") }),
		sPred("isalpha", func(s string) bool { return allRunes(s, unicode.IsLetter) }, func(a code) code { return method(a, "isalpha") }),
		sPred("isspace", func(s string) bool { return allRunes(s, unicode.IsSpace) }, func(a code) code { return method(a, "isspace") }),
		sPred("isupper", func(s string) bool { return strings.ToLower(s) != s && strings.ToUpper(s) == s },
			func(a code) code { return method(a, "isupper") }),
		sPred("islower", func(s string) bool { return strings.ToUpper(s) != s && strings.ToLower(s) == s },
			func(a code) code { return method(a, "islower") }),
		sPred("is_vowel", func(s string) bool { return s != "" && strings.Contains("aeiouAEIOU", s) },
			func(a code) code { return cmpop(a, "in", atom(`"aeiouAEIOU"`)) }),
		mk("ord", famScalar, ts(S), I, func(a []any) any {
			r := []rune(a[0].(string))
			if len(r) != 1 {
				return errV
			}
			return int64(r[0])
		}, func(a []code) code { return call("ord", a[0]) }),
		mk("chr", famScalar, ts(I), S, func(a []any) any {
			n := a[0].(int64)
			if n < 0 || n > 0xD7FF {
				return errV
			}
			return string(rune(n))
		}, func(a []code) code { return call("chr", a[0]) }),
		mk("str", famScalar, ts(I), S, func(a []any) any { return strconv.FormatInt(a[0].(int64), 10) },
			func(a []code) code { return call("str", a[0]) }),
		mkE("shift", famScalar, ts(S, I), S, func(a []any) any { return shiftLetter(a[0].(string), a[1].(int64)) },
			func(e *emitter, a []code) code {
				e.helper("shift_letters", pyShiftLetters)
				return call("shift_letters", a...)
			}),
	}
}

// stringLibraryOps are Python idioms over strings: run-length encoding,
// the most common character.
func stringLibraryOps() []*operator {
	S := tStr
	return []*operator{
		rare(costs(2, mkE("run_length_encode", famScalar, ts(S), S, func(a []any) any {
			r := []rune(a[0].(string))
			var sb strings.Builder
			for _, n := range runLengths(nil, r) {
				sb.WriteRune(r[0])
				sb.WriteString(strconv.FormatInt(n, 10))
				r = r[n:]
			}
			return sb.String()
		}, func(e *emitter, a []code) code {
			e.use("itertools")
			return atom(`"".join(k + str(len(list(g))) for k, g in itertools.groupby(` + a[0].s + "))")
		}))),
		rare(mk("mode", famScalar, ts(S), S, func(a []any) any {
			r := []rune(a[0].(string))
			if len(r) == 0 {
				return ""
			}
			return string(mostCommon(nil, r))
		}, func(a []code) code {
			return atom("max(sorted(" + a[0].s + "), key=" + a[0].at(pAtom) + `.count, default="")`)
		})),
	}
}

// stringNamedOps are named combinations over strings.
func stringNamedOps() []*operator {
	B, S := tBool, tStr
	return []*operator{
		mk("isalnum", famScalar, ts(S), B, func(a []any) any {
			return allRunes(a[0].(string), func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
		}, func(a []code) code { return method(a[0], "isalnum") }),
		mk("is_palindrome", famScalar, ts(S), B, func(a []any) any { s := a[0].(string); return s == reverseString(s) },
			func(a []code) code { return cmpop(a[0], "==", atom(a[0].at(pAtom)+"[::-1]")) }),
	}
}

// stringListOps split and join strings, work on lists of strings, and
// map, filter and count characters.
func stringListOps() []*operator {
	I, B, S, LI, LS := tInt, tBool, tStr, tListInt, tListStr
	return []*operator{
		mk("split", famList, ts(S), LS, func(a []any) any {
			f := strings.Fields(a[0].(string))
			if f == nil {
				f = []string{}
			}
			return f
		}, func(a []code) code { return method(a[0], "split") }),
		mk("chars", famList, ts(S), LS, func(a []any) any {
			r := []rune(a[0].(string))
			out := make([]string, len(r))
			for i, c := range r {
				out[i] = string(c)
			}
			return out
		}, func(a []code) code { return call("list", a[0]) }),
		mk("join", famList, ts(LS), S, func(a []any) any { return strings.Join(a[0].([]string), " ") }, func(a []code) code { return method(atom(`" "`), "join", a[0]) }),
		mk("concat_all", famList, ts(LS), S, func(a []any) any { return strings.Join(a[0].([]string), "") }, func(a []code) code { return method(atom(`""`), "join", a[0]) }),
		mk("len", famList, ts(LS), I, func(a []any) any { return int64(len(a[0].([]string))) }, func(a []code) code { return call("len", a[0]) }),
		mk("sorted", famList, ts(LS), LS, func(a []any) any { return sortedCopy(nil, a[0].([]string), false) }, func(a []code) code { return call("sorted", a[0]) }),
		mk("reversed", famList, ts(LS), LS, func(a []any) any { return reversed(a[0].([]string)) }, func(a []code) code { return atom(a[0].at(pAtom) + "[::-1]") }),
		mk("first", famList, ts(LS), S, func(a []any) any { return index(a[0].([]string), 0) }, func(a []code) code { return atom(a[0].at(pAtom) + "[0]") }),
		mk("last", famList, ts(LS), S, func(a []any) any { return index(a[0].([]string), -1) }, func(a []code) code { return atom(a[0].at(pAtom) + "[-1]") }),
		mk("unique", famList, ts(LS), LS, func(a []any) any { return uniqueOrdered(nil, a[0].([]string)) }, func(a []code) code { return atom("list(dict.fromkeys(" + a[0].s + "))") }),
		comprehension(mkL("map", famList, sigS, S, ts(LS), LS, func(l *lambda, a []any) any { return mapList[string, string](a[0].([]string), c1[string](l)) },
			func(e *emitter, l *lambda, a []code) code { return comp(e.lam(l, atom("w")), "w", a[0].s) })),
		comprehension(mkL("map", famList, sigS, I, ts(LS), LI, func(l *lambda, a []any) any { return mapList[string, int64](a[0].([]string), c1[string](l)) },
			func(e *emitter, l *lambda, a []code) code { return comp(e.lam(l, atom("w")), "w", a[0].s) })),
		comprehension(mkL("filter", famList, sigS, B, ts(LS), LS, func(l *lambda, a []any) any { return filterList(a[0].([]string), c1[string](l)) },
			func(e *emitter, l *lambda, a []code) code {
				return atom("[w for w in " + a[0].s + " if " + e.lam(l, atom("w")).s + "]")
			})),
		mkL("sort_by", famList, sigS, I, ts(LS), LS, func(l *lambda, a []any) any {
			return sortByKey(a[0].([]string), func(x string) any { return l.call1(x) })
		},
			func(e *emitter, l *lambda, a []code) code {
				return atom("sorted(" + a[0].s + ", key=" + e.fn(l, "w") + ")")
			}),
		mkL("max_by", famList, sigS, I, ts(LS), S, func(l *lambda, a []any) any {
			return extremeByKey(a[0].([]string), func(x string) any { return l.call1(x) }, true)
		},
			func(e *emitter, l *lambda, a []code) code {
				return atom("max(" + a[0].s + ", key=" + e.fn(l, "w") + ")")
			}),
		mkL("min_by", famList, sigS, I, ts(LS), S, func(l *lambda, a []any) any {
			return extremeByKey(a[0].([]string), func(x string) any { return l.call1(x) }, false)
		},
			func(e *emitter, l *lambda, a []code) code {
				return atom("min(" + a[0].s + ", key=" + e.fn(l, "w") + ")")
			}),
		comprehension(mkL("map_chars", famList, sigS, S, ts(S), S, func(l *lambda, a []any) any {
			var sb strings.Builder
			for _, c := range a[0].(string) {
				v, good := l.call1(string(c)).(string)
				if !good {
					return errV
				}
				sb.WriteString(v)
			}
			return sb.String()
		}, func(e *emitter, l *lambda, a []code) code {
			return atom(`"".join(` + e.lam(l, atom("c")).s + " for c in " + a[0].s + ")")
		})),
		comprehension(mkL("filter_chars", famList, sigS, B, ts(S), S, func(l *lambda, a []any) any {
			var sb strings.Builder
			for _, c := range a[0].(string) {
				v, good := l.call1(string(c)).(bool)
				if !good {
					return errV
				}
				if v {
					sb.WriteRune(c)
				}
			}
			return sb.String()
		}, func(e *emitter, l *lambda, a []code) code {
			return atom(`"".join(c for c in ` + a[0].s + " if " + e.lam(l, atom("c")).s + ")")
		})),
		comprehension(mkL("count_chars", famList, sigS, B, ts(S), I, func(l *lambda, a []any) any {
			n := int64(0)
			for _, c := range a[0].(string) {
				v, good := l.call1(string(c)).(bool)
				if !good {
					return errV
				}
				if v {
					n++
				}
			}
			return n
		}, func(e *emitter, l *lambda, a []code) code {
			return atom("sum(1 for c in " + a[0].s + " if " + e.lam(l, atom("c")).s + ")")
		})),
	}
}

// stringRunLengthOps are the lengths of a string's runs of one character.
func stringRunLengthOps() []*operator {
	S, LI := tStr, tListInt
	return []*operator{
		mkE("run_lengths", famScan, ts(S), LI, func(a []any) any { return runLengths(nil, []rune(a[0].(string))) },
			func(e *emitter, a []code) code {
				e.use("itertools")
				return atom("[len(list(g)) for _, g in itertools.groupby(" + a[0].s + ")]")
			}),
	}
}

// stringSplitOps split a string at every single space.
func stringSplitOps() []*operator {
	S, LS := tStr, tListStr
	return []*operator{
		mk("split_on_space", famList, ts(S), LS, func(a []any) any { return strings.Split(a[0].(string), " ") },
			func(a []code) code { return method(a[0], "split", atom(`" "`)) }),
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
	S, I, LI := tStr, tInt, tListInt
	return []*operator{
		mk("find", famScalar, ts(S, S), I, func(a []any) any {
			occ := occurrences([]rune(a[0].(string)), []rune(a[1].(string)), true)
			if len(occ) == 0 {
				return int64(-1)
			}
			return occ[0]
		}, func(a []code) code { return method(a[0], "find", a[1]) }),
		// codes are a string's character codes: checksums and scores
		// of characters are then sums and folds over a list.
		mk("codes", famList, ts(S), LI, func(a []any) any {
			out := []int64{}
			for _, r := range a[0].(string) {
				out = append(out, int64(r))
			}
			return out
		}, func(a []code) code { return atom("[ord(c) for c in " + a[0].s + "]") }),
		mk("occurrences", famList, ts(S, S), LI, func(a []any) any {
			return occurrences([]rune(a[0].(string)), []rune(a[1].(string)), false)
		}, func(a []code) code {
			return atom("[i for i in range(len(" + a[0].s + ") - len(" + a[1].s + ") + 1) if " +
				a[0].at(pAtom) + ".startswith(" + a[1].s + ", i)]")
		}),
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
