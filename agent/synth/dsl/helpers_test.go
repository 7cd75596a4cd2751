package dsl

import "strings"

// opSig writes an operator's name and signature: add(int, int) -> int.
func opSig(o *Operator) string {
	args := make([]string, len(o.Args))
	for i, a := range o.Args {
		args[i] = a.String()
	}
	return o.Name + "(" + strings.Join(args, ", ") + ") -> " + o.Ret.String()
}
