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
		usage := k.FlagUsage()
		if k.Name == "bank.path" {
			usage = bankUsage("bank the run is recorded in", true)
		}
		flags = append(flags, configFlag{key: k.Name, name: k.Flag, usage: usage})
	}
	return addFlags(fs, flags)
}

// configFlag binds a flag of a command other than run (worker, a cluster
// sweep) to a configuration key; its type comes from the key's default.
type configFlag struct {
	key, name, usage string
}

// keyFlag is a flag of a command other than run bound to a configuration
// key, whose help line ends with the key's default from config.Table
// (after note, when given: "temporal engine; default 3"), so that no help
// text states a default by hand.
func keyFlag(key, name, usage, note string) configFlag {
	var paren []string
	if note != "" {
		paren = append(paren, note)
	}
	if def := defaultOf(key); def != "" {
		paren = append(paren, "default "+def)
	}
	if len(paren) > 0 {
		usage += " (" + strings.Join(paren, "; ") + ")"
	}
	return configFlag{key: key, name: name, usage: usage}
}

// defaultOf is the default of a configuration key as a help line writes
// it; a key missing from config.Table is a mistake of this program.
func defaultOf(key string) string {
	k, ok := config.Lookup(key)
	if !ok {
		panic("no configuration key " + key)
	}
	return k.DefaultText()
}

// flagKind is the pflag type of a key's flag: that of its default
// (durations and lists are written as strings).
func flagKind(key string) string {
	k, _ := config.Lookup(key)
	switch k.Default.(type) {
	case int, int64:
		return "int"
	case float64:
		return "float"
	case bool:
		return "bool"
	}
	return "string"
}

// addFlags registers flags on fs and returns the key → flag map. Every
// flag starts at its zero value, so that only a flag given on the command
// line overrides the file and the environment.
func addFlags(fs *pflag.FlagSet, flags []configFlag) map[string]*pflag.Flag {
	m := map[string]*pflag.Flag{}
	for _, f := range flags {
		switch flagKind(f.key) {
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
	c, err := config.Load(config.Options{File: file, Overlays: overlays, Env: true, Getenv: a.getenv, LookupEnv: a.lookupEnv, Flags: flags})
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

// bankUsage is the help line of every command's --bank: what the bank is
// for, and the one rule that finds it (config.ResolveBank); withConfig is
// set for commands that read a configuration's bank.path.
func bankUsage(what string, withConfig bool) string {
	def := config.BankPathEnv + ", else "
	if withConfig {
		def += "the configuration's bank.path, else "
	}
	return what + ": a SQLite file or a postgres:// URL (default: " + def + "the per-user bank)"
}
