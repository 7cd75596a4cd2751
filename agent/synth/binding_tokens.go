package synth

import (
	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Token lists. An input of kind other that is a list of tokens of several
// sorts — integers beside words ([3, 4, "max"]), or records that start
// with a word (["push", 5], ["pop"]) — has no DSL type of its own. It binds
// as a list of strings, one per token, a record written as its parts
// joined by spaces ("push 5"), so that the string operators and the token
// interpreter (sketch/interp.go) read it. The emitted program
// converts input_data the same way with a small helper.

// tokensHelper is the Python helper of the tokens binding.
const tokensHelper = `def token(t):
    """One token as text: a record [word, arguments...] as its parts joined by spaces."""
    return " ".join(str(p) for p in t) if isinstance(t, list) else str(t)`

// tokensBinding binds a list of tokens, or returns nil when some observed
// input is not one (every input a list, every token an integer, a string
// or a record of integers and strings that starts with a string, and no
// string holding a space).
func tokensBinding(inputs []any) *dsl.Binding {
	if len(inputs) == 0 {
		return nil
	}
	for _, in := range inputs {
		if _, ok := dsl.TokenList(in); !ok {
			return nil
		}
	}
	return &dsl.Binding{Names: []string{"toks"}, Types: []dsl.Type{dsl.ListStr}, Line: "toks = [token(t) for t in input_data]",
		Shape: "tokens", Helper: tokensHelper}
}
