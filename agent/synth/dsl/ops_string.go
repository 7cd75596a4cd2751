package dsl

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// String operators, and operators over lists of strings.

// stringOps are the basic string operators: length, case, slicing,
// searching, character classes, conversions.
func stringOps() []*Operator {
	return []*Operator{
		op1("len", FamScalar, func(s string) (int64, bool) { return int64(len([]rune(s))), true },
			pyOnly(func(a []Code) Code { return Call("len", a[0]) })),
		sMap("upper", "upper", strings.ToUpper),
		sMap("lower", "lower", strings.ToLower),
		sMap("strip", "strip", strings.TrimSpace),
		sMap("capitalize", "capitalize", pyCapitalize),
		sMap("title", "title", pyTitle),
		sMap("swapcase", "swapcase", Swapcase),
		op1("reverse", FamScalar, func(s string) (string, bool) { return ReverseString(s), true },
			pyOnly(func(a []Code) Code { return Atom(a[0].At(pAtom) + "[::-1]") })),
		op1("sorted_chars", FamScalar, func(s string) (string, bool) {
			r := []rune(s)
			slices.Sort(r)
			return string(r), true
		}, pyOnly(func(a []Code) Code { return Atom(`"".join(sorted(` + a[0].S + `))`) })),
		op2("concat", FamScalar, func(s, t string) (string, bool) {
			if len(s)+len(t) > MaxLen {
				return "", false
			}
			return s + t, true
		}, pyOnly(func(a []Code) Code { return binop(a[0], "+", a[1], pAdd) })),
		op2("repeat", FamScalar, func(s string, k int64) (string, bool) {
			if k <= 0 {
				return "", true
			}
			if k > MaxLen || int64(len(s))*k > MaxLen {
				return "", false
			}
			return strings.Repeat(s, int(k)), true
		}, pyOnly(func(a []Code) Code { return binop(a[0], "*", a[1], pMul) })),
		op2("seq", FamScalar, func(s, t string) (bool, bool) { return s == t, true },
			pyOnly(func(a []Code) Code { return cmpop(a[0], "==", a[1]) })),
		op2("contains", FamScalar, func(s, t string) (bool, bool) { return strings.Contains(t, s), true },
			pyOnly(func(a []Code) Code { return cmpop(a[0], "in", a[1]) })),
		op2("count", FamScalar, func(s, t string) (int64, bool) {
			if t == "" {
				return int64(len([]rune(s)) + 1), true
			}
			return int64(strings.Count(s, t)), true
		}, pyOnly(func(a []Code) Code { return method(a[0], "count", a[1]) })),
		op2("char_at", FamScalar, func(s string, i int64) (string, bool) {
			r, good := at([]rune(s), i)
			if !good {
				return "", false
			}
			return string(r), true
		}, pyOnly(func(a []Code) Code { return Atom(a[0].At(pAtom) + "[" + a[1].S + "]") })),
		op2("prefix", FamScalar, func(s string, k int64) (string, bool) { return string(takeList([]rune(s), k)), true },
			pyOnly(func(a []Code) Code { return Atom(a[0].At(pAtom) + "[:" + a[1].S + "]") })),
		op2("suffix", FamScalar, func(s string, k int64) (string, bool) { return string(dropList([]rune(s), k)), true },
			pyOnly(func(a []Code) Code { return Atom(a[0].At(pAtom) + "[" + a[1].S + ":]") })),
		sPred("isdigit", func(s string) bool { return allRunes(s, isASCIIDigit) }, func(a Code) Code { return method(a, "isdigit") }),
		sPred("isalpha", func(s string) bool { return allRunes(s, unicode.IsLetter) }, func(a Code) Code { return method(a, "isalpha") }),
		sPred("isspace", func(s string) bool { return allRunes(s, unicode.IsSpace) }, func(a Code) Code { return method(a, "isspace") }),
		sPred("isupper", func(s string) bool { return strings.ToLower(s) != s && strings.ToUpper(s) == s },
			func(a Code) Code { return method(a, "isupper") }),
		sPred("islower", func(s string) bool { return strings.ToUpper(s) != s && strings.ToLower(s) == s },
			func(a Code) Code { return method(a, "islower") }),
		sPred("is_vowel", func(s string) bool { return s != "" && strings.Contains("aeiouAEIOU", s) },
			func(a Code) Code { return cmpop(a, "in", Atom(`"aeiouAEIOU"`)) }),
		op1("ord", FamScalar, func(s string) (int64, bool) {
			r := []rune(s)
			if len(r) != 1 {
				return 0, false
			}
			return int64(r[0]), true
		}, pyOnly(func(a []Code) Code { return Call("ord", a[0]) })),
		op1("chr", FamScalar, func(n int64) (string, bool) {
			if n < 0 || n > 0xD7FF {
				return "", false
			}
			return string(rune(n)), true
		}, pyOnly(func(a []Code) Code { return Call("chr", a[0]) })),
		op1("str", FamScalar, func(n int64) (string, bool) { return strconv.FormatInt(n, 10), true },
			pyOnly(func(a []Code) Code { return Call("str", a[0]) })),
		op2("shift", FamScalar, func(s string, k int64) (string, bool) { return shiftLetter(s, k), true },
			func(e *Emitter, a []Code) Code {
				e.helper("shift_letters", pyShiftLetters)
				return Call("shift_letters", a...)
			}),
	}
}

// stringLibraryOps are Python idioms over strings: run-length encoding,
// the most common character.
func stringLibraryOps() []*Operator {
	return []*Operator{
		rare(costs(2, op1("run_length_encode", FamScalar, func(s string) (string, bool) {
			r := []rune(s)
			var sb strings.Builder
			for _, n := range runLengths(nil, r) {
				sb.WriteRune(r[0])
				sb.WriteString(strconv.FormatInt(n, 10))
				r = r[n:]
			}
			return sb.String(), true
		}, func(e *Emitter, a []Code) Code {
			e.use("itertools")
			return Atom(`"".join(k + str(len(list(g))) for k, g in itertools.groupby(` + a[0].S + "))")
		}))),
		rare(op1("mode", FamScalar, func(s string) (string, bool) {
			r := []rune(s)
			if len(r) == 0 {
				return "", true
			}
			return string(mostCommon(nil, r)), true
		}, pyOnly(func(a []Code) Code {
			return Atom("max(sorted(" + a[0].S + "), key=" + a[0].At(pAtom) + `.count, default="")`)
		}))),
	}
}

// stringNamedOps are named combinations over strings.
func stringNamedOps() []*Operator {
	return []*Operator{
		op1("isalnum", FamScalar, func(s string) (bool, bool) {
			return allRunes(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }), true
		}, pyOnly(func(a []Code) Code { return method(a[0], "isalnum") })),
		op1("is_palindrome", FamScalar, func(s string) (bool, bool) { return s == ReverseString(s), true },
			pyOnly(func(a []Code) Code { return cmpop(a[0], "==", Atom(a[0].At(pAtom)+"[::-1]")) })),
	}
}

// stringListOps split and join strings, work on lists of strings, and
// map, filter and count characters.
func stringListOps() []*Operator {
	I, B, S := Int, Bool, Str
	return []*Operator{
		op1("split", FamList, func(s string) ([]string, bool) {
			f := strings.Fields(s)
			if f == nil {
				f = []string{}
			}
			return f, true
		}, pyOnly(func(a []Code) Code { return method(a[0], "split") })),
		op1("chars", FamList, func(s string) ([]string, bool) {
			r := []rune(s)
			out := make([]string, len(r))
			for i, c := range r {
				out[i] = string(c)
			}
			return out, true
		}, pyOnly(func(a []Code) Code { return Call("list", a[0]) })),
		op1("join", FamList, func(ws []string) (string, bool) { return strings.Join(ws, " "), true },
			pyOnly(func(a []Code) Code { return method(Atom(`" "`), "join", a[0]) })),
		op1("concat_all", FamList, func(ws []string) (string, bool) { return strings.Join(ws, ""), true },
			pyOnly(func(a []Code) Code { return method(Atom(`""`), "join", a[0]) })),
		op1("len", FamList, func(ws []string) (int64, bool) { return int64(len(ws)), true },
			pyOnly(func(a []Code) Code { return Call("len", a[0]) })),
		op1("sorted", FamList, func(ws []string) ([]string, bool) { return sortedCopy(nil, ws, false), true },
			pyOnly(func(a []Code) Code { return Call("sorted", a[0]) })),
		op1("reversed", FamList, func(ws []string) ([]string, bool) { return Reversed(nil, ws), true },
			pyOnly(func(a []Code) Code { return Atom(a[0].At(pAtom) + "[::-1]") })),
		op1("first", FamList, func(ws []string) (string, bool) { return at(ws, 0) },
			pyOnly(func(a []Code) Code { return Atom(a[0].At(pAtom) + "[0]") })),
		op1("last", FamList, func(ws []string) (string, bool) { return at(ws, -1) },
			pyOnly(func(a []Code) Code { return Atom(a[0].At(pAtom) + "[-1]") })),
		op1("unique", FamList, func(ws []string) ([]string, bool) { return uniqueOrdered(nil, ws), true },
			pyOnly(func(a []Code) Code { return Atom("list(dict.fromkeys(" + a[0].S + "))") })),
		comprehension(opL1("map", FamList, SigS, S, mapL[string, string],
			func(e *Emitter, l *Lambda, a []Code) Code { return comp(e.Lam(l, Atom("w")), "w", a[0].S) })),
		comprehension(opL1("map", FamList, SigS, I, mapL[string, int64],
			func(e *Emitter, l *Lambda, a []Code) Code { return comp(e.Lam(l, Atom("w")), "w", a[0].S) })),
		comprehension(opL1("filter", FamList, SigS, B, filterL[string],
			func(e *Emitter, l *Lambda, a []Code) Code {
				return Atom("[w for w in " + a[0].S + " if " + e.Lam(l, Atom("w")).S + "]")
			})),
		opL1("sort_by", FamList, SigS, I, sortByL[string],
			func(e *Emitter, l *Lambda, a []Code) Code {
				return Atom("sorted(" + a[0].S + ", key=" + e.fn(l, "w") + ")")
			}),
		opL1("max_by", FamList, SigS, I, func(ar *Arena, l *Lambda, ws []string) (string, bool) { return extremeByL(ar, l, ws, true) },
			func(e *Emitter, l *Lambda, a []Code) Code {
				return Atom("max(" + a[0].S + ", key=" + e.fn(l, "w") + ")")
			}),
		opL1("min_by", FamList, SigS, I, func(ar *Arena, l *Lambda, ws []string) (string, bool) { return extremeByL(ar, l, ws, false) },
			func(e *Emitter, l *Lambda, a []Code) Code {
				return Atom("min(" + a[0].S + ", key=" + e.fn(l, "w") + ")")
			}),
		comprehension(opL1("map_chars", FamList, SigS, S, func(ar *Arena, l *Lambda, s string) (string, bool) {
			var sb strings.Builder
			for _, c := range s {
				v, good := Lam1[string, string](ar, l, string(c))
				if !good {
					return "", false
				}
				sb.WriteString(v)
			}
			return sb.String(), true
		}, func(e *Emitter, l *Lambda, a []Code) Code {
			return Atom(`"".join(` + e.Lam(l, Atom("c")).S + " for c in " + a[0].S + ")")
		})),
		comprehension(opL1("filter_chars", FamList, SigS, B, func(ar *Arena, l *Lambda, s string) (string, bool) {
			var sb strings.Builder
			for _, c := range s {
				v, good := Lam1[string, bool](ar, l, string(c))
				if !good {
					return "", false
				}
				if v {
					sb.WriteRune(c)
				}
			}
			return sb.String(), true
		}, func(e *Emitter, l *Lambda, a []Code) Code {
			return Atom(`"".join(c for c in ` + a[0].S + " if " + e.Lam(l, Atom("c")).S + ")")
		})),
		comprehension(opL1("count_chars", FamList, SigS, B, func(ar *Arena, l *Lambda, s string) (int64, bool) {
			n := int64(0)
			for _, c := range s {
				v, good := Lam1[string, bool](ar, l, string(c))
				if !good {
					return 0, false
				}
				if v {
					n++
				}
			}
			return n, true
		}, func(e *Emitter, l *Lambda, a []Code) Code {
			return Atom("sum(1 for c in " + a[0].S + " if " + e.Lam(l, Atom("c")).S + ")")
		})),
	}
}

// stringRunLengthOps are the lengths of a string's runs of one character.
func stringRunLengthOps() []*Operator {
	return []*Operator{
		op1("run_lengths", FamScan, func(s string) ([]int64, bool) { return runLengths(nil, []rune(s)), true },
			func(e *Emitter, a []Code) Code {
				e.use("itertools")
				return Atom("[len(list(g)) for _, g in itertools.groupby(" + a[0].S + ")]")
			}),
	}
}

// stringSplitOps split a string at every single space, and test whether a
// string is one of a list's (a word among the banned words given beside
// a text).
func stringSplitOps() []*Operator {
	return []*Operator{
		op1("split_on_space", FamList, func(s string) ([]string, bool) { return strings.Split(s, " "), true },
			pyOnly(func(a []Code) Code { return method(a[0], "split", Atom(`" "`)) })),
		op2("member", FamList, func(w string, ws []string) (bool, bool) { return slices.Contains(ws, w), true },
			pyOnly(func(a []Code) Code { return cmpop(a[0], "in", a[1]) })),
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

// Swapcase is Python's str.swapcase.
func Swapcase(s string) string {
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

// ReverseString reverses a string by runes.
func ReverseString(s string) string {
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
			m, _ := PyMod(int64(r-'a')+k, 26)
			r = 'a' + rune(m)
		case r >= 'A' && r <= 'Z':
			m, _ := PyMod(int64(r-'A')+k, 26)
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
// everywhere, overlaps included, the character codes, and characters
// mapped or deleted by tables given as arguments (str.translate).
func stringProgramOps() []*Operator {
	return []*Operator{
		op2("find", FamScalar, func(s, p string) (int64, bool) {
			occ := occurrences([]rune(s), []rune(p), true)
			if len(occ) == 0 {
				return -1, true
			}
			return occ[0], true
		}, pyOnly(func(a []Code) Code { return method(a[0], "find", a[1]) })),
		// codes are a string's character codes: checksums and scores
		// of characters are then sums and folds over a list.
		op1("codes", FamList, func(s string) ([]int64, bool) {
			out := []int64{}
			for _, r := range s {
				out = append(out, int64(r))
			}
			return out, true
		}, pyOnly(func(a []Code) Code { return Atom("[ord(c) for c in " + a[0].S + "]") })),
		// translate is str.translate(str.maketrans(frm, to)): a mapping of
		// characters given as two arguments; delete_chars drops the
		// characters of a second argument.
		op3("translate", FamScalar, pyTranslate,
			pyOnly(func(a []Code) Code { return method(a[0], "translate", Call("str.maketrans", a[1], a[2])) })),
		op2("delete_chars", FamScalar, func(s, chars string) (string, bool) {
			return strings.Map(func(r rune) rune {
				if strings.ContainsRune(chars, r) {
					return -1
				}
				return r
			}, s), true
		}, pyOnly(func(a []Code) Code {
			return method(a[0], "translate", Call("str.maketrans", Atom(`""`), Atom(`""`), a[1]))
		})),
		op2("occurrences", FamList, func(s, p string) ([]int64, bool) {
			return occurrences([]rune(s), []rune(p), false), true
		}, pyOnly(func(a []Code) Code {
			return Atom("[i for i in range(len(" + a[0].S + ") - len(" + a[1].S + ") + 1) if " +
				a[0].At(pAtom) + ".startswith(" + a[1].S + ", i)]")
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

// pyTranslate is s.translate(str.maketrans(frm, to)): str.maketrans
// raises ValueError unless frm and to have as many characters, and a
// character twice in frm takes its last image.
func pyTranslate(s, frm, to string) (string, bool) {
	f, t := []rune(frm), []rune(to)
	if len(f) != len(t) {
		return "", false
	}
	if len(f) == 0 {
		return s, true
	}
	table := make(map[rune]rune, len(f))
	for i, r := range f {
		table[r] = t[i]
	}
	return strings.Map(func(r rune) rune {
		if m, have := table[r]; have {
			return m
		}
		return r
	}, s), true
}
