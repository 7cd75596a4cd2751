package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	"gopkg.in/yaml.v3"

	"github.com/reconstruct/reconstruct/task"
)

// EnvPrefix prefixes every environment variable that sets a key.
const EnvPrefix = "RECONSTRUCT"

// Options says where a configuration comes from.
type Options struct {
	// File is the main configuration file (required unless Dir is set).
	File string
	// Dir, with no File, stands for the directory of a configuration given
	// wholly by the environment, flags and Override (run --task): relative
	// paths resolve against it and messages name it as CommandLine.
	Dir string
	// Overlays are further files applied over File in order (a benchmark's
	// base.yaml over each task's own); their paths resolve against their own
	// directory.
	Overlays []string
	// Env reads RECONSTRUCT_* variables: LookupEnv, else Getenv (where an
	// empty value cannot be told from an unset one), else the process's.
	// A variable set to the empty string sets its key to "".
	Env       bool
	Getenv    func(string) string
	LookupEnv func(string) (string, bool)
	// Flags maps config keys to command-line flags; a flag wins only when
	// the user set it.
	Flags map[string]*pflag.Flag
	// Override is applied last (already-resolved values, e.g. from a fork).
	Override map[string]any
	// OverrideFrom, when set, names where Override's values came from (a
	// flag such as --args): messages blame it, and its keys count as set
	// by the user. Empty: Override's values are taken as resolved, not as
	// choices of the user's.
	OverrideFrom string

	// The values below are what a caller derives for the run it loads the
	// configuration for. They are applied before the configuration is
	// checked, so that no caller changes a checked configuration.

	// Bank is a bank named outside Flags (a sweep's --bank): it comes
	// first, as --bank does. Load finds the bank by ResolveBank's rule
	// (Config.BankLocation).
	Bank string
	// Repeat, above 1, is the repeat of a sweep the run is: its
	// workflow.seed is the configured one plus Repeat-1, so that each
	// repeat draws other inputs.
	Repeat int
	// Heldout is where the caller keeps the task's held-out tests (a
	// factory sweep writes its module's there): task.heldout, which may
	// then lie outside the task directory.
	Heldout string
}

// CommandLine is the name a configuration given without a file (Options.Dir)
// has in its directory.
const CommandLine = "(command line)"

// Load reads, layers, decodes and validates a configuration. Every
// problem is reported at once (Problems), each naming the key and the file,
// environment variable or flag its value came from.
func Load(opts Options) (*Config, error) {
	files := opts.Overlays
	var abs string
	var err error
	switch {
	case opts.File != "":
		abs, err = filepath.Abs(opts.File)
		files = append([]string{abs}, files...)
	case opts.Dir != "":
		abs, err = filepath.Abs(filepath.Join(opts.Dir, CommandLine))
	default:
		return nil, &Error{Msg: "no configuration file given (use --config FILE)"}
	}
	if err != nil {
		return nil, &Error{File: opts.File, Msg: err.Error()}
	}
	getenv, lookupEnv := envFuncs(opts.Getenv, opts.LookupEnv)
	p := &problems{file: abs, from: map[string]string{}}
	v := viper.New()
	for k, d := range defaults() {
		v.SetDefault(k, d)
	}
	// viper folds the case of every key it holds, task.args' too: the
	// factory's keyword arguments are layered here as well, as viper does
	// (files merged, the environment, flags and Override replacing), and
	// keep their case (maxLen is not maxlen).
	var args any
	for _, f := range files {
		m, err := readFile(f, p)
		if err != nil {
			return nil, err
		}
		for _, k := range leaves(m, "") {
			p.from[k] = f
		}
		if a := lookupIn(m, "task.args"); a != nil {
			args = mergeArgs(args, a)
		}
		if err := v.MergeConfigMap(m); err != nil {
			return nil, &Error{File: f, Msg: err.Error()}
		}
	}
	if opts.Env {
		for _, k := range Table {
			if val, ok := lookupEnv(k.Env()); ok {
				v.Set(k.Name, envValue(k.Name, val))
				p.from[k.Name] = sourcePrefix + k.Env()
				if k.Name == "task.args" {
					args = mergeArgs(nil, envValue(k.Name, val))
				}
			}
		}
	}
	keys := make([]string, 0, len(opts.Flags))
	for k := range opts.Flags {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if f := opts.Flags[k]; f != nil && f.Changed {
			v.Set(k, flagValue(k, f))
			p.from[k] = sourcePrefix + "--" + f.Name
			if k == "task.args" {
				args = mergeArgs(nil, flagValue(k, f))
			}
		}
	}
	for k, val := range opts.Override {
		v.Set(k, val)
		if opts.OverrideFrom != "" {
			p.from[k] = sourcePrefix + opts.OverrideFrom
		}
		if k == "task.args" {
			args = mergeArgs(nil, val)
		}
	}
	// The files' problems do not stop here: every value that can be read
	// is, and what the others leave wrong is found too, so that every
	// problem is reported at once.
	var c Config
	if !unmarshal(v, &c, p) {
		return nil, p.err()
	}
	if m, ok := args.(map[string]any); ok {
		c.Task.Args = m
	}
	c.File = abs
	c.factoryFrom = p.from["task.factory"]
	// c.from is where every key something set came from: an Override
	// without OverrideFrom counts as set too (its value is resolved
	// already), though its problems are blamed on the file.
	c.from = maps.Clone(p.from)
	for k := range opts.Override {
		if opts.OverrideFrom == "" {
			c.from[k] = sourcePrefix + OriginOverride
		}
	}
	if opts.Repeat > 1 {
		c.Workflow.Seed += int64(opts.Repeat - 1)
	}
	if opts.Heldout != "" {
		c.Task.Heldout, c.heldoutGiven = opts.Heldout, true
	}
	c.resolveBank(opts, getenv)
	before := len(p.list)
	c.finish(getenv, p)
	p.since(before)
	if err := p.err(); err != nil {
		return nil, err
	}
	c.originsOfTaskDefaults()
	if c.Task.RandomInputs != nil {
		if err := c.useGeneratorDefaults(); err != nil {
			return nil, err
		}
	}
	return &c, nil
}

// envFuncs are the environment's two readers: lookup tells an empty
// variable from an unset one when it can (LookupEnv, or the process's
// when neither is given); from Getenv alone, empty is unset.
func envFuncs(getenv func(string) string, lookup func(string) (string, bool)) (func(string) string, func(string) (string, bool)) {
	switch {
	case lookup != nil && getenv == nil:
		getenv = func(k string) string { v, _ := lookup(k); return v }
	case lookup == nil && getenv != nil:
		lookup = func(k string) (string, bool) { v := getenv(k); return v, v != "" }
	case lookup == nil:
		getenv, lookup = os.Getenv, os.LookupEnv
	}
	return getenv, lookup
}

// unmarshal decodes v into c, adding a problem for each value that cannot
// be decoded; such a value is then set back to its default and decoding
// tried again, so that the rest of the configuration is still checked.
// It reports false when some value could not be set aside.
func unmarshal(v *viper.Viper, c *Config, p *problems) bool {
	for range 8 {
		*c = Config{}
		err := v.Unmarshal(c, decodeOptions(true))
		if err == nil {
			return true
		}
		before := len(p.list)
		decodeProblems(err, p, v.Get)
		reset := false
		for _, e := range p.list[before:] {
			if e.Key == "" {
				continue
			}
			reset = true
			if k, ok := lookup[e.Key]; ok && k.Default != nil {
				v.Set(e.Key, k.Default)
			} else {
				v.Set(e.Key, nil)
			}
		}
		if !reset {
			return false
		}
	}
	return false
}

// EnvName is the environment variable of a key: sandbox.kind → RECONSTRUCT_SANDBOX_KIND.
func EnvName(key string) string {
	return EnvPrefix + "_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

func envValue(key, val string) any {
	switch key {
	case "task.oracle.command":
		return strings.Fields(val)
	case "task.args":
		// A JSON object; anything else is left to the decoder, which says
		// what it wants.
		var m map[string]any
		if err := json.Unmarshal([]byte(val), &m); err == nil && m != nil {
			return m
		}
		return val
	case "task.oracle.reject_exceptions":
		var out []string
		for _, p := range strings.Split(val, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return out
	case "task.python_path":
		var out []string
		for _, p := range strings.Split(val, ",") {
			if p = strings.TrimSpace(p); p != "" {
				if a, err := filepath.Abs(p); err == nil {
					p = a
				}
				out = append(out, p)
			}
		}
		return out
	}
	if isPathKey(key) && !isURL(val) {
		if a, err := filepath.Abs(val); err == nil {
			return a
		}
	}
	return val
}

// setFlags sets the keys whose flags the user gave, in key order.
func setFlags(v *viper.Viper, flags map[string]*pflag.Flag) {
	keys := make([]string, 0, len(flags))
	for k := range flags {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if f := flags[k]; f != nil && f.Changed {
			v.Set(k, flagValue(k, f))
		}
	}
}

func flagValue(key string, f *pflag.Flag) any {
	if sv, ok := f.Value.(pflag.SliceValue); ok {
		return sv.GetSlice()
	}
	return envValue(key, f.Value.String())
}

// isURL reports a value that names a server (bank.path may be a
// postgres:// URL), not a file: it is not resolved as a path.
func isURL(s string) bool { return strings.Contains(s, "://") }

func isPathKey(key string) bool {
	k, ok := lookup[key]
	return ok && k.Path
}

// readFile parses one YAML file strictly: its unknown keys and wrong types
// are added to p, each naming the file and the key; a file that cannot be
// read or parsed is an error. Its relative paths resolve against its
// directory.
func readFile(path string, p *problems) (map[string]any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, &Error{File: path, Msg: "configuration file does not exist"}
		}
		return nil, &Error{File: path, Msg: err.Error()}
	}
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		return nil, &Error{File: path, Msg: "invalid YAML: " + err.Error()}
	}
	if m == nil {
		m = map[string]any{}
	}
	fp := &problems{file: path}
	unknownKeys(m, "", fp)
	// Strict pass over this file alone (its unknown keys removed): no weak
	// typing.
	var probe Config
	if err := decode(m, &probe, false); err != nil {
		decodeProblems(err, fp, func(k string) any { return lookupIn(m, k) })
		// A value of the wrong type is left out (its key keeps its default)
		// so that the file's other keys are still read and checked.
		for _, e := range fp.list {
			deleteIn(m, e.Key)
		}
	}
	p.list = append(p.list, fp.list...)
	resolvePaths(m, filepath.Dir(path))
	return m, nil
}

// unknownKeys adds a problem for every key of m (under prefix) that is
// neither a key of Table nor a section holding keys, with a "did you mean",
// and removes it from m.
func unknownKeys(m map[string]any, prefix string, p *problems) {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		name := prefix + k
		if _, ok := lookup[name]; ok {
			continue
		}
		if isSection(name) {
			if sub, ok := m[k].(map[string]any); ok {
				unknownKeys(sub, name+".", p)
			}
			continue // a value where a section belongs: the decoder says so
		}
		delete(m, k)
		if s := suggest(name); s != "" {
			p.add(name, "unknown key; did you mean %s?", s)
		} else {
			p.add(name, "unknown key (docs/config.md lists every key)")
		}
	}
}

// mergeArgs is src laid over dst as viper merges a file's map: maps merge
// key by key, anything else replaces. The maps it returns are new.
func mergeArgs(dst, src any) any {
	s, ok := src.(map[string]any)
	if !ok {
		return src
	}
	out := map[string]any{}
	if d, ok := dst.(map[string]any); ok {
		for k, v := range d {
			out[k] = v
		}
	}
	for k, v := range s {
		out[k] = mergeArgs(out[k], v)
	}
	return out
}

// leaves lists the keys set in m (under prefix).
func leaves(m map[string]any, prefix string) []string {
	var out []string
	for k, val := range m {
		name := prefix + k
		if sub, ok := val.(map[string]any); ok && isSection(name) {
			out = append(out, leaves(sub, name+".")...)
			continue
		}
		out = append(out, name)
	}
	return out
}

func resolvePaths(m map[string]any, dir string) {
	for _, k := range Table {
		if !k.Path {
			continue
		}
		parts := strings.Split(k.Name, ".")
		cur := m
		for i, p := range parts {
			if i == len(parts)-1 {
				switch v := cur[p].(type) {
				case string:
					if v != "" && !filepath.IsAbs(v) && !isURL(v) {
						cur[p] = filepath.Join(dir, v)
					}
				case []any: // task.python_path
					for i, e := range v {
						if s, ok := e.(string); ok && s != "" && !filepath.IsAbs(s) {
							v[i] = filepath.Join(dir, s)
						}
					}
				}
				break
			}
			next, ok := cur[p].(map[string]any)
			if !ok {
				break
			}
			cur = next
		}
	}
	// A relative command path (./oracle) resolves against the file too.
	if t, ok := m["task"].(map[string]any); ok {
		if o, ok := t["oracle"].(map[string]any); ok {
			if cmd, ok := o["command"].([]any); ok && len(cmd) > 0 {
				if s, ok := cmd[0].(string); ok && strings.Contains(s, "/") && !filepath.IsAbs(s) {
					cmd[0] = filepath.Join(dir, s)
				}
			}
		}
	}
}

func decodeOptions(weak bool) viper.DecoderConfigOption {
	return func(dc *mapstructure.DecoderConfig) {
		dc.ErrorUnused = true
		dc.WeaklyTypedInput = weak
		dc.DecodeHook = mapstructure.ComposeDecodeHookFunc(
			mapstructure.StringToTimeDurationHookFunc(),
			mapstructure.StringToSliceHookFunc(","),
		)
	}
}

func decode(in any, out any, weak bool) error {
	dc := &mapstructure.DecoderConfig{Result: out}
	decodeOptions(weak)(dc)
	d, err := mapstructure.NewDecoder(dc)
	if err != nil {
		return err
	}
	return d.Decode(in)
}

// decodeLine is one of the decoder's problems: 'key' what is wrong.
var decodeLine = regexp.MustCompile(`'([^']*)' (.*)$`)

// decodeProblems turns the decoder's message into one problem per key, in
// words a user reads: the key, the kind of value it wants and the value it
// got (value returns the value set for a key).
func decodeProblems(err error, p *problems, value func(key string) any) {
	var lines []string
	for _, l := range strings.Split(err.Error(), "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "* "))
		if l == "" || strings.HasPrefix(l, "decoding failed") || strings.HasSuffix(l, "error(s) decoding:") {
			continue
		}
		lines = append(lines, l)
	}
	sort.Strings(lines)
	for _, l := range lines {
		m := decodeLine.FindStringSubmatch(l)
		if m == nil {
			p.add("", "%s", l)
			continue
		}
		key, msg := m[1], m[2]
		switch k, ok := lookup[key]; {
		case ok && k.Default != nil:
			such := ""
			if d := k.ShownDefault(); strings.HasPrefix(d, "`") {
				such = fmt.Sprintf(" (such as %s)", strings.Trim(d, "`"))
			}
			msg = fmt.Sprintf("want %s%s, got %s", typeName(k.Default), such, shown(value(key)))
		case isSection(key):
			msg = fmt.Sprintf("is a section: want keys under it (such as %s), got %s", firstKey(key), shown(value(key)))
		}
		p.add(key, "%s", msg)
	}
}

// shown is a value as a user wrote it.
func shown(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// firstKey is the first key of Table in a section.
func firstKey(section string) string {
	for _, k := range Table {
		if strings.HasPrefix(k.Name, section+".") {
			return k.Name
		}
	}
	return section
}

// deleteIn removes a dotted key from a nested map.
func deleteIn(m map[string]any, key string) {
	parts := strings.Split(key, ".")
	for _, part := range parts[:len(parts)-1] {
		next, ok := m[part].(map[string]any)
		if !ok {
			return
		}
		m = next
	}
	delete(m, parts[len(parts)-1])
}

// lookupIn returns the value of a dotted key in a nested map.
func lookupIn(m map[string]any, key string) any {
	var cur any = m
	for _, part := range strings.Split(key, ".") {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = mm[part]
	}
	return cur
}

// typeName names the type of a default in a user's words.
func typeName(v any) string {
	switch v.(type) {
	case bool:
		return "true or false"
	case int, int64:
		return "a whole number"
	case float64:
		return "a number"
	case time.Duration:
		return "a duration"
	case []string:
		return "a list of strings"
	case map[string]any:
		return "a mapping of names to values"
	}
	return "a string"
}

// finish checks required fields and values, adding each problem to p,
// and fills derived defaults.
func (c *Config) finish(getenv func(string) string, p *problems) {
	if c.Task.Factory != "" {
		c.finishFactory(p)
	} else {
		c.finishFiles(p)
	}
	c.finishRest(getenv, p)
}

// checkFields adds a problem for each field an agent sees that is missing
// or wrong.
func (t *Task) checkFields(p *problems) {
	if t.Name == "" {
		p.add("task.name", "required field is missing")
	}
	if t.InputType == "" {
		p.add("task.input_type", "required field is missing")
	}
	checkOneOf(p, "task.kind", t.Kind)
	if !isIdentifier(t.FunctionName) {
		p.add("task.function_name", "%q is not a Python identifier (letters, digits and _, not starting with a digit)", t.FunctionName)
	}
	if t.Domain != nil && t.Domain.Lo > t.Domain.Hi {
		p.add("task.domain", "lo %g is greater than hi %g", t.Domain.Lo, t.Domain.Hi)
	}
}

// finishFiles checks a task given by its files (oracle, generator).
func (c *Config) finishFiles(p *problems) {
	bad := p.add
	t := &c.Task
	t.checkFields(p)
	o := &t.Oracle
	n := 0
	for _, set := range []bool{o.Python != "", len(o.Command) > 0, o.HTTP != ""} {
		if set {
			n++
		}
	}
	switch {
	case n == 0:
		bad("task.oracle", "required: one of python, command or http")
	case n > 1:
		bad("task.oracle", "give exactly one of python, command or http")
	}
	if o.Python != "" {
		if o.Function == "" {
			bad("task.oracle.function", "required with task.oracle.python")
		}
		if err := fileExists(o.Python); err != nil {
			bad("task.oracle.python", "%v", err)
		}
	}
	if len(o.RejectExceptions) > 0 && o.Python == "" {
		bad("task.oracle.reject_exceptions", "applies only to task.oracle.python (a command rejects an input by exiting with an error, an endpoint with a 4xx status)")
	}
	for _, name := range o.RejectExceptions {
		if !exceptionRE.MatchString(name) {
			bad("task.oracle.reject_exceptions", "%q is not the name of an exception class (such as BadInput, or mymodule.BadInput)", name)
		}
	}
	if o.OnHost && len(o.Command) == 0 {
		bad("task.oracle.on_host", "applies only to task.oracle.command")
	}
	if o.HTTP != "" && !strings.HasPrefix(o.HTTP, "http://") && !strings.HasPrefix(o.HTTP, "https://") {
		bad("task.oracle.http", "%q is not an http(s) URL", o.HTTP)
	}
	if o.Timeout <= 0 {
		bad("task.oracle.timeout", "must be positive, got %s", o.Timeout)
	}
	if o.Retries < 0 {
		bad("task.oracle.retries", "must not be negative, got %d", o.Retries)
	}
	if o.MaxOutputDepth < 1 || o.MaxOutputDepth > task.MaxDepth {
		bad("task.oracle.max_output_depth", "must be between 1 and %d (the deepest value the bank records), got %d", task.MaxDepth, o.MaxOutputDepth)
	}
	if o.MaxOutputKB < 1 || o.MaxOutputKB > MaxOutputKBLimit {
		bad("task.oracle.max_output_kb", "must be between 1 and %d, got %d", MaxOutputKBLimit, o.MaxOutputKB)
	}
	if g := t.RandomInputs; g != nil {
		if g.Function == "" {
			g.Function = "generate"
		}
		if g.Python == "" {
			bad("task.random_inputs.python", "required with task.random_inputs")
		} else if err := fileExists(g.Python); err != nil {
			bad("task.random_inputs.python", "%v", err)
		}
	}
	c.defaultHeldout()
	c.containPaths(p)
}

// finishFactory checks a task given by a factory (docs/binding.md); the
// fields it returns are checked by CheckBound once it was called.
func (c *Config) finishFactory(p *problems) {
	t := &c.Task
	if !factoryRE.MatchString(t.Factory) {
		p.add("task.factory", "%q is not module:callable (a dotted module name, a colon, a dotted attribute name, such as tasks.sorting:make_task)", t.Factory)
	}
	if t.Bound != nil {
		// Bound by a run (a recorded configuration): the fields an agent
		// sees are the factory's.
		t.checkFields(p)
	}
	o := t.Oracle
	bound := t.Bound != nil
	for _, f := range []struct {
		key string
		set bool
	}{
		{"task.oracle.python", o.Python != ""},
		{"task.oracle.function", o.Function != ""},
		{"task.oracle.command", len(o.Command) > 0},
		{"task.oracle.http", o.HTTP != ""},
		{"task.random_inputs.python", t.RandomInputs != nil && t.RandomInputs.Python != ""},
		{"task.random_inputs", t.RandomInputs != nil && t.RandomInputs.Python == ""},
		{"task.input_type", t.InputType != "" && !bound},
		{"task.kind", t.Kind != "" && !bound},
	} {
		if f.set {
			p.add(f.key, "the factory %s (task.factory) gives the task's oracle, random_inputs, input_type and kind: set none of them beside it", t.Factory)
		}
	}
	if t.Name == "" {
		if n, ok := t.Args["name"].(string); ok {
			t.Name = n
		}
	}
	dir := filepath.Dir(c.File)
	if len(t.PythonPath) == 0 {
		t.PythonPath = []string{dir}
	}
	root, ok := c.taskDir(p)
	for i, path := range t.PythonPath {
		key := fmt.Sprintf("task.python_path[%d]", i)
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
			t.PythonPath[i] = path
		}
		if st, err := os.Stat(path); err != nil || !st.IsDir() {
			p.add(key, "%s is not a directory", path)
			continue
		}
		if ok {
			c.contain(p, root, key, path, false)
		}
	}
	c.defaultHeldout()
	if ok {
		c.containHeldout(p, root)
	}
}

var factoryRE = regexp.MustCompile(`^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$`)

// defaultHeldout sets task.heldout to heldout.jsonl beside the file, if
// it is not set and that file exists.
func (c *Config) defaultHeldout() {
	if c.Task.Heldout == "" {
		if h := filepath.Join(filepath.Dir(c.File), "heldout.jsonl"); fileExists(h) == nil {
			c.Task.Heldout = h
		}
	}
}

// BindingDir is the directory a factory task's oracle sandbox binds: the
// deepest one holding every task.python_path entry.
func (t Task) BindingDir() string {
	dir := ""
	for _, p := range t.PythonPath {
		p = filepath.Clean(p)
		if dir == "" {
			dir = p
			continue
		}
		for dir != p && !strings.HasPrefix(p, dir+string(filepath.Separator)) && dir != string(filepath.Separator) {
			dir = filepath.Dir(dir)
		}
	}
	return dir
}

// finishRest checks the sections other than the task's.
func (c *Config) finishRest(getenv func(string) string, p *problems) {
	bad := p.add
	t := &c.Task
	w := &c.Workflow
	for _, f := range []struct {
		key string
		v   int
		min int
	}{
		{"workflow.initial_batch", w.InitialBatch, 1},
		{"workflow.batch_step", w.BatchStep, 0},
		{"workflow.early_stop", w.EarlyStop, 1},
		{"workflow.max_iterations", w.MaxIterations, 1},
		{"workflow.propose_attempts", w.ProposeAttempts, 0},
		{"workflow.token_budget", w.TokenBudget, 0},
		{"workflow.max_failures", w.MaxFailures, 0},
	} {
		if f.v < f.min {
			bad(f.key, "must be at least %d, got %d", f.min, f.v)
		}
	}
	if w.RandomShare < 0 || w.RandomShare > 1 {
		bad("workflow.random_share", "must be between 0 and 1, got %g", w.RandomShare)
	} else if w.RandomShare > 0 && t.RandomInputs == nil && t.Factory == "" {
		bad("workflow.random_share", "is %g but task.random_inputs is not set (set it, or set random_share to 0)", w.RandomShare)
	}
	if w.Atol < 0 {
		bad("workflow.atol", "must not be negative, got %g", w.Atol)
	}
	if w.StallLimit < 0 {
		bad("workflow.stall_limit", "must not be negative (0 turns the check off), got %d", w.StallLimit)
	}
	checkOneOf(p, "workflow.proposal_fallback", w.ProposalFallback)

	if checkOneOf(p, "agent.kind", c.Agent.Kind) {
		switch c.Agent.Kind {
		case "replay":
			if c.Agent.Replay.Script == "" {
				bad("agent.replay.script", "required with agent.kind replay")
			} else if err := fileExists(c.Agent.Replay.Script); err != nil {
				bad("agent.replay.script", "%v", err)
			}
		case "llm":
			if c.Agent.LLM.Model == "" {
				bad("agent.llm.model", "required with agent.kind llm")
			}
			checkOneOf(p, "agent.llm.tool_mode", c.Agent.LLM.ToolMode)
		}
	}
	if c.Agent.Synth.TimeLimit <= 0 {
		bad("agent.synth.time_limit", "must be positive, got %s", c.Agent.Synth.TimeLimit)
	}
	if c.Agent.Synth.RunTimeLimit < 0 {
		bad("agent.synth.run_time_limit", "must not be negative (0 means no bound), got %s", c.Agent.Synth.RunTimeLimit)
	}
	if c.Agent.Synth.ProposeTimeLimit <= 0 {
		bad("agent.synth.propose_time_limit", "must be positive, got %s", c.Agent.Synth.ProposeTimeLimit)
	}
	if c.Agent.Synth.MaxPrograms < 0 {
		bad("agent.synth.max_programs", "must not be negative (0 bounds the search by time), got %d", c.Agent.Synth.MaxPrograms)
	}

	s := &c.Sandbox
	checkOneOf(p, "sandbox.kind", s.Kind)
	if s.CallTimeout <= 0 {
		bad("sandbox.call_timeout", "must be positive, got %s", s.CallTimeout)
	}
	if s.MemoryMB < 16 {
		bad("sandbox.memory_mb", "must be at least 16, got %d", s.MemoryMB)
	}
	if s.OutputKB < 1 {
		bad("sandbox.output_kb", "must be at least 1, got %d", s.OutputKB)
	}
	if c.Workspace == "" && t.Name != "" {
		c.Workspace = filepath.Join(filepath.Dir(c.File), "runs", t.Name)
	}
	if c.Bank.Path == "" {
		// Without a home directory the default is unknown; ResolveBank says
		// so when a command needs the bank.
		c.Bank.Path, _ = DefaultBankPath(getenv)
	}
}

// checkOneOf adds a problem when the key's value is not one of its
// Allowed values (with a "did you mean" when one is near), and reports
// whether it is.
func checkOneOf(p *problems, key, val string) bool {
	allowed := lookup[key].Allowed
	for _, a := range allowed {
		if val == a {
			return true
		}
	}
	switch {
	case val == "":
		p.add(key, "required field is missing (one of %s)", oneOf(allowed))
	default:
		hint := ""
		for _, a := range allowed {
			if distance(val, a) <= 2 || strings.EqualFold(val, a) {
				hint = fmt.Sprintf("; did you mean %s?", a)
				break
			}
		}
		p.add(key, "unknown value %q (want %s)%s", val, oneOf(allowed), hint)
	}
	return false
}

func fileExists(p string) error {
	st, err := os.Stat(p)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("file %s does not exist", p)
		}
		return err
	}
	if st.IsDir() {
		return fmt.Errorf("%s is a directory, want a file", p)
	}
	return nil
}

var exceptionRE = regexp.MustCompile(`^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$`)

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func isIdentifier(s string) bool { return identRE.MatchString(s) }

// Defaults returns a configuration holding only the defaults (no task)
// with the RECONSTRUCT_* environment variables applied (getenv may be nil);
// commands that run programs outside a run (rescore, the bank) take their
// sandbox settings from it.
func Defaults(getenv func(string) string) (*Config, error) {
	v := viper.New()
	p := &problems{from: map[string]string{}}
	for k, d := range defaults() {
		v.SetDefault(k, d)
	}
	if getenv != nil {
		for _, k := range Table {
			if val := getenv(k.Env()); val != "" {
				v.Set(k.Name, envValue(k.Name, val))
				p.from[k.Name] = sourcePrefix + k.Env()
			}
		}
	}
	var c Config
	if err := v.Unmarshal(&c, decodeOptions(true)); err != nil {
		decodeProblems(err, p, v.Get)
		return nil, p.err()
	}
	checkOneOf(p, "sandbox.kind", c.Sandbox.Kind)
	if err := p.err(); err != nil {
		return nil, err
	}
	if getenv == nil {
		getenv = os.Getenv
	}
	c.Bank.Path, _ = DefaultBankPath(getenv)
	return &c, nil
}

// containPaths checks that the task's files resolve, symbolic links
// followed, inside the task directory (the directory of the configuration
// file), unless task.allow_outside_paths is set: a task file must not make
// the oracle's sandbox read /etc or a user's files. A command oracle run
// in a sandbox must live there in any case: that directory is all its
// sandbox sees.
func (c *Config) containPaths(p *problems) {
	dir, ok := c.taskDir(p)
	if !ok {
		return
	}
	t := &c.Task
	c.contain(p, dir, "task.oracle.python", t.Oracle.Python, false)
	if g := t.RandomInputs; g != nil {
		c.contain(p, dir, "task.random_inputs.python", g.Python, false)
	}
	c.containHeldout(p, dir)
	if cmd := t.Oracle.Command; len(cmd) > 0 && strings.Contains(cmd[0], "/") {
		c.contain(p, dir, "task.oracle.command", cmd[0], !t.Oracle.OnHost)
	}
}

// taskDir is the task directory (the configuration file's) with every
// symbolic link followed; when it cannot be resolved, a problem is added.
func (c *Config) taskDir(p *problems) (string, bool) {
	dir, err := filepath.EvalSymlinks(filepath.Dir(c.File))
	if err != nil {
		p.add("", "task directory: %v", err)
		return "", false
	}
	return dir, true
}

// containHeldout holds task.heldout to the task directory dir, unless the
// caller chose it (Options.Heldout).
func (c *Config) containHeldout(p *problems, dir string) {
	if !c.heldoutGiven {
		c.contain(p, dir, "task.heldout", c.Task.Heldout, false)
	}
}

// contain adds a problem when path (a file or a directory) does not
// resolve inside the task directory dir, unless task.allow_outside_paths
// is set and always is not.
func (c *Config) contain(p *problems, dir, key, path string, always bool) {
	if path == "" || (c.Task.AllowOutsidePaths && !always) {
		return
	}
	real, err := resolve(path)
	if err != nil {
		p.add(key, "%v", err)
		return
	}
	if real == dir || strings.HasPrefix(real, dir+string(filepath.Separator)) {
		return
	}
	hint := " (set task.allow_outside_paths: true to allow it)"
	if always {
		hint = " (the oracle's sandbox sees only that directory: move it there, or run it on this machine with task.oracle.on_host: true)"
	}
	where := path
	if real != path {
		where += " resolves to " + real + ","
	} else {
		where += " is"
	}
	p.add(key, "%s outside the task directory %s%s", where, dir, hint)
}

// resolve is path made absolute with every symbolic link followed; a path
// that does not exist yet resolves through its directory.
func resolve(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err == nil {
		return real, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	d, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return filepath.Join(d, filepath.Base(abs)), nil
}
