package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// ArgsSource names the original workflow's command-line form, run --args
// JSON, in messages and as the origin of the values it sets.
const ArgsSource = "--args"

// OriginalArgs maps each key of the original workflow's --args object onto
// the configuration key it sets.
var OriginalArgs = map[string]string{
	"task":              "task.factory",
	"task_args":         "task.args",
	"random_share":      "workflow.random_share",
	"coverage_gate":     "workflow.coverage_gate",
	"memorisation_gate": "workflow.memorisation_gate",
	"complexity_gate":   "workflow.complexity_gate",
	"domain_check":      "workflow.domain_check",
	"initial_batch":     "workflow.initial_batch",
	"batch_step":        "workflow.batch_step",
	"early_stop":        "workflow.early_stop",
	"max_iterations":    "workflow.max_iterations",
	"propose_attempts":  "workflow.propose_attempts",
	"budget":            "workflow.token_budget",
}

// originalDefaults are the original workflow's defaults where this tool's
// differ: it keeps its disciplines off for a task with a generator too, has
// no selection gate, and a script ported with --args behaves as it did.
var originalDefaults = map[string]any{
	"workflow.random_share":   0.0,
	"workflow.coverage_gate":  false,
	"workflow.selection_gate": false,
}

// FromArgs decodes the original workflow's --args object into overrides of
// the configuration (Options.Override, with OverrideFrom ArgsSource): the
// keys it names, the original's defaults of random_share and coverage_gate
// where it names neither, and the selection gate off. Every problem is reported at once,
// naming the --args key: an unknown key with the nearest known one, a value
// of the wrong type with the type wanted.
func FromArgs(text string) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil || m == nil || dec.More() {
		return nil, Problems{{Source: ArgsSource, Msg: fmt.Sprintf("want a JSON object of the original workflow's arguments (such as {\"task\": \"my_bench.binding:make_task\", \"task_args\": {\"name\": \"a\"}}), got %q", text)}}
	}
	p := &problems{}
	out := map[string]any{}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		key, ok := OriginalArgs[name]
		if !ok {
			p.list = append(p.list, &Error{Source: ArgsSource, Key: name, Msg: unknownArg(name)})
			continue
		}
		v, err := argValue(key, m[name])
		if err != nil {
			p.list = append(p.list, &Error{Source: ArgsSource, Key: name, Msg: err.Error()})
			continue
		}
		out[key] = v
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	for k, v := range originalDefaults {
		if _, set := out[k]; !set {
			out[k] = v
		}
	}
	return out, nil
}

// unknownArg is the message for an --args key the original did not have:
// the nearest of its keys, or the key of this tool's configuration.
func unknownArg(name string) string {
	best, bestD := "", len(name)/3+2
	for k := range OriginalArgs {
		if d := distance(name, k); d < bestD || (d == bestD && k < best) {
			best, bestD = k, d
		}
	}
	for k, key := range OriginalArgs {
		if name == key || strings.HasSuffix(key, "."+name) {
			best = k
		}
	}
	if best != "" {
		return fmt.Sprintf("unknown key; did you mean %s?", best)
	}
	known := make([]string, 0, len(OriginalArgs))
	for k := range OriginalArgs {
		known = append(known, k)
	}
	sort.Strings(known)
	return "unknown key (the keys are " + strings.Join(known, ", ") + "; other settings go in --config)"
}

// argValue checks v against the type of the configuration key it sets.
func argValue(key string, v any) (any, error) {
	want := lookup[key].Default
	bad := func() error { return fmt.Errorf("want %s, got %s", typeName(want), shown(v)) }
	switch want.(type) {
	case string:
		if s, ok := v.(string); ok {
			return s, nil
		}
	case bool:
		if b, ok := v.(bool); ok {
			return b, nil
		}
	case int:
		if n, ok := v.(json.Number); ok {
			if i, err := n.Int64(); err == nil {
				return int(i), nil
			}
		}
	case float64:
		if n, ok := v.(json.Number); ok {
			if f, err := n.Float64(); err == nil {
				return f, nil
			}
		}
	case map[string]any:
		if m, ok := v.(map[string]any); ok {
			return plainNumbers(m).(map[string]any), nil
		}
	}
	return nil, bad()
}

// plainNumbers turns the json.Numbers of a decoded value into int64 or
// float64, as the factory's arguments are given to Python.
func plainNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = plainNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = plainNumbers(e)
		}
	}
	return v
}
