package task

import (
	"encoding/json"
	"math"
	"unicode"
)

// Categories returns the structural case categories of an input kind that
// are possible under the domain (nil domain: unbounded). KindOther has none.
func Categories(kind Kind, d *Domain) []string {
	allowsNeg := d == nil || d.Lo < 0
	allowsZero := d == nil || d.Contains(0)
	var cats []string
	add := func(ok bool, names ...string) {
		if ok {
			cats = append(cats, names...)
		}
	}
	switch kind {
	case KindList:
		add(true, "empty", "single", "long")
		add(allowsZero, "has_zero")
		add(allowsNeg, "has_negative")
		add(true, "repeated_value", "all_equal")
		wide := d == nil || d.Hi-d.Lo >= 2
		add(wide, "ascending", "descending")
	case KindTwoLists:
		add(true, "both_empty", "one_empty", "equal_lengths", "unequal_lengths", "shared_value")
		add(allowsNeg, "has_negative")
	case KindInt:
		add(allowsZero, "zero")
		add(d == nil || d.Contains(1), "one")
		add(allowsNeg, "negative")
		add(d == nil || d.Hi > 0, "positive")
		add(true, "large", "even", "odd")
	case KindPair:
		add(true, "equal")
		wide := d == nil || d.Hi > d.Lo
		add(wide, "first_less", "first_greater")
		add(allowsZero, "has_zero")
		add(allowsNeg, "has_negative")
	case KindString:
		add(true, "empty", "single_char", "repeated_char", "has_space", "mixed_case", "has_digit", "palindrome", "long")
	case KindPoints:
		add(true, "single_point", "two_points", "collinear", "duplicate_point")
		add(allowsNeg, "negative_coordinate")
		add(true, "axis_aligned")
	}
	return cats
}

// LargeThreshold is the magnitude from which an integer counts as "large":
// 100, or the upper half of a smaller domain.
func LargeThreshold(d *Domain) float64 {
	if d == nil {
		return 100
	}
	m := math.Max(math.Abs(d.Lo), math.Abs(d.Hi))
	if m < 200 {
		return math.Max(1, math.Ceil(m/2))
	}
	return 100
}

// CategoriesOf returns the categories an input covers. Inputs that do not
// have the kind's shape cover nothing.
func CategoriesOf(kind Kind, d *Domain, input json.RawMessage) []string {
	v, err := Decode(input)
	if err != nil {
		return nil
	}
	var cats []string
	add := func(ok bool, name string) {
		if ok {
			cats = append(cats, name)
		}
	}
	switch kind {
	case KindList:
		xs, ok := numberList(v)
		if !ok {
			return nil
		}
		add(len(xs) == 0, "empty")
		add(len(xs) == 1, "single")
		add(len(xs) >= 8, "long")
		add(containsF(xs, func(x float64) bool { return x == 0 }), "has_zero")
		add(containsF(xs, func(x float64) bool { return x < 0 }), "has_negative")
		add(hasRepeat(xs), "repeated_value")
		add(len(xs) >= 2 && allEqual(xs), "all_equal")
		add(len(xs) >= 3 && monotone(xs, func(a, b float64) bool { return a < b }), "ascending")
		add(len(xs) >= 3 && monotone(xs, func(a, b float64) bool { return a > b }), "descending")
	case KindTwoLists:
		pair, ok := v.([]any)
		if !ok || len(pair) != 2 {
			return nil
		}
		a, oka := numberList(pair[0])
		b, okb := numberList(pair[1])
		if !oka || !okb {
			return nil
		}
		add(len(a) == 0 && len(b) == 0, "both_empty")
		add((len(a) == 0) != (len(b) == 0), "one_empty")
		add(len(a) == len(b) && len(a) >= 1, "equal_lengths")
		add(len(a) != len(b), "unequal_lengths")
		shared := false
		for _, x := range a {
			if containsF(b, func(y float64) bool { return x == y }) {
				shared = true
				break
			}
		}
		add(shared, "shared_value")
		neg := func(x float64) bool { return x < 0 }
		add(containsF(a, neg) || containsF(b, neg), "has_negative")
	case KindInt:
		n, ok := v.(json.Number)
		if !ok {
			return nil
		}
		x, err := n.Float64()
		if err != nil {
			return nil
		}
		add(x == 0, "zero")
		add(x == 1, "one")
		add(x < 0, "negative")
		add(x > 0, "positive")
		add(math.Abs(x) >= LargeThreshold(d), "large")
		if x == math.Trunc(x) {
			add(math.Mod(x, 2) == 0, "even")
			add(math.Mod(x, 2) != 0, "odd")
		}
	case KindPair:
		xs, ok := numberList(v)
		if !ok || len(xs) != 2 {
			return nil
		}
		add(xs[0] == xs[1], "equal")
		add(xs[0] < xs[1], "first_less")
		add(xs[0] > xs[1], "first_greater")
		add(xs[0] == 0 || xs[1] == 0, "has_zero")
		add(xs[0] < 0 || xs[1] < 0, "has_negative")
	case KindString:
		s, ok := v.(string)
		if !ok {
			return nil
		}
		r := []rune(s)
		add(len(r) == 0, "empty")
		add(len(r) == 1, "single_char")
		seen := map[rune]bool{}
		rep, space, upper, lower, digit := false, false, false, false, false
		for _, c := range r {
			if seen[c] {
				rep = true
			}
			seen[c] = true
			space = space || unicode.IsSpace(c)
			upper = upper || unicode.IsUpper(c)
			lower = lower || unicode.IsLower(c)
			digit = digit || unicode.IsDigit(c)
		}
		add(rep, "repeated_char")
		add(space, "has_space")
		add(upper && lower, "mixed_case")
		add(digit, "has_digit")
		pal := len(r) >= 2
		for i := 0; pal && i < len(r)/2; i++ {
			pal = r[i] == r[len(r)-1-i]
		}
		add(pal, "palindrome")
		add(len(r) >= 10, "long")
	case KindPoints:
		list, ok := v.([]any)
		if !ok {
			return nil
		}
		pts := make([][2]float64, 0, len(list))
		for _, p := range list {
			xy, ok := numberList(p)
			if !ok || len(xy) != 2 {
				return nil
			}
			pts = append(pts, [2]float64{xy[0], xy[1]})
		}
		add(len(pts) == 1, "single_point")
		add(len(pts) == 2, "two_points")
		add(len(pts) >= 3 && collinear(pts), "collinear")
		dup, axis, neg := false, false, false
		for i, p := range pts {
			neg = neg || p[0] < 0 || p[1] < 0
			for _, q := range pts[i+1:] {
				if p == q {
					dup = true
				} else if p[0] == q[0] || p[1] == q[1] {
					axis = true
				}
			}
		}
		add(dup, "duplicate_point")
		add(neg, "negative_coordinate")
		add(axis, "axis_aligned")
	}
	return cats
}

// Uncovered returns the categories of kind (possible under d) that no input
// in inputs covers, in the order of Categories.
func Uncovered(kind Kind, d *Domain, inputs []json.RawMessage) []string {
	covered := map[string]bool{}
	for _, in := range inputs {
		for _, c := range CategoriesOf(kind, d, in) {
			covered[c] = true
		}
	}
	var out []string
	for _, c := range Categories(kind, d) {
		if !covered[c] {
			out = append(out, c)
		}
	}
	return out
}

func numberList(v any) ([]float64, bool) {
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]float64, 0, len(list))
	for _, e := range list {
		n, ok := e.(json.Number)
		if !ok {
			if b, isBool := e.(bool); isBool { // bit lists may arrive as booleans
				out = append(out, map[bool]float64{false: 0, true: 1}[b])
				continue
			}
			return nil, false
		}
		f, err := n.Float64()
		if err != nil {
			return nil, false
		}
		out = append(out, f)
	}
	return out, true
}

func containsF(xs []float64, pred func(float64) bool) bool {
	for _, x := range xs {
		if pred(x) {
			return true
		}
	}
	return false
}

func hasRepeat(xs []float64) bool {
	seen := map[float64]bool{}
	for _, x := range xs {
		if seen[x] {
			return true
		}
		seen[x] = true
	}
	return false
}

func allEqual(xs []float64) bool {
	for _, x := range xs[1:] {
		if x != xs[0] {
			return false
		}
	}
	return true
}

func monotone(xs []float64, less func(a, b float64) bool) bool {
	for i := 1; i < len(xs); i++ {
		if !less(xs[i-1], xs[i]) {
			return false
		}
	}
	return true
}

func collinear(pts [][2]float64) bool {
	// True when some three points lie on one line.
	n := len(pts)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			for k := j + 1; k < n; k++ {
				a, b, c := pts[i], pts[j], pts[k]
				if (b[0]-a[0])*(c[1]-a[1])-(b[1]-a[1])*(c[0]-a[0]) == 0 {
					return true
				}
			}
		}
	}
	return false
}
