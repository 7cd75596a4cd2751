package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

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
	// Env reads RECONSTRUCT_* variables (Getenv, or os.Getenv when nil).
	Env    bool
	Getenv func(string) string
	// Flags maps config keys to command-line flags; a flag wins only when
	// the user set it.
	Flags map[string]*pflag.Flag
	// Override is applied last (already-resolved values, e.g. from a fork).
	Override map[string]any
}

// CommandLine is the name a configuration given without a file (Options.Dir)
// has in its directory.
const CommandLine = "(command line)"

// pathKeys are the keys whose values are paths relative to the file naming them.
var pathKeys = []string{
	"task.oracle.python", "task.random_inputs.python", "task.heldout",
	"workspace", "bank.path", "agent.replay.script",
}

// Load reads, layers, decodes and validates a configuration.
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
	v := viper.New()
	for k, d := range defaults() {
		v.SetDefault(k, d)
	}
	for _, f := range files {
		m, err := readFile(f)
		if err != nil {
			return nil, err
		}
		if err := v.MergeConfigMap(m); err != nil {
			return nil, &Error{File: f, Msg: err.Error()}
		}
	}
	if opts.Env {
		getenv := opts.Getenv
		if getenv == nil {
			getenv = os.Getenv
		}
		for k := range defaults() {
			name := EnvName(k)
			if val := getenv(name); val != "" {
				v.Set(k, envValue(k, val))
			}
		}
		for _, k := range []string{"task.domain.lo", "task.domain.hi", "task.random_inputs.python", "task.random_inputs.function"} {
			if val := getenv(EnvName(k)); val != "" {
				v.Set(k, envValue(k, val))
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
		}
	}
	for k, val := range opts.Override {
		v.Set(k, val)
	}
	var c Config
	if err := v.Unmarshal(&c, decodeOptions(true)); err != nil {
		return nil, &Error{File: abs, Msg: cleanDecodeError(err)}
	}
	c.File = abs
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if err := c.finish(getenv); err != nil {
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
	for _, k := range pathKeys {
		if k == key {
			return true
		}
	}
	return false
}

// readFile parses one YAML file strictly (unknown keys and wrong types are
// errors naming the file and the key) and resolves its paths.
func readFile(path string) (map[string]any, error) {
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
	// Strict pass over this file alone: no weak typing, no unknown keys.
	var probe Config
	if err := decode(m, &probe, false); err != nil {
		return nil, &Error{File: path, Msg: cleanDecodeError(err)}
	}
	resolvePaths(m, filepath.Dir(path))
	return m, nil
}

func resolvePaths(m map[string]any, dir string) {
	for _, key := range pathKeys {
		parts := strings.Split(key, ".")
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
	// A relative command path (./oracle) and python_path entries resolve
	// against the file too.
	if t, ok := m["task"].(map[string]any); ok {
		if pp, ok := t["python_path"].([]any); ok {
			for i, p := range pp {
				if s, ok := p.(string); ok && !filepath.IsAbs(s) {
					pp[i] = filepath.Join(dir, s)
				}
			}
		}
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

var decodeNoise = regexp.MustCompile(`(?m)^\d+ error\(s\) decoding:\s*|^\* `)

// cleanDecodeError turns mapstructure's message into one line per problem,
// each naming the key.
func cleanDecodeError(err error) string {
	s := decodeNoise.ReplaceAllString(err.Error(), "")
	s = strings.ReplaceAll(s, "decoding failed due to the following error(s):", "")
	lines := strings.Fields(strings.ReplaceAll(s, "\n", " \n "))
	return strings.TrimSpace(strings.Join(lines, " "))
}

// finish checks required fields and values, and fills derived defaults.
func (c *Config) finish(getenv func(string) string) error {
	if c.Task.Factory != "" {
		if err := c.finishFactory(); err != nil {
			return err
		}
	} else if err := c.finishFiles(); err != nil {
		return err
	}
	return c.finishRest(getenv)
}

// checkFields checks the fields an agent sees; bad names the field.
func (t *Task) checkFields(bad func(field, format string, args ...any) error) error {
	if t.Name == "" {
		return bad("name", "required field is missing")
	}
	if t.InputType == "" {
		return bad("input_type", "required field is missing")
	}
	if t.Kind == "" {
		return bad("kind", "required field is missing (one of %s)", kindList())
	}
	if !task.Kind(t.Kind).Valid() {
		return bad("kind", "unknown kind %q (want one of %s)", t.Kind, kindList())
	}
	if !isIdentifier(t.FunctionName) {
		return bad("function_name", "%q is not a Python identifier", t.FunctionName)
	}
	if t.Domain != nil && t.Domain.Lo > t.Domain.Hi {
		return bad("domain", "lo %g is greater than hi %g", t.Domain.Lo, t.Domain.Hi)
	}
	return nil
}

// finishFiles checks a task given by its files (oracle, generator).
func (c *Config) finishFiles() error {
	bad := func(key, format string, args ...any) error {
		return &Error{File: c.File, Key: key, Msg: fmt.Sprintf(format, args...)}
	}
	t := &c.Task
	if err := t.checkFields(func(field, format string, args ...any) error { return bad("task."+field, format, args...) }); err != nil {
		return err
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
		return bad("task.oracle", "required: one of python, command or http")
	case n > 1:
		return bad("task.oracle", "give exactly one of python, command or http")
	}
	if o.Python != "" {
		if o.Function == "" {
			return bad("task.oracle.function", "required with task.oracle.python")
		}
		if err := fileExists(o.Python); err != nil {
			return bad("task.oracle.python", "%v", err)
		}
	}
	if o.OnHost && len(o.Command) == 0 {
		return bad("task.oracle.on_host", "applies only to task.oracle.command")
	}
	if o.HTTP != "" && !strings.HasPrefix(o.HTTP, "http://") && !strings.HasPrefix(o.HTTP, "https://") {
		return bad("task.oracle.http", "%q is not an http(s) URL", o.HTTP)
	}
	if o.Timeout <= 0 {
		return bad("task.oracle.timeout", "must be positive")
	}
	if o.Retries < 0 {
		return bad("task.oracle.retries", "must not be negative")
	}
	if g := t.RandomInputs; g != nil {
		if g.Python == "" {
			return bad("task.random_inputs.python", "required with task.random_inputs")
		}
		if g.Function == "" {
			g.Function = "generate"
		}
		if err := fileExists(g.Python); err != nil {
			return bad("task.random_inputs.python", "%v", err)
		}
	}
	if t.Heldout == "" {
		if p := filepath.Join(filepath.Dir(c.File), "heldout.jsonl"); fileExists(p) == nil {
			t.Heldout = p
		}
	}
	return c.containPaths()
}

// finishFactory checks a task given by a factory; the fields it returns
// are checked by CheckBound once it was called.
func (c *Config) finishFactory() error {
	bad := func(key, format string, args ...any) error {
		return &Error{File: c.File, Key: key, Msg: fmt.Sprintf(format, args...)}
	}
	t := &c.Task
	if !factoryRE.MatchString(t.Factory) {
		return bad("task.factory", "%q is not module:callable (a dotted module name, a colon, a dotted attribute name)", t.Factory)
	}
	if o := t.Oracle; o.Python != "" || len(o.Command) > 0 || o.HTTP != "" || t.RandomInputs != nil || t.InputType != "" || t.Kind != "" {
		return bad("task.factory", "the factory gives the task's oracle, random_inputs, input_type and kind: set none of them beside it")
	}
	if t.Name == "" {
		if n, ok := t.Args["name"].(string); ok {
			t.Name = n
		}
	}
	if len(t.PythonPath) == 0 {
		t.PythonPath = []string{filepath.Dir(c.File)}
	}
	for i, p := range t.PythonPath {
		key := fmt.Sprintf("task.python_path[%d]", i)
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(c.File), p)
			t.PythonPath[i] = p
		}
		if st, err := os.Stat(p); err != nil || !st.IsDir() {
			return bad(key, "%s is not a directory", p)
		}
		if err := c.contain(key, p, false); err != nil {
			return err
		}
	}
	if t.Heldout == "" {
		if p := filepath.Join(filepath.Dir(c.File), "heldout.jsonl"); fileExists(p) == nil {
			t.Heldout = p
		}
	}
	return c.contain("task.heldout", t.Heldout, false)
}

var factoryRE = regexp.MustCompile(`^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$`)

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

// CheckBound checks a factory task once its fields were filled from what
// the factory returned (runner.Bind), and fills the defaults that depend
// on them; errors name the factory and the field.
func (c *Config) CheckBound() error {
	t := &c.Task
	err := t.checkFields(func(field, format string, args ...any) error {
		return &Error{File: c.File, Key: "task.factory", Msg: fmt.Sprintf("%s returned a task whose %s: %s", t.Factory, field, fmt.Sprintf(format, args...))}
	})
	if err != nil {
		return err
	}
	if c.Workspace == "" && t.Name != "" {
		c.Workspace = filepath.Join(filepath.Dir(c.File), "runs", t.Name)
	}
	return nil
}

// finishRest checks the sections other than the task's.
func (c *Config) finishRest(getenv func(string) string) error {
	bad := func(key, format string, args ...any) error {
		return &Error{File: c.File, Key: key, Msg: fmt.Sprintf(format, args...)}
	}
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
		{"workflow.propose_attempts", w.ProposeAttempts, 1},
		{"workflow.token_budget", w.TokenBudget, 0},
		{"workflow.max_failures", w.MaxFailures, 0},
	} {
		if f.v < f.min {
			return bad(f.key, "must be at least %d, got %d", f.min, f.v)
		}
	}
	if w.RandomShare < 0 || w.RandomShare > 1 {
		return bad("workflow.random_share", "must be between 0 and 1, got %g", w.RandomShare)
	}
	if w.RandomShare > 0 && t.RandomInputs == nil && t.Factory == "" {
		return bad("workflow.random_share", "is %g but task.random_inputs is not set", w.RandomShare)
	}
	if w.Atol < 0 {
		return bad("workflow.atol", "must not be negative")
	}
	if w.StallLimit < 0 {
		return bad("workflow.stall_limit", "must not be negative (0 turns the check off), got %d", w.StallLimit)
	}
	switch w.ProposalFallback {
	case FallbackRandom, FallbackStop:
	default:
		return bad("workflow.proposal_fallback", "want %s or %s, got %q", FallbackRandom, FallbackStop, w.ProposalFallback)
	}

	switch c.Agent.Kind {
	case "synth", "llm":
	case "replay":
		if c.Agent.Replay.Script == "" {
			return bad("agent.replay.script", "required with agent.kind replay")
		}
		if err := fileExists(c.Agent.Replay.Script); err != nil {
			return bad("agent.replay.script", "%v", err)
		}
	default:
		return bad("agent.kind", "unknown agent %q (want synth, llm or replay)", c.Agent.Kind)
	}
	if c.Agent.Kind == "llm" {
		if c.Agent.LLM.Model == "" {
			return bad("agent.llm.model", "required with agent.kind llm")
		}
		if c.Agent.LLM.ToolMode != "tools" && c.Agent.LLM.ToolMode != "text" {
			return bad("agent.llm.tool_mode", "want tools or text, got %q", c.Agent.LLM.ToolMode)
		}
	}
	if c.Agent.Synth.TimeLimit <= 0 {
		return bad("agent.synth.time_limit", "must be positive")
	}
	if c.Agent.Synth.RunTimeLimit < 0 {
		return bad("agent.synth.run_time_limit", "must not be negative (0 means no bound)")
	}

	s := &c.Sandbox
	switch s.Kind {
	case "auto", "process", "docker":
	default:
		return bad("sandbox.kind", "unknown sandbox %q (want auto, process or docker)", s.Kind)
	}
	if s.CallTimeout <= 0 {
		return bad("sandbox.call_timeout", "must be positive")
	}
	if s.MemoryMB < 16 {
		return bad("sandbox.memory_mb", "must be at least 16, got %d", s.MemoryMB)
	}
	if s.OutputKB < 1 {
		return bad("sandbox.output_kb", "must be at least 1")
	}
	if c.Workspace == "" && t.Name != "" {
		c.Workspace = filepath.Join(filepath.Dir(c.File), "runs", t.Name)
	}
	if c.Bank.Path == "" {
		// Without a home directory the default is unknown; ResolveBank says
		// so when a command needs the bank.
		c.Bank.Path, _ = DefaultBankPath(getenv)
	}
	return nil
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

func kindList() string {
	names := make([]string, len(task.Kinds))
	for i, k := range task.Kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

// Keys lists every configuration key (for docs and completion).
func Keys() []string {
	var keys []string
	for k := range defaults() {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Defaults returns a configuration holding only the defaults (no task)
// with the RECONSTRUCT_* environment variables applied (getenv may be nil);
// commands that run programs outside a run (rescore, the bank) take their
// sandbox settings from it.
func Defaults(getenv func(string) string) (*Config, error) {
	v := viper.New()
	for k, d := range defaults() {
		v.SetDefault(k, d)
		if getenv != nil {
			if val := getenv(EnvName(k)); val != "" {
				v.Set(k, envValue(k, val))
			}
		}
	}
	var c Config
	if err := v.Unmarshal(&c, decodeOptions(true)); err != nil {
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
func (c *Config) containPaths() error {
	check := c.contain
	t := &c.Task
	if err := check("task.oracle.python", t.Oracle.Python, false); err != nil {
		return err
	}
	if g := t.RandomInputs; g != nil {
		if err := check("task.random_inputs.python", g.Python, false); err != nil {
			return err
		}
	}
	if err := check("task.heldout", t.Heldout, false); err != nil {
		return err
	}
	if cmd := t.Oracle.Command; len(cmd) > 0 && strings.Contains(cmd[0], "/") {
		if err := check("task.oracle.command", cmd[0], !t.Oracle.OnHost); err != nil {
			return err
		}
	}
	return nil
}

// contain checks that path (a file or a directory) resolves inside the
// task directory, unless task.allow_outside_paths is set and always is not.
func (c *Config) contain(key, path string, always bool) error {
	t := &c.Task
	if path == "" || (t.AllowOutsidePaths && !always) {
		return nil
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(c.File))
	if err != nil {
		return &Error{File: c.File, Msg: fmt.Sprintf("task directory: %v", err)}
	}
	real, err := resolve(path)
	if err != nil {
		return &Error{File: c.File, Key: key, Msg: err.Error()}
	}
	if real == dir || strings.HasPrefix(real, dir+string(filepath.Separator)) {
		return nil
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
	return &Error{File: c.File, Key: key, Msg: fmt.Sprintf("%s outside the task directory %s%s", where, dir, hint)}
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
