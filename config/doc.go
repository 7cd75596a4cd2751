//go:generate go run ./internal/gendoc ../docs/config.md

// Package config loads a run configuration: a YAML file (a task directory's
// task.yaml or any run config), optional overlay files, RECONSTRUCT_*
// environment variables and command-line flags, in that order of precedence.
// Every field, its default and an example are documented in docs/config.md.
//
// Loading never creates anything: a bad file fails with an error naming the
// file and the key, before any workspace exists.
package config
