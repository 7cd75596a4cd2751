package config

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Origins of a key's value besides a file, a variable or a flag.
const (
	// OriginDefault: nothing set the key; it has its default (Key.Default).
	OriginDefault = "default"
	// OriginGenerator: nothing set the key and the task has an input
	// generator; it has Key.WithGenerator.
	OriginGenerator = "default for a task with a generator"
	// OriginOverride: Options.Override set the key, and OverrideFrom named
	// no source (a value resolved by the program, such as a fork's).
	OriginOverride = "set by the caller"
)

// originsOfTaskDefaults records where each key with a task-dependent
// default got its value: the file, variable or flag that set it, or
// OriginDefault.
func (c *Config) originsOfTaskDefaults() {
	c.Origins = map[string]string{}
	for _, k := range Table {
		if k.WithGenerator == nil {
			continue
		}
		src, set := c.from[k.Name]
		if !set {
			src = OriginDefault
		}
		c.Origins[k.Name] = strings.TrimPrefix(src, sourcePrefix)
	}
}

// useGeneratorDefaults gives every key with a task-dependent default that
// nothing set (OriginDefault) its default for a task with an input
// generator. A configuration without Origins (read back from a run that
// recorded none) is left as it is: its values are the run's.
func (c *Config) useGeneratorDefaults() error {
	for _, k := range Table {
		if k.WithGenerator == nil || c.Origins[k.Name] != OriginDefault {
			continue
		}
		if err := decode(nested(k.Name, k.WithGenerator), c, false); err != nil {
			return fmt.Errorf("set %s to its default for a task with a generator: %w", k.Name, err)
		}
		c.Origins[k.Name] = OriginGenerator
	}
	return nil
}

// nested is {"a": {"b": v}} for the key a.b.
func nested(key string, v any) map[string]any {
	parts := strings.Split(key, ".")
	m := map[string]any{parts[len(parts)-1]: v}
	for i := len(parts) - 2; i >= 0; i-- {
		m = map[string]any{parts[i]: m}
	}
	return m
}

// Setting is the effective value of a key and where it came from.
type Setting struct {
	Key    string `json:"key"`
	Value  any    `json:"value"`
	Origin string `json:"origin"`
}

// TaskDefaults are the keys whose default depends on the task, in Table
// order, with their effective values and where each came from; none for a
// configuration that recorded no origins.
func (c *Config) TaskDefaults() []Setting {
	if len(c.Origins) == 0 {
		return nil
	}
	data, err := json.Marshal(c)
	if err != nil {
		return nil
	}
	var all map[string]any
	if json.Unmarshal(data, &all) != nil {
		return nil
	}
	var out []Setting
	for _, k := range Table {
		origin, ok := c.Origins[k.Name]
		if !ok {
			continue
		}
		out = append(out, Setting{Key: k.Name, Value: lookupIn(all, k.Name), Origin: origin})
	}
	return out
}

// SettingsLine is the line a run prints when it starts: each key whose
// default depends on the task, its value and where it came from
// ("random_share 0.5 (default for a task with a generator), …").
func SettingsLine(settings []Setting) string {
	parts := make([]string, len(settings))
	for i, s := range settings {
		_, name, _ := strings.Cut(s.Key, ".")
		parts[i] = fmt.Sprintf("%s %v (%s)", name, s.Value, s.Origin)
	}
	return strings.Join(parts, ", ")
}
