package bank

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// testInputs are inputs shared by the validation and evaluation tables.
const testInputs = `{
  "g": {"kind": "grid", "data": [[1, 0], [0, 2]]},
  "bg": {"kind": "color", "data": 0},
  "one": {"kind": "index", "data": 1},
  "two": {"kind": "index", "data": 2},
  "half": {"kind": "scalar", "data": 0.5},
  "yes": {"kind": "flag", "data": true},
  "no": {"kind": "flag", "data": false},
  "off": {"kind": "point", "data": [0, 1]},
  "none": {"kind": "list[object]", "data": []},
  "nums": {"kind": "list[index]", "data": [1, 2, 3]}
}`

func mustGraph(t testing.TB, nodes, outputs string) *Graph {
	t.Helper()
	g, err := DecodeGraph("spec", []byte(`{"inputs":`+testInputs+`,"nodes":`+nodes+`,"outputs":`+outputs+`}`))
	if err != nil {
		t.Fatalf("decode graph: %v", err)
	}
	return g
}

func TestValidationErrors(t *testing.T) {
	reg := objectsRegistry(t)
	tests := []struct {
		name, nodes, outputs, want string
	}{
		{"bad node id", `[{"id":"a/b","op":"number.add","args":{"a":"one","b":"two"}}]`, `{}`, `invalid node id "a/b"`},
		{"duplicate id", `[{"id":"x","op":"number.add","args":{"a":"one","b":"two"}},{"id":"x","op":"number.add","args":{"a":"one","b":"two"}}]`, `{}`, `duplicate node id "x"`},
		{"id shadows input", `[{"id":"one","op":"number.add","args":{"a":"one","b":"two"}}]`, `{}`, `id "one" is already an input name`},
		{"dangling reference", `[{"id":"x","op":"number.add","args":{"a":"one","b":"three"}}]`, `{}`, `nodes[x]: reference "three" does not name an input or node`},
		{"dangling output", `[]`, `{"out":"nowhere"}`, `outputs.out: reference "nowhere" does not name an input or node`},
		{"bad output name", `[]`, `{"a b":"one"}`, `invalid output name`},
		{"unknown op", `[{"id":"x","op":"number.pow","args":{"a":"one","b":"two"}}]`, `{}`, `nodes[x].op: unknown operation "number.pow"`},
		{"missing argument", `[{"id":"x","op":"number.add","args":{"a":"one"}}]`, `{}`, `missing argument "b"`},
		{"extra argument", `[{"id":"x","op":"number.add","args":{"a":"one","b":"two","c":"two"}}]`, `{}`, `nodes[x].args.c: number.add has no parameter "c"`},
		{"mixed N", `[{"id":"x","op":"number.add","args":{"a":"one","b":"half"}}]`, `{}`, `argument "b": kind scalar, want index`},
		{"no conversion color", `[{"id":"x","op":"number.add","args":{"a":"bg","b":"bg"}}]`, `{}`, `kind color, want scalar or index`},
		{"no conversion flag", `[{"id":"x","op":"flag.not","args":{"a":"one"}}]`, `{}`, `kind index, want flag`},
		{"cycle", `[{"id":"x","op":"number.add","args":{"a":"y","b":"two"}},{"id":"y","op":"number.add","args":{"a":"x","b":"two"}}]`, `{}`, `cycle: x → y → x`},
		{"self cycle", `[{"id":"x","op":"number.neg","args":{"a":"x"}}]`, `{}`, `cycle: x → x`},
		{"map over non-list", `[{"id":"x","map":{"op":"object.size","items":"g"}}]`, `{}`, `nodes[x].map.items: "g" has kind grid, want a collection`},
		{"map op without item", `[{"id":"x","map":{"op":"number.add","items":"nums","bindings":{"a":"one","b":"two"}}}]`, `{}`, `number.add has no item parameter`},
		{"map returning collection", `[{"id":"x","map":{"op":"object.bbox","items":"none"}}]`, `{}`, `map does not accept operations returning a collection`},
		{"map item kind", `[{"id":"x","map":{"op":"object.size","items":"nums"}}]`, `{}`, `argument "item": kind index, want object`},
		{"map binds item", `[{"id":"x","map":{"op":"object.size","items":"none","bindings":{"item":"g"}}}]`, `{}`, `parameter "item" is bound by the collection node itself`},
		{"map missing binding", `[{"id":"x","map":{"op":"object.translate","items":"none"}}]`, `{}`, `missing argument "offset"`},
		{"filter not flag", `[{"id":"x","filter":{"op":"object.size","items":"none"}}]`, `{}`, `a filter's operation must return flag`},
		{"fold changes kind", `[{"id":"x","fold":{"op":"object.size","items":"none","state":"one"}}]`, `{}`, `object.size has no state parameter`},
		{"fold state kind", `[{"id":"x","fold":{"op":"object.paint","items":"none","state":"one","bindings":{"background":"bg","overwrite":"no"}}}]`, `{}`, `argument "state": kind index, want grid`},
		{"fold binds state", `[{"id":"x","fold":{"op":"object.erase","items":"none","state":"g","bindings":{"background":"bg","state":"g"}}}]`, `{}`, `parameter "state" is bound by the collection node itself`},
		{"choice if not flag", `[{"id":"x","choice":{"if":"one","then":"one","else":"two"}}]`, `{}`, `nodes[x].choice.if: "one" has kind index, want flag`},
		{"choice branch kinds", `[{"id":"x","choice":{"if":"yes","then":"one","else":"half"}}]`, `{}`, `branches differ in kind`},
		{"function param kind", `[{"id":"x","filter":{"op":"keep_large","items":"none","bindings":{"minimum":"half"}}}]`, `{}`, `argument "minimum": kind scalar, want index`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustGraph(t, tt.nodes, tt.outputs)
			_, err := Validate(reg, g)
			if err == nil {
				t.Fatalf("Validate succeeded, want %q", tt.want)
			}
			var pe *PathError
			if !errors.As(err, &pe) {
				t.Errorf("error %v is not a *PathError", err)
			}
			if got := err.Error(); !strings.Contains(got, tt.want) {
				t.Errorf("error = %q, want it to contain %q", got, tt.want)
			}
		})
	}
}

func TestDecodeGraphErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"two forms", `{"inputs":{},"nodes":[{"id":"x","op":"a","args":{},"map":{}}],"outputs":{}}`, `spec.nodes[0]: node "x" must have exactly one of`},
		{"no form", `{"inputs":{},"nodes":[{"id":"x"}],"outputs":{}}`, `has 0`},
		{"unknown node field", `{"inputs":{},"nodes":[{"id":"x","op":"a","args":{},"note":1}],"outputs":{}}`, `spec.nodes[0]: unknown field "note"`},
		{"ref not string", `{"inputs":{},"nodes":[{"id":"x","op":"a","args":{"a":1}}],"outputs":{}}`, `spec.nodes[0].args.a: want a reference string`},
		{"fold without state", `{"inputs":{},"nodes":[{"id":"x","fold":{"op":"a","items":"b"}}],"outputs":{}}`, `spec.nodes[0].fold: missing field "state"`},
		{"map with state", `{"inputs":{},"nodes":[{"id":"x","map":{"op":"a","items":"b","state":"c"}}],"outputs":{}}`, `unknown field "state"`},
		{"bad input value", `{"inputs":{"g":{"kind":"grid","data":[[1],[1,2]]}},"nodes":[],"outputs":{}}`, `spec.inputs.g.data[1]: row length 2, want 1`},
		{"missing outputs", `{"inputs":{},"nodes":[]}`, `missing field "outputs"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeGraph("spec", []byte(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("DecodeGraph error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestTooManyNodes(t *testing.T) {
	g := &Graph{Inputs: map[string]Value{"a": Index(1)}, Outputs: map[string]string{}}
	for i := 0; i <= MaxNodes; i++ {
		g.Nodes = append(g.Nodes, Node{ID: "n" + itoa(i), Op: "number.neg", Args: map[string]string{"a": "a"}})
	}
	if _, err := Validate(NewRegistry(), g); err == nil || !strings.Contains(err.Error(), "at most 10000") {
		t.Errorf("Validate of %d nodes = %v, want a limit error", len(g.Nodes), err)
	}
}

func TestChoiceEvaluatesOnlyTakenBranch(t *testing.T) {
	g := mustGraph(t, `[
	  {"id":"cond","op":"number.lt","args":{"a":"one","b":"two"}},
	  {"id":"small","op":"number.add","args":{"a":"one","b":"one"}},
	  {"id":"big","op":"number.div","args":{"a":"one","b":"zero"}},
	  {"id":"zero","op":"number.sub","args":{"a":"one","b":"one"}},
	  {"id":"pick","choice":{"if":"cond","then":"small","else":"big"}}]`, `{"out":"pick"}`)
	res, err := (&Evaluator{Registry: NewRegistry()}).Evaluate(context.Background(), g)
	if err != nil {
		t.Fatal(err) // the else branch divides by zero: it must not run
	}
	if got, want := res.Outputs["out"], Index(2); !got.Equal(want) {
		t.Errorf("out = %s, want %s", got.Canonical(), want.Canonical())
	}
	var paths []string
	for _, e := range res.Trace {
		paths = append(paths, e.Path+":"+e.Branch)
	}
	if want := []string{"root/cond:", "root/pick:then", "root/small:"}; !cmp.Equal(paths, want) {
		t.Errorf("trace = %v, want %v", paths, want)
	}
	if got, want := res.Dependencies["out"], []string{"big", "cond", "one", "pick", "small", "two", "zero"}; !cmp.Equal(got, want) {
		t.Errorf("potential dependencies = %v, want %v", got, want)
	}
}

func TestEmptyCollections(t *testing.T) {
	// bindings refer to a node that would fail: it must not be evaluated
	// for empty collections, yet the graph is fully validated.
	g := mustGraph(t, `[
	  {"id":"bad","op":"number.div","args":{"a":"one","b":"zero"}},
	  {"id":"zero","op":"number.sub","args":{"a":"one","b":"one"}},
	  {"id":"badoff","op":"grid.size","args":{"grid":"g"}},
	  {"id":"m","map":{"op":"object.translate","items":"none","bindings":{"offset":"badoff"}}},
	  {"id":"f","filter":{"op":"keep_large","items":"none","bindings":{"minimum":"bad"}}},
	  {"id":"z","fold":{"op":"object.erase","items":"none","state":"g","bindings":{"background":"bg"}}}]`,
		`{"m":"m","f":"f","z":"z"}`)
	res, err := (&Evaluator{Registry: objectsRegistry(t)}).Evaluate(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"m": `{"data":[],"kind":"list[object]"}`,
		"f": `{"data":[],"kind":"list[object]"}`,
		"z": `{"data":[[1,0],[0,2]],"kind":"grid"}`,
	} {
		if got := string(res.Outputs[name].Canonical()); got != want {
			t.Errorf("%s = %s, want %s", name, got, want)
		}
	}
	if len(res.Trace) != 0 {
		t.Errorf("trace = %+v, want no calls", res.Trace)
	}
	// The same graph with a kind error in an unused binding is still refused.
	g.Nodes[4].Filter.Bindings["minimum"] = "half"
	if _, err := Validate(objectsRegistry(t), g); err == nil {
		t.Error("unused binding with a wrong kind validated")
	}
}

func TestBudget(t *testing.T) {
	g := mustGraph(t, `[{"id":"m","map":{"op":"number.neg","items":"nums"}}]`, `{"m":"m"}`)
	g.Nodes[0].Map.Op = "number.abs"
	// number.abs has no item parameter: use a function to map.
	f, err := DecodeFunction([]byte(`{"params":{"item":"index"},"nodes":[{"id":"n","op":"number.neg","args":{"a":"item"}}],"output":"n"}`))
	if err != nil {
		t.Fatal(err)
	}
	reg, err := NewRegistry().WithFunction("neg", f)
	if err != nil {
		t.Fatal(err)
	}
	g.Nodes[0].Map.Op = "neg"
	tests := []struct {
		budget  int
		wantErr bool
	}{{6, false}, {5, true}, {1, true}}
	for _, tt := range tests {
		res, err := (&Evaluator{Registry: reg, Budget: tt.budget}).Evaluate(context.Background(), g)
		if gotErr := err != nil; gotErr != tt.wantErr {
			t.Fatalf("budget %d: err = %v, want error %v", tt.budget, err, tt.wantErr)
		}
		if tt.wantErr && !errors.Is(err, ErrBudget) {
			t.Errorf("budget %d: err = %v, want ErrBudget", tt.budget, err)
		}
		if !tt.wantErr {
			if got, want := string(res.Outputs["m"].Canonical()), `{"data":[-1,-2,-3],"kind":"list[index]"}`; got != want {
				t.Errorf("m = %s, want %s", got, want)
			}
			if res.Calls != 6 {
				t.Errorf("calls = %d, want 6 (3 function calls and 3 inner calls)", res.Calls)
			}
		}
	}
}

func TestFoldFailureKeepsTrace(t *testing.T) {
	// Paint the same objects twice without overwrite: the second pass fails
	// on its first item and the trace shows where.
	g := mustGraph(t, `[
	  {"id":"objs","op":"grid.components","args":{"grid":"g","background":"bg"}},
	  {"id":"twice","op":"list.concat","args":{"a":"objs","b":"objs"}},
	  {"id":"blank","op":"grid.blank","args":{"size":"sz","color":"bg"}},
	  {"id":"sz","op":"grid.size","args":{"grid":"g"}},
	  {"id":"out","fold":{"op":"object.paint","items":"twice","state":"blank","bindings":{"background":"bg","overwrite":"no"}}}]`, `{"out":"out"}`)
	res, err := (&Evaluator{Registry: NewRegistry()}).Evaluate(context.Background(), g)
	var ee *EvalError
	if !errors.As(err, &ee) {
		t.Fatalf("err = %v, want an *EvalError", err)
	}
	if got, want := ee.Path, "root/out/item_2"; got != want {
		t.Errorf("failing path = %s, want %s", got, want)
	}
	last := res.Trace[len(res.Trace)-1]
	if last.Path != "root/out/item_2" || !strings.Contains(last.Error, "not the background") {
		t.Errorf("last trace entry = %+v, want the failing paint", last)
	}
	if _, ok := res.Outputs["out"]; ok {
		t.Error("a failed fold produced an output")
	}
}

type fakeRunner struct{ calls int }

func (f *fakeRunner) Apply(ctx context.Context, prog *Program, inputs []json.RawMessage) ([]json.RawMessage, error) {
	f.calls++
	out := make([]json.RawMessage, len(inputs))
	for i, in := range inputs {
		out[i] = json.RawMessage(`{"echo":` + string(in) + `,"fn":"` + prog.Function + `"}`)
	}
	return out, nil
}

func TestPrograms(t *testing.T) {
	prog, err := NewProgram("solve", "def solve(x):\n    return x\n")
	if err != nil {
		t.Fatal(err)
	}
	reg, err := NewRegistry().WithProgram("candidate", prog)
	if err != nil {
		t.Fatal(err)
	}
	in1, _ := JSONValue([]byte(`[1,2]`))
	in2, _ := JSONValue([]byte(`"x"`))
	g := &Graph{
		Inputs: map[string]Value{"prog": prog, "x": in1, "xs": List(KindJSON, []Value{in1, in2})},
		Nodes: []Node{
			{ID: "one", Op: "program.apply", Args: map[string]string{"program": "prog", "input": "x"}},
			{ID: "all", Map: &Apply{Op: "candidate", Items: "xs", Bindings: map[string]string{}}},
		},
		Outputs: map[string]string{"one": "one", "all": "all"},
	}
	if _, err := (&Evaluator{Registry: reg}).Evaluate(context.Background(), g); err == nil || !strings.Contains(err.Error(), "no program runner") {
		t.Errorf("without a runner: err = %v, want a clear error", err)
	}
	runner := &fakeRunner{}
	res, err := (&Evaluator{Registry: reg, Runner: runner}).Evaluate(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(res.Outputs["one"].Canonical()), `{"data":{"echo":[1,2],"fn":"solve"},"kind":"json"}`; got != want {
		t.Errorf("one = %s, want %s", got, want)
	}
	if got, want := string(res.Outputs["all"].Canonical()), `{"data":[{"echo":[1,2],"fn":"solve"},{"echo":"x","fn":"solve"}],"kind":"list[json]"}`; got != want {
		t.Errorf("all = %s, want %s", got, want)
	}
	if runner.calls != 2 || res.Calls != 3 {
		t.Errorf("runner batches = %d, calls = %d; want 2 batches (the map in one) and 3 calls", runner.calls, res.Calls)
	}
	// program.apply itself maps over a list[json] through a function whose
	// item parameter is the input.
	f, err := DecodeFunction([]byte(`{"params":{"item":"json","p":"program"},"nodes":[{"id":"y","op":"program.apply","args":{"program":"p","input":"item"}}],"output":"y"}`))
	if err != nil {
		t.Fatal(err)
	}
	reg2, err := reg.WithFunction("apply_each", f)
	if err != nil {
		t.Fatal(err)
	}
	g.Nodes = append(g.Nodes, Node{ID: "each", Map: &Apply{Op: "apply_each", Items: "xs", Bindings: map[string]string{"p": "prog"}}})
	g.Outputs["each"] = "each"
	res, err = (&Evaluator{Registry: reg2, Runner: runner}).Evaluate(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(res.Outputs["each"].Canonical()), string(res.Outputs["all"].Canonical()); got != want {
		t.Errorf("each = %s, want %s", got, want)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
