package config

import (
	"cmp"
	"fmt"
	"maps"
	"path/filepath"
	"strings"

	"github.com/reconstruct/reconstruct/task"
)

// BoundTask is the task section a factory task's factory yields
// (runner.BindIn calls it): the fields an agent sees, the task's own
// workspace, whether it draws random inputs, and what the run records of
// it. Config.Bind merges it into the configuration and checks it.
type BoundTask struct {
	Name, Level, Family                             string
	InputType, InputConstraints, Kind, FunctionName string
	Domain                                          *task.Domain
	// Workspace is the task's own workspace, relative to the
	// configuration's directory; used when nothing else names one.
	Workspace string
	// RandomInputs is set when the task draws random inputs: the defaults
	// for a task with a generator then apply.
	RandomInputs bool
	Bound        Bound
}

// Bind returns the configuration of an unbound factory task with the task
// section its factory yielded merged in, then checked: every problem at
// once, each naming task.factory (and where it was set) and the field the
// factory got wrong; then the defaults that depend on the task are filled
// (the workspace, those for a task with a generator). The configuration
// Load returned is not changed: the bound one is a copy, and neither
// changes after it is returned.
//
// A name given by the configuration (or task.args' name) wins over the
// factory's, then the factory's, then the callable's; so do the level and
// the family.
func (c *Config) Bind(bt BoundTask) (*Config, error) {
	if c.Task.Factory == "" || c.Task.Bound != nil {
		return nil, fmt.Errorf("%s: bind: not a factory task waiting to be bound", c.File)
	}
	b := *c
	b.Origins = maps.Clone(c.Origins)
	t := &b.Task
	t.Name = cmp.Or(t.Name, bt.Name)
	if t.Name == "" {
		_, attr, _ := strings.Cut(t.Factory, ":")
		t.Name = attr[strings.LastIndex(attr, ".")+1:]
	}
	t.Level, t.Family = cmp.Or(t.Level, bt.Level), cmp.Or(t.Family, bt.Family)
	t.InputType, t.InputConstraints, t.Kind = bt.InputType, bt.InputConstraints, bt.Kind
	t.FunctionName = cmp.Or(bt.FunctionName, t.FunctionName)
	if bt.Domain != nil {
		t.Domain = bt.Domain
	}
	bound := bt.Bound
	t.Bound = &bound

	fields := &problems{file: b.File}
	t.checkFields(fields)
	p := &problems{file: b.File}
	if b.factoryFrom != "" {
		p.from = map[string]string{"task.factory": b.factoryFrom}
	}
	for _, e := range fields.list {
		p.add("task.factory", "%s returned a task whose %s: %s", t.Factory, strings.TrimPrefix(e.Key, "task."), e.Msg)
	}
	if b.Workflow.RandomShare > 0 && !bt.RandomInputs {
		p.add("task.factory", "%s returned a task without random_inputs, but workflow.random_share is %g", t.Factory, b.Workflow.RandomShare)
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	switch {
	case bt.Workspace != "" && !c.WorkspaceGiven():
		w := bt.Workspace
		if !filepath.IsAbs(w) {
			w = filepath.Join(filepath.Dir(b.File), w)
		}
		b.Workspace = filepath.Clean(w)
	case b.Workspace == "":
		b.Workspace = filepath.Join(filepath.Dir(b.File), "runs", t.Name)
	}
	if bt.RandomInputs {
		if err := b.useGeneratorDefaults(); err != nil {
			return nil, err
		}
	}
	return &b, nil
}

// Moved returns a copy of c whose workspace and sandbox kind are replaced
// where given (a resumed run's --workspace and --sandbox), the kind
// checked; c is not changed.
func (c *Config) Moved(workspace, sandboxKind string) (*Config, error) {
	m := *c
	if workspace != "" {
		m.Workspace = workspace
	}
	if sandboxKind != "" {
		p := &problems{file: c.File}
		if !checkOneOf(p, "sandbox.kind", sandboxKind) {
			return nil, p.err()
		}
		m.Sandbox.Kind = sandboxKind
	}
	return &m, nil
}
