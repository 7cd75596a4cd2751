package task

import (
	"encoding/json"
	"math"
	"strconv"
)

// FiniteInputs lists every input of kind k whose numbers lie in d, when
// the kind and the domain alone make them finitely many and they are at
// most max: the integers of d for kind int. Other kinds hold lists,
// strings or numbers that may be floats, which a domain does not bound in
// number; ok is then false.
func FiniteInputs(k Kind, d *Domain, max int) (inputs []json.RawMessage, ok bool) {
	if k != KindInt || d == nil {
		return nil, false
	}
	lo, hi := math.Ceil(d.Lo), math.Floor(d.Hi)
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(lo) || math.IsNaN(hi) || lo > hi || hi-lo+1 > float64(max) {
		return nil, false
	}
	for x := int64(lo); x <= int64(hi); x++ {
		inputs = append(inputs, json.RawMessage(strconv.FormatInt(x, 10)))
	}
	return inputs, true
}
