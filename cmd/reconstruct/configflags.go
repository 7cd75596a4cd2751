package main

import (
	"errors"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/reconstruct/reconstruct/config"
)

// configFlag binds a command-line flag to a configuration key.
type configFlag struct {
	key, name, usage string
	kind             string // "string", "int", "float", "bool"
}

// runFlags are the configuration keys settable on the command line.
var runFlags = []configFlag{
	{"workspace", "workspace", "directory for candidate.py, the archive and the journals", "string"},
	{"agent.kind", "agent", "agent: synth, llm or replay", "string"},
	{"agent.replay.script", "replay-script", "replay agent script (YAML)", "string"},
	{"agent.llm.model", "model", "LLM model name", "string"},
	{"agent.llm.base_url", "base-url", "OpenAI-compatible endpoint", "string"},
	{"sandbox.kind", "sandbox", "sandbox: auto, process or docker", "string"},
	{"bank.path", "bank", "bank database file", "string"},
	{"workflow.seed", "seed", "seed for the agent and the random inputs", "int"},
	{"workflow.initial_batch", "initial-batch", "examples observed before the first session", "int"},
	{"workflow.batch_step", "batch-step", "how much each granted batch grows", "int"},
	{"workflow.early_stop", "early-stop", "consecutive promotions that end the run", "int"},
	{"workflow.max_iterations", "max-iterations", "agent sessions at most", "int"},
	{"workflow.token_budget", "token-budget", "prompt+completion tokens at most (0: no limit)", "int"},
	{"workflow.random_share", "random-share", "fraction of each batch drawn from random_inputs", "float"},
	{"workflow.coverage_gate", "coverage-gate", "turn on the coverage gate", "bool"},
	{"workflow.memorisation_gate", "memorisation-gate", "turn on the memorisation gate", "bool"},
	{"workflow.complexity_gate", "complexity-gate", "turn on the complexity gate", "bool"},
	{"workflow.domain_check", "domain-check", "turn on the domain check", "bool"},
}

// addConfigFlags registers runFlags on fs and returns the key → flag map.
func addConfigFlags(fs *pflag.FlagSet) map[string]*pflag.Flag { return addFlags(fs, runFlags) }

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

func requireFlag(cmd *cobra.Command, name string) error {
	if !cmd.Flags().Changed(name) {
		return withCode(exitUsage, errors.New("--"+name+" is required"))
	}
	return nil
}
