package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/reconstruct/reconstruct/config"
)

// addConfigFlags registers a flag on fs for every configuration key that
// has one (config.Table) and returns the key → flag map.
func addConfigFlags(fs *pflag.FlagSet) map[string]*pflag.Flag {
	var flags []configFlag
	for _, k := range config.Table {
		if k.Flag == "" {
			continue
		}
		kind := "string"
		switch k.Default.(type) {
		case int, int64:
			kind = "int"
		case float64:
			kind = "float"
		case bool:
			kind = "bool"
		}
		flags = append(flags, configFlag{key: k.Name, name: k.Flag, usage: k.FlagUsage(), kind: kind})
	}
	return addFlags(fs, flags)
}

// configFlag binds a flag of a command other than run (worker, a cluster
// sweep) to a configuration key.
type configFlag struct {
	key, name, usage string
	kind             string // "string", "int", "float", "bool"
}

// addFlags registers flags on fs and returns the key → flag map.
func addFlags(fs *pflag.FlagSet, flags []configFlag) map[string]*pflag.Flag {
	m := map[string]*pflag.Flag{}
	for _, f := range flags {
		switch f.kind {
		case "int":
			fs.Int(f.name, 0, f.usage)
		case "float":
			fs.Float64(f.name, 0, f.usage)
		case "bool":
			fs.Bool(f.name, false, f.usage)
		default:
			fs.String(f.name, "", f.usage)
		}
		m[f.key] = fs.Lookup(f.name)
	}
	return m
}

// loadConfig loads the configuration file with environment and flags;
// every problem is a usage error (exit 2).
func loadConfig(a *app, file string, flags map[string]*pflag.Flag, overlays ...string) (*config.Config, error) {
	c, err := config.Load(config.Options{File: file, Overlays: overlays, Env: true, Getenv: a.getenv, Flags: flags})
	if err != nil {
		return nil, withCode(exitUsage, err)
	}
	return c, nil
}

// requireFlag is a usage error (exit status 2) naming the command and the
// flag when the flag was not given; mustFlags checks it for a command's
// required flags before it runs.
func requireFlag(cmd *cobra.Command, name string) error {
	if !cmd.Flags().Changed(name) {
		return withCode(exitUsage, fmt.Errorf("%s: --%s is required", strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" "), name))
	}
	return nil
}
