package config

import (
	"fmt"
	"sort"
	"strings"
)

// Error is one problem of a configuration: the key at fault and where its
// value came from (a file, or the environment variable or flag that set it).
type Error struct {
	// File is the configuration file the value came from (or the main file).
	File string
	Key  string
	// Source, when set, is the environment variable or the flag that set
	// the value; it is named instead of File.
	Source string
	Msg    string
}

func (e *Error) Error() string {
	switch {
	case e.Source != "" && e.Key != "":
		return fmt.Sprintf("%s (%s): %s", e.Source, e.Key, e.Msg)
	case e.Source != "":
		return fmt.Sprintf("%s: %s", e.Source, e.Msg)
	case e.File != "" && e.Key != "":
		return fmt.Sprintf("%s: %s: %s", e.File, e.Key, e.Msg)
	case e.File != "":
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	case e.Key != "":
		return fmt.Sprintf("%s: %s", e.Key, e.Msg)
	}
	return e.Msg
}

// Problems are every problem found in a configuration, in the order found;
// its message has one line each. errors.As finds the first *Error.
type Problems []*Error

func (p Problems) Error() string {
	lines := make([]string, len(p))
	for i, e := range p {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns each problem.
func (p Problems) Unwrap() []error {
	errs := make([]error, len(p))
	for i, e := range p {
		errs[i] = e
	}
	return errs
}

// problems collects a configuration's problems, naming for each key where
// its value came from.
type problems struct {
	file string
	// from maps a key to where its value came from: a file path, or an
	// environment variable or flag (marked by sourcePrefix).
	from map[string]string
	list Problems
}

// sourcePrefix marks an entry of problems.from that is an environment
// variable or a flag rather than a file.
const sourcePrefix = "\x00"

func (p *problems) add(key, format string, args ...any) {
	e := &Error{File: p.file, Key: key, Msg: fmt.Sprintf(format, args...)}
	if p.from != nil {
		base, _, _ := strings.Cut(key, "[") // task.python_path[1]
		if f, ok := p.from[base]; ok {
			if s, ok := strings.CutPrefix(f, sourcePrefix); ok {
				e.Source = s
			} else {
				e.File = f
			}
		}
	}
	p.list = append(p.list, e)
}

// err returns nil, or the problems.
func (p *problems) err() error {
	if len(p.list) == 0 {
		return nil
	}
	return p.list
}

// since drops the problems found from index from on whose key had a
// problem before it: a value of the wrong type, set aside, is not then
// also reported as missing.
func (p *problems) since(from int) {
	seen := map[string]bool{}
	for _, e := range p.list[:from] {
		seen[e.Key] = true
	}
	kept := p.list[:from]
	for _, e := range p.list[from:] {
		if e.Key == "" || !seen[e.Key] {
			kept = append(kept, e)
		}
	}
	p.list = kept
}

// suggest names the known key closest to an unknown one: the key whose
// last part is the same (early_stop → workflow.early_stop), else the
// nearest in spelling, when near enough.
func suggest(unknown string) string {
	last := unknown[strings.LastIndex(unknown, ".")+1:]
	var sameLast []string
	for _, k := range Table {
		if strings.HasSuffix(k.Name, "."+last) || k.Name == last {
			sameLast = append(sameLast, k.Name)
		}
	}
	if len(sameLast) > 0 {
		sort.Strings(sameLast)
		return strings.Join(sameLast, " or ")
	}
	best, bestD := "", len(unknown)/3+2
	for _, name := range append(Keys(), sections()...) {
		if d := distance(unknown, name); d < bestD {
			best, bestD = name, d
		}
	}
	return best
}

// sections lists every name that prefixes keys (task, task.oracle, …).
func sections() []string {
	seen := map[string]bool{}
	var out []string
	for _, k := range Table {
		parts := strings.Split(k.Name, ".")
		for i := 1; i < len(parts); i++ {
			s := strings.Join(parts[:i], ".")
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	sort.Strings(out)
	return out
}

// distance is the Levenshtein distance of a and b.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// oneOf is the advice for a value that is not one of allowed.
func oneOf(allowed []string) string {
	switch len(allowed) {
	case 0:
		return ""
	case 1:
		return allowed[0]
	}
	return strings.Join(allowed[:len(allowed)-1], ", ") + " or " + allowed[len(allowed)-1]
}

// Problem is a problem of key in c, naming where its value came from: the
// flag, the environment variable or the file that set it, or its default.
func (c *Config) Problem(key, format string, args ...any) *Error {
	from := map[string]string{}
	for k, f := range c.from {
		// A value the caller resolved (Options.Override) is blamed on the
		// file, as Load does.
		if f != sourcePrefix+OriginOverride {
			from[k] = f
		}
	}
	if _, set := c.from[key]; !set && len(c.from) > 0 {
		// Nothing set the key: its default is at fault, not the file.
		return &Error{Source: key + " (" + OriginDefault + ")", Msg: fmt.Sprintf(format, args...)}
	}
	p := &problems{file: c.File, from: from}
	p.add(key, format, args...)
	return p.list[0]
}

// CheckValue checks a value given for a key of a few allowed values
// (sandbox.kind, agent.kind, …) outside a configuration file; source names
// where it came from (a flag). The error is a Problems of one line.
func CheckValue(key, val, source string) error {
	p := &problems{from: map[string]string{key: sourcePrefix + source}}
	checkOneOf(p, key, val)
	return p.err()
}
