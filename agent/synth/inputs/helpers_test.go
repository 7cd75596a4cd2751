package inputs

import (
	"encoding/json"
	"fmt"
	"strings"
)

func intValue(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	return i, err == nil
}

func intWithin(v any, lo, hi int64) error {
	i, ok := intValue(v)
	if !ok || i < lo || i > hi {
		return fmt.Errorf("%v is not an integer in [%d, %d]", v, lo, hi)
	}
	return nil
}

func listIn(v any, lo, hi int) ([]any, error) {
	xs, ok := v.([]any)
	if !ok || len(xs) < lo || len(xs) > hi {
		return nil, fmt.Errorf("%v is not a list of %d to %d elements", v, lo, hi)
	}
	return xs, nil
}

// refScan is an independent reading of a string's brackets: the deepest
// nesting and whether they balance, a closing bracket matching the last
// open one's kind when typed.
func refScan(s, pairs string, typed bool) (deepest int, balanced bool) {
	var stack []byte
	balanced = true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if k := strings.IndexByte(pairs, c); k >= 0 && k%2 == 0 {
			stack = append(stack, c)
			deepest = max(deepest, len(stack))
		} else if k >= 0 {
			if len(stack) == 0 || typed && stack[len(stack)-1] != pairs[k-1] {
				balanced = false
			}
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	return deepest, balanced && len(stack) == 0
}
