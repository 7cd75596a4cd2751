package synth

import (
	"fmt"
	"strings"

	"github.com/reconstruct/reconstruct/task"
)

// newBinding chooses variables from the task's kind and input_type, refined
// by the observed inputs (floats anywhere make the numbers floats).
func newBinding(t task.Task, inputs []any) (*binding, error) {
	floats := strings.Contains(strings.ToLower(t.InputType), "float")
	for _, in := range inputs {
		for _, f := range task.Numbers(in) {
			if f != float64(int64(f)) {
				floats = true
			}
		}
		if hasFloatLiteral(in) {
			floats = true
		}
	}
	b := &binding{floats: floats}
	num := tInt
	list := tListInt
	if floats {
		num, list = tFloat, tListFloat
	}
	switch t.Kind {
	case task.KindList:
		b.names, b.types, b.line, b.shape = []string{"xs"}, []valType{list}, "xs = input_data", "list"
	case task.KindTwoLists:
		b.names, b.types, b.line, b.shape = []string{"xs", "ys"}, []valType{list, list}, "xs, ys = input_data", "two_lists"
	case task.KindInt:
		b.names, b.types, b.line, b.shape = []string{"n"}, []valType{tInt}, "n = input_data", "int"
	case task.KindPair:
		b.names, b.types, b.line, b.shape = []string{"a", "b"}, []valType{num, num}, "a, b = input_data", "pair"
	case task.KindString:
		b.names, b.types, b.line, b.shape = []string{"s"}, []valType{tStr}, "s = input_data", "string"
	case task.KindPoints:
		b.names, b.types, b.line, b.shape = []string{"pts"}, []valType{tListPair}, "pts = input_data", "points"
	default:
		return otherBinding(t, inputs, b)
	}
	return b, nil
}

// otherBinding infers the shape of an "other" input from the observed
// inputs, or from input_type when there are none.
func otherBinding(t task.Task, inputs []any, b *binding) (out *binding, err error) {
	if args := argsBinding(t, inputs, b); args != nil {
		return args, nil
	}
	defer func() {
		// Inputs of no other shape may still be a list of tokens.
		if err != nil {
			if tb := tokensBinding(inputs); tb != nil {
				out, err = tb, nil
			}
		}
	}()
	it := strings.ToLower(t.InputType)
	if len(inputs) == 0 {
		if strings.Contains(it, "pair") || strings.Contains(it, "point") {
			b.names, b.types, b.line, b.shape = []string{"pairs"}, []valType{tListPair}, "pairs = input_data", "pairs"
			return b, nil
		}
		return nil, fmt.Errorf("%w: no observed input and input_type %q", errUnsupported, t.InputType)
	}
	// Every input must convert the same way.
	kind := ""
	for _, in := range inputs {
		k := ""
		switch x := in.(type) {
		case []any:
			if len(x) == 0 {
				continue
			}
			v, good := fromJSON(x, b.floats)
			if !good {
				return nil, fmt.Errorf("%w: %s", errUnsupported, shortJSON(in))
			}
			switch v.(type) {
			case []pair:
				k = "pairs"
			case []int64, []float64:
				k = "list"
			case []string:
				k = "words"
			default:
				return nil, fmt.Errorf("%w: %s", errUnsupported, shortJSON(in))
			}
		default:
			return nil, fmt.Errorf("%w: %s", errUnsupported, shortJSON(in))
		}
		if kind != "" && k != kind {
			return nil, fmt.Errorf("%w: inputs of mixed shapes", errUnsupported)
		}
		kind = k
	}
	switch kind {
	case "list":
		t := tListInt
		if b.floats {
			t = tListFloat
		}
		b.names, b.types, b.line, b.shape = []string{"xs"}, []valType{t}, "xs = input_data", "list"
	case "words":
		b.names, b.types, b.line, b.shape = []string{"words"}, []valType{tListStr}, "words = input_data", "words"
	default:
		b.names, b.types, b.line, b.shape = []string{"pairs"}, []valType{tListPair}, "pairs = input_data", "pairs"
	}
	return b, nil
}

func newProblem(t task.Task, examples []task.Example) (*problem, error) {
	var ins, outs []any
	for _, ex := range examples {
		in, good := decodeRaw(ex.Input)
		if !good {
			return nil, fmt.Errorf("decode input %s", ex.Input)
		}
		out, good := decodeRaw(ex.Output)
		if !good {
			return nil, fmt.Errorf("decode output %s", ex.Output)
		}
		ins, outs = append(ins, in), append(outs, out)
	}
	b, err := newBinding(t, ins)
	if err != nil {
		return nil, err
	}
	p := &problem{b: b, round: -1, mined: minedConsts(t)}
	for _, in := range ins {
		env, err := b.env(in)
		if err != nil {
			return nil, err
		}
		p.envs = append(p.envs, env)
	}
	if err := p.setOutputs(outs); err != nil {
		return nil, err
	}
	return p, nil
}
