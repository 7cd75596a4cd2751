package synth

import (
	"fmt"
	"strings"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"

	"github.com/reconstruct/reconstruct/agent/synth/inputs"
)

// newBinding chooses variables from the task's kind and input_type, refined
// by the observed inputs (floats anywhere make the numbers floats).
func newBinding(t task.Task, inputs []any) (*dsl.Binding, error) {
	floats := strings.Contains(strings.ToLower(t.InputType), "float")
	for _, in := range inputs {
		for _, f := range task.Numbers(in) {
			if f != float64(int64(f)) {
				floats = true
			}
		}
		if dsl.HasFloatLiteral(in) {
			floats = true
		}
	}
	b := &dsl.Binding{Floats: floats}
	num := dsl.Int
	list := dsl.ListInt
	if floats {
		num, list = dsl.Float, dsl.ListFloat
	}
	switch t.Kind {
	case task.KindList:
		b.Names, b.Types, b.Line, b.Shape = []string{"xs"}, []dsl.Type{list}, "xs = input_data", "list"
	case task.KindTwoLists:
		b.Names, b.Types, b.Line, b.Shape = []string{"xs", "ys"}, []dsl.Type{list, list}, "xs, ys = input_data", "two_lists"
	case task.KindInt:
		b.Names, b.Types, b.Line, b.Shape = []string{"n"}, []dsl.Type{dsl.Int}, "n = input_data", "int"
	case task.KindPair:
		b.Names, b.Types, b.Line, b.Shape = []string{"a", "b"}, []dsl.Type{num, num}, "a, b = input_data", "pair"
	case task.KindString:
		b.Names, b.Types, b.Line, b.Shape = []string{"s"}, []dsl.Type{dsl.Str}, "s = input_data", "string"
	case task.KindPoints:
		b.Names, b.Types, b.Line, b.Shape = []string{"pts"}, []dsl.Type{dsl.ListPair}, "pts = input_data", "points"
	default:
		return otherBinding(t, inputs, b)
	}
	return b, nil
}

// otherBinding infers the shape of an "other" input from the observed
// inputs, or from input_type when there are none.
func otherBinding(t task.Task, inputs []any, b *dsl.Binding) (out *dsl.Binding, err error) {
	if args := argsBinding(t, inputs, b); args != nil {
		return args, nil
	}
	if rec := recordBinding(inputs, b.Floats); rec != nil {
		return rec, nil
	}
	defer func() {
		// Inputs of no other shape may still be a tuple of structures or
		// a list of tokens.
		if err != nil {
			if tb := tupleBinding(t, inputs, b.Floats); tb != nil {
				out, err = tb, nil
			} else if tb := tokensBinding(inputs); tb != nil {
				out, err = tb, nil
			}
		}
	}()
	it := strings.ToLower(t.InputType)
	if len(inputs) == 0 {
		if strings.Contains(it, "pair") || strings.Contains(it, "point") {
			b.Names, b.Types, b.Line, b.Shape = []string{"pairs"}, []dsl.Type{dsl.ListPair}, "pairs = input_data", "pairs"
			return b, nil
		}
		return nil, fmt.Errorf("%w: no observed input and input_type %q", dsl.ErrUnsupported, t.InputType)
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
			v, good := dsl.FromJSON(x, b.Floats)
			if !good {
				return nil, fmt.Errorf("%w: %s", dsl.ErrUnsupported, dsl.ShortJSON(in))
			}
			switch v.(type) {
			case []dsl.Pair:
				k = "pairs"
			case []int64, []float64:
				k = "list"
			case []string:
				k = "words"
			default:
				return nil, fmt.Errorf("%w: %s", dsl.ErrUnsupported, dsl.ShortJSON(in))
			}
		default:
			return nil, fmt.Errorf("%w: %s", dsl.ErrUnsupported, dsl.ShortJSON(in))
		}
		if kind != "" && k != kind {
			return nil, fmt.Errorf("%w: inputs of mixed shapes", dsl.ErrUnsupported)
		}
		kind = k
	}
	switch kind {
	case "list":
		t := dsl.ListInt
		if b.Floats {
			t = dsl.ListFloat
		}
		b.Names, b.Types, b.Line, b.Shape = []string{"xs"}, []dsl.Type{t}, "xs = input_data", "list"
	case "words":
		b.Names, b.Types, b.Line, b.Shape = []string{"words"}, []dsl.Type{dsl.ListStr}, "words = input_data", "words"
	default:
		b.Names, b.Types, b.Line, b.Shape = []string{"pairs"}, []dsl.Type{dsl.ListPair}, "pairs = input_data", "pairs"
	}
	return b, nil
}

func newProblem(t task.Task, examples []task.Example) (*dsl.Problem, error) {
	var ins, outs []any
	for _, ex := range examples {
		in, good := dsl.DecodeRaw(ex.Input)
		if !good {
			return nil, fmt.Errorf("decode input %s", ex.Input)
		}
		out, good := dsl.DecodeRaw(ex.Output)
		if !good {
			return nil, fmt.Errorf("decode output %s", ex.Output)
		}
		ins, outs = append(ins, in), append(outs, out)
	}
	b, err := newBinding(t, ins)
	if err != nil {
		return nil, err
	}
	b.Parts = partNames(t, b, ins)
	p := &dsl.Problem{B: b, Round: -1, Mined: minedConsts(t)}
	for _, in := range ins {
		env, err := b.Env(in)
		if err != nil {
			return nil, err
		}
		p.Envs = append(p.Envs, env)
	}
	if err := p.SetOutputs(outs); err != nil {
		return nil, err
	}
	return p, nil
}

// partNames returns the names the task's input type gives the positions
// of a list input ("[balance, rate, years]: ..."), when the inputs are
// bound as one list and every observed input has that many elements;
// nil otherwise.
func partNames(t task.Task, b *dsl.Binding, ins []any) []string {
	if t.Kind != task.KindOther || b.Shape != "list" || len(ins) == 0 {
		return nil
	}
	m := inputs.NamesTupleRe.FindStringSubmatch(t.InputType)
	if m == nil {
		return nil
	}
	var names []string
	used := map[string]bool{}
	for _, n := range strings.Split(m[1], ",") {
		names = append(names, varName(n, used, "xs"))
	}
	for _, in := range ins {
		if l, ok := in.([]any); !ok || len(l) != len(names) {
			return nil
		}
	}
	return names
}
