package config

import (
	"bytes"
	"encoding/json"
	"os"

	"github.com/spf13/viper"

	"github.com/reconstruct/reconstruct/internal/stamp"
	"github.com/reconstruct/reconstruct/sandbox"
)

// Format is the major version of the recorded configuration's format (the
// JSON of Config a run records when it starts).
const Format = 1

// Stamped returns c ready to be recorded: stamped with Format and the
// reconstruct that records it.
func (c Config) Stamped() Config {
	c.Stamp = stamp.New(Format, sandbox.HarnessSHA256())
	return c
}

// Recorded reads back a configuration a run recorded (the JSON of Config):
// refused when of a newer format, then defaulted and validated exactly as
// a file is, every problem at once. what names it in messages ("run X's
// recorded configuration"); getenv (os.Getenv when nil) finds the default
// bank.
func Recorded(data []byte, what string, getenv func(string) string) (*Config, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, &Error{File: what, Msg: "not a recorded configuration: " + err.Error()}
	}
	var st stamp.Stamp
	if raw, ok := m["stamp"]; ok {
		b, err := json.Marshal(raw)
		if err == nil {
			err = json.Unmarshal(b, &st)
		}
		if err != nil {
			return nil, &Error{File: what, Key: "stamp", Msg: err.Error()}
		}
		delete(m, "stamp")
	}
	if err := st.Check(what, Format); err != nil {
		return nil, err
	}
	file, _ := m["file"].(string)
	delete(m, "file")
	var origins map[string]string
	if raw, ok := m["origins"]; ok {
		b, err := json.Marshal(raw)
		if err == nil {
			err = json.Unmarshal(b, &origins)
		}
		if err != nil {
			return nil, &Error{File: what, Key: "origins", Msg: err.Error()}
		}
		delete(m, "origins")
	}
	// A factory task's binding (no key: a run fills it) is read as it was
	// written, and its arguments keep the case of their keys and their
	// numbers' digits (viper would fold the one, JSON's float64 round the
	// other).
	var factory struct {
		Task struct {
			Bound *Bound         `json:"bound"`
			Args  map[string]any `json:"args"`
		} `json:"task"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&factory); err != nil {
		return nil, &Error{File: what, Key: "task", Msg: err.Error()}
	}
	if t, ok := m["task"].(map[string]any); ok {
		delete(t, "bound")
	}
	p := &problems{file: what}
	unknownKeys(m, "", p)
	if err := p.err(); err != nil {
		return nil, err
	}
	v := viper.New()
	for k, d := range defaults() {
		v.SetDefault(k, d)
	}
	if err := v.MergeConfigMap(m); err != nil {
		return nil, &Error{File: what, Msg: err.Error()}
	}
	var c Config
	if err := v.Unmarshal(&c, decodeOptions(true)); err != nil {
		decodeProblems(err, p, v.Get)
		return nil, p.err()
	}
	c.File, c.Stamp, c.Origins = file, st, origins
	c.Task.Bound = factory.Task.Bound
	if factory.Task.Args != nil {
		c.Task.Args = factory.Task.Args
	}
	c.finish(getenv, p)
	if err := p.err(); err != nil {
		return nil, err
	}
	return &c, nil
}
