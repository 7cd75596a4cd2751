package config

import (
	"encoding/json"
	"errors"
	"fmt"
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
)

// EnvPrefix prefixes every environment variable that sets a key.
const EnvPrefix = "RECONSTRUCT"

// Options says where a configuration comes from.
type Options struct {
	// File is the main configuration file (required).
	File string
	// Overlays are further files applied over File in order (a benchmark's
	// base.yaml over each task's own); their paths resolve against their own
	// directory.
	Overlays []string
	// Env reads RECONSTRUCT_* variables (Getenv, or os.Getenv when nil).
	Env    bool
	Getenv func(string) string
	// Flags maps config keys to command-line flags; a flag wins only when
	// the user set it.
	Flags map[string]*pflag.Flag
	// Override is applied last (already-resolved values, e.g. from a fork).
	Override map[string]any
}

// Load reads, layers, decodes and validates a configuration. Every
// problem is reported at once (Problems), each naming the key and the file,
// environment variable or flag its value came from.
func Load(opts Options) (*Config, error) {
	if opts.File == "" {
		return nil, &Error{Msg: "no configuration file given (use --config FILE)"}
	}
	abs, err := filepath.Abs(opts.File)
	if err != nil {
		return nil, &Error{File: opts.File, Msg: err.Error()}
	}
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	p := &problems{file: abs, from: map[string]string{}}
	v := viper.New()
	for k, d := range defaults() {
		v.SetDefault(k, d)
	}
	for _, f := range append([]string{abs}, opts.Overlays...) {
		m, err := readFile(f, p)
		if err != nil {
			return nil, err
		}
		for _, k := range leaves(m, "") {
			p.from[k] = f
		}
		if err := v.MergeConfigMap(m); err != nil {
			return nil, &Error{File: f, Msg: err.Error()}
		}
	}
	if opts.Env {
		for _, k := range Table {
			if val := getenv(k.Env()); val != "" {
				v.Set(k.Name, envValue(k.Name, val))
				p.from[k.Name] = sourcePrefix + k.Env()
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
		}
	}
	for k, val := range opts.Override {
		v.Set(k, val)
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	var c Config
	if err := v.Unmarshal(&c, decodeOptions(true)); err != nil {
		decodeProblems(err, p, v.Get)
		return nil, p.err()
	}
	c.File = abs
	c.finish(getenv, p)
	if err := p.err(); err != nil {
		return nil, err
	}
	return &c, nil
}

// EnvName is the environment variable of a key: sandbox.kind → RECONSTRUCT_SANDBOX_KIND.
func EnvName(key string) string {
	return EnvPrefix + "_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

func envValue(key, val string) any {
	if key == "task.oracle.command" {
		return strings.Fields(val)
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
				if s, ok := cur[p].(string); ok && s != "" && !filepath.IsAbs(s) && !isURL(s) {
					cur[p] = filepath.Join(dir, s)
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
			msg = fmt.Sprintf("want %s (such as %s), got %s", typeName(k.Default), strings.Trim(k.ShownDefault(), "`"), shown(value(key)))
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
	}
	return "a string"
}

// finish checks required fields and values, adding each problem to p,
// and fills derived defaults.
func (c *Config) finish(getenv func(string) string, p *problems) {
	bad := p.add
	t := &c.Task
	if t.Name == "" {
		bad("task.name", "required field is missing")
	}
	if t.InputType == "" {
		bad("task.input_type", "required field is missing")
	}
	checkOneOf(p, "task.kind", t.Kind)
	if !isIdentifier(t.FunctionName) {
		bad("task.function_name", "%q is not a Python identifier (letters, digits and _, not starting with a digit)", t.FunctionName)
	}
	if t.Domain != nil && t.Domain.Lo > t.Domain.Hi {
		bad("task.domain", "lo %g is greater than hi %g", t.Domain.Lo, t.Domain.Hi)
	}
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
	if t.Heldout == "" {
		if h := filepath.Join(filepath.Dir(c.File), "heldout.jsonl"); fileExists(h) == nil {
			t.Heldout = h
		}
	}
	c.containPaths(p)

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
		{"workflow.propose_attempts", w.ProposeAttempts, 1},
		{"workflow.token_budget", w.TokenBudget, 0},
		{"workflow.max_failures", w.MaxFailures, 0},
	} {
		if f.v < f.min {
			bad(f.key, "must be at least %d, got %d", f.min, f.v)
		}
	}
	if w.RandomShare < 0 || w.RandomShare > 1 {
		bad("workflow.random_share", "must be between 0 and 1, got %g", w.RandomShare)
	} else if w.RandomShare > 0 && t.RandomInputs == nil {
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
	if c.Workspace == "" {
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
	dir, err := filepath.EvalSymlinks(filepath.Dir(c.File))
	if err != nil {
		p.add("", "task directory: %v", err)
		return
	}
	t := &c.Task
	check := func(key, path string, always bool) {
		if path == "" || (t.AllowOutsidePaths && !always) {
			return
		}
		real, err := resolve(path)
		if err != nil {
			p.add(key, "%v", err)
			return
		}
		if real != dir && strings.HasPrefix(real, dir+string(filepath.Separator)) {
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
	check("task.oracle.python", t.Oracle.Python, false)
	if g := t.RandomInputs; g != nil {
		check("task.random_inputs.python", g.Python, false)
	}
	check("task.heldout", t.Heldout, false)
	if cmd := t.Oracle.Command; len(cmd) > 0 && strings.Contains(cmd[0], "/") {
		check("task.oracle.command", cmd[0], !t.Oracle.OnHost)
	}
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
