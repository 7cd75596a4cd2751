package dsl

import (
	"math"
	"strconv"
	"strings"
)

// Number formats: how a value is written inside a string output, the way
// Python's str() and format() write it. A template's hole (template.go)
// is a number written in one of these formats; its program computes the
// number and the format operator writes it.

// FormatKind says how a number is written.
type FormatKind uint8

// The formats of a template's holes.
const (
	// FmtStr is str(v): an integer's digits, a float's shortest repr
	// ("2.5", "1e+16"), a string itself.
	FmtStr FormatKind = iota
	// FmtPad is format(v, "0Nd"): an integer zero-padded to N characters,
	// the sign included ("07", "-05").
	FmtPad
	// FmtFixed is format(v, ".Nf"): a number with N decimals, correctly
	// rounded from its binary value, ties to even ("442.20", "25.0").
	FmtFixed
)

// Format is a number format and its width or decimals.
type Format struct {
	Kind FormatKind
	N    int
}

// String names the format in programs' compact form and notes.
func (f Format) String() string {
	switch f.Kind {
	case FmtPad:
		return "0" + strconv.Itoa(f.N) + "d"
	case FmtFixed:
		return "." + strconv.Itoa(f.N) + "f"
	}
	return "str"
}

// Write writes v (an int64, a float64 or a string) in the format, as
// Python does; false where Python would raise or the value has no form
// in it (a string under a number format).
func (f Format) Write(v any) (string, bool) {
	switch x := v.(type) {
	case int64:
		switch f.Kind {
		case FmtPad:
			return padInt(x, f.N), true
		case FmtFixed:
			// format(int, ".2f") converts the integer to a float first.
			if x > 1<<53 || x < -(1<<53) {
				return "", false
			}
			return fixedFloat(float64(x), f.N), true
		}
		return strconv.FormatInt(x, 10), true
	case float64:
		switch f.Kind {
		case FmtPad:
			return "", false // format(2.5, "02d") raises
		case FmtFixed:
			return fixedFloat(x, f.N), true
		}
		return StrFloat(x), true
	case string:
		if f.Kind != FmtStr {
			return "", false
		}
		return x, true
	case bool:
		if f.Kind != FmtStr {
			return "", false
		}
		if x {
			return "True", true
		}
		return "False", true
	}
	return "", false
}

// padInt is format(v, "0Nd"): the sign, then zeros up to N characters in
// all, then the digits.
func padInt(v int64, n int) string {
	digits := strconv.FormatInt(v, 10)
	sign := ""
	if v < 0 {
		sign, digits = "-", digits[1:]
	}
	if pad := n - len(sign) - len(digits); pad > 0 {
		digits = strings.Repeat("0", pad) + digits
	}
	return sign + digits
}

// fixedFloat is format(x, ".Nf"): Go's 'f' formatting rounds the exact
// binary value correctly, ties to even, as Python's does; the infinities
// and NaN are spelled as Python spells them.
func fixedFloat(x float64, n int) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return strconv.FormatFloat(x, 'f', n, 64)
}

// StrFloat is Python's str of a float (its repr): the shortest digits
// that read back as the same float, "inf" and "nan" spelled out.
func StrFloat(x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return pyFloat(x)
}

// FormatOp is the operator writing a number (or a string, under FmtStr)
// in the format f: str(x), format(x, "02d"), format(x, ".2f"). Its
// argument's type is t, the type of the program it writes.
func FormatOp(f Format, t Type) *Operator {
	return &Operator{Name: "format" + "{" + f.String() + "}", Fam: FamScalar, Args: []Type{t}, Ret: Str, Cost: 1,
		Eval: func(_ *Lambda, a []any) any {
			s, good := f.Write(a[0])
			if !good {
				return ErrV
			}
			return s
		},
		Py: func(_ *Emitter, _ *Lambda, a []Code) Code {
			switch {
			case f.Kind == FmtStr && t == Str:
				return a[0]
			case f.Kind == FmtStr:
				return Call("str", a[0])
			}
			return Call("format", a[0], Atom(strconv.Quote(f.String())))
		}}
}

// ReadFormat reads the texts one hole takes as numbers written in one
// format, and returns the format and the numbers (int64 or float64); ok
// is false when they are not numbers of one format, which makes the hole
// a string. Integers are written as str does, or zero-padded to one width
// when some has a leading zero; numbers with a decimal point are written
// with a fixed number of decimals when every one has the same, and as
// str writes a float otherwise (each text must then be the float's repr).
func ReadFormat(texts []string) (f Format, vals []any, ok bool) {
	if len(texts) == 0 {
		return Format{}, nil, false
	}
	ints, padded, width := true, false, len(texts[0])
	decs := -1
	for _, s := range texts {
		digits := strings.TrimPrefix(s, "-")
		whole, frac, dot := strings.Cut(digits, ".")
		if whole == "" || !allDigits(whole) || dot && (frac == "" || !allDigits(frac)) {
			return Format{}, nil, false
		}
		if dot {
			ints = false
			switch {
			case decs < 0:
				decs = len(frac)
			case decs != len(frac):
				decs = 0 // decimals vary: str of a float
			}
			continue
		}
		if len(whole) > 1 && whole[0] == '0' {
			padded = true
		}
		if len(s) != width {
			width = -1
		}
	}
	switch {
	case ints && padded && width < 0:
		return Format{}, nil, false // "007" beside "12": no one width
	case ints:
		f = Format{Kind: FmtStr}
		if padded {
			f = Format{Kind: FmtPad, N: width}
		}
		for _, s := range texts {
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return Format{}, nil, false
			}
			vals = append(vals, v)
		}
		return f, vals, true
	}
	f = Format{Kind: FmtFixed, N: decs}
	if decs <= 0 {
		f = Format{Kind: FmtStr}
	}
	for _, s := range texts {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return Format{}, nil, false
		}
		// Every text must be what the format writes of its number: a
		// float's repr has no trailing zeros ("2.50" is not str(2.5)),
		// and an integer among fixed decimals has a decimal point.
		if w, _ := f.Write(v); w != s {
			return Format{}, nil, false
		}
		vals = append(vals, v)
	}
	return f, vals, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
