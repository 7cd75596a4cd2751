package synth

import (
	"slices"
	"strings"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"

	"github.com/reconstruct/reconstruct/agent/synth/inputs"
)

// Several arguments in one input: an input of kind other described as a
// bracketed tuple of names of simple types of more than one sort ("[xs,
// k]: a list of integers and a rotation amount", "[a, b, limit]: two
// integer lists and a limit") binds one variable per name, so that the
// enumerator combines them like the two numbers of a pair. Numbers all
// of one type, or two strings, keep the list binding (xs, words).

// varName is a name the task gives (a key, a part) as a variable of the
// emitted program: lowercased, with an underscore after it when it is
// reserved, one of also, or already used; used records it.
func varName(name string, used map[string]bool, also ...string) string {
	name = strings.ToLower(strings.TrimSpace(name))
	if pythonReserved[name] || slices.Contains(also, name) {
		name += "_"
	}
	for used[name] {
		name += "_"
	}
	used[name] = true
	return name
}

// pythonReserved are names a variable must not take: keywords and the
// builtins the emitted programs call.
var pythonReserved = map[string]bool{"and": true, "as": true, "def": true, "del": true, "elif": true, "else": true,
	"for": true, "from": true, "global": true, "if": true, "import": true, "in": true, "is": true, "lambda": true,
	"not": true, "or": true, "pass": true, "return": true, "while": true, "with": true, "yield": true, "class": true,
	"abs": true, "all": true, "any": true, "bool": true, "dict": true, "enumerate": true, "filter": true, "float": true,
	"int": true, "len": true, "list": true, "map": true, "max": true, "min": true, "pow": true, "range": true,
	"reversed": true, "round": true, "set": true, "sorted": true, "str": true, "sum": true, "tuple": true,
	"zip": true, "input": true, "input_data": true, "math": true, "type": true, "id": true, "ord": true, "chr": true,
	"solve": true, "divmod": true, "iter": true, "next": true, "object": true, "print": true, "format": true}

// argsBinding binds the arguments of an input of kind other named by its
// description, or returns nil when the description names none, a part
// is not an integer, a string or a list of either, or an observed input
// does not fit.
func argsBinding(t task.Task, observed []any, b *dsl.Binding) *dsl.Binding {
	if t.Kind != task.KindOther {
		return nil
	}
	tp := inputs.TemplateOf(t)
	if tp == nil || tp.Kind != inputs.TkTuple || len(tp.Elems) < 2 {
		return nil
	}
	m := inputs.NamesTupleRe.FindStringSubmatch(t.InputType)
	if m == nil {
		return nil
	}
	names := strings.Split(m[1], ",")
	if len(names) != len(tp.Elems) {
		return nil
	}
	nb := &dsl.Binding{Floats: b.Floats, Shape: "args"}
	used := map[string]bool{}
	for i, e := range tp.Elems {
		var vt dsl.Type
		switch {
		case e.Kind == inputs.TkInt:
			vt = dsl.Int
		case e.Kind == inputs.TkStr && len(e.Choices) == 0:
			vt = dsl.Str
		case e.Kind == inputs.TkList && e.Elems[0].Kind == inputs.TkInt:
			vt = dsl.ListInt
		case e.Kind == inputs.TkList && e.Elems[0].Kind == inputs.TkStr:
			vt = dsl.ListStr
		default:
			return nil
		}
		if b.Floats {
			switch vt {
			case dsl.Int:
				vt = dsl.Float
			case dsl.ListInt:
				vt = dsl.ListFloat
			}
		}
		nb.Names = append(nb.Names, varName(names[i], used))
		nb.Types = append(nb.Types, vt)
	}
	if !slices.ContainsFunc(nb.Types, func(t dsl.Type) bool { return t != nb.Types[0] }) && nb.Types[0] != dsl.ListInt && nb.Types[0] != dsl.ListFloat &&
		(nb.Types[0] != dsl.Str || len(nb.Types) < 3) {
		// Numbers or two strings: the list binding (xs, words) lets min,
		// sorted and the like see them all at once, and first and last
		// reach either string. Three strings or more are named: the list
		// operators reach no string between the first and the last (a
		// text and the two strings of a character mapping).
		return nil
	}
	nb.Line = strings.Join(nb.Names, ", ") + " = input_data"
	for _, in := range observed {
		if _, err := nb.Env(in); err != nil {
			return nil
		}
	}
	return nb
}
