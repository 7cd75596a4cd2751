package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/pflag"
)

func TestLoadCluster(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "base.yaml")
	yaml := "sandbox: {kind: process}\ncluster: {temporal: 'file:7233', parallel: 2, heartbeat_timeout: 5s, workdir: work}\nbank: {path: shared/bank.db}\n"
	if err := os.WriteFile(file, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	fs.String("temporal", "", "")
	fs.String("task-queue", "", "")
	flags := map[string]*pflag.Flag{"cluster.temporal": fs.Lookup("temporal"), "cluster.task_queue": fs.Lookup("task-queue")}
	if err := fs.Parse([]string{"--task-queue", "gpu"}); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"RECONSTRUCT_CLUSTER_TEMPORAL": "env:7233", "RECONSTRUCT_CLUSTER_MAX_ATTEMPTS": "5"}
	got, bankLoc, err := LoadCluster(Options{File: file, Env: true, Getenv: func(k string) string { return env[k] }, Flags: flags})
	if err != nil {
		t.Fatal(err)
	}
	want := Cluster{Temporal: "env:7233", Namespace: DefaultNamespace, TaskQueue: "gpu", Parallel: 2, MaxAttempts: 5,
		HeartbeatTimeout: 5 * time.Second, TaskTimeout: DefaultTaskTimeout, DrainTimeout: DefaultDrainTimeout, Workdir: filepath.Join(dir, "work")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cluster (-want +got):\n%s", diff)
	}
	if bankLoc != filepath.Join(dir, "shared", "bank.db") {
		t.Errorf("bank %q", bankLoc)
	}
	// Without a file: defaults, and no bank.
	got, bankLoc, err = LoadCluster(Options{})
	if err != nil || got.MaxAttempts != DefaultMaxAttempts || got.Parallel != 1 || bankLoc != "" || got.Temporal != "" {
		t.Errorf("defaults: %+v, bank %q, %v", got, bankLoc, err)
	}
}

func TestLoadClusterErrors(t *testing.T) {
	tests := []struct {
		yaml, want string
	}{
		{"cluster: {parallel: 0}\n", "cluster.parallel: must be at least 1"},
		{"cluster: {max_attempts: 0}\n", "cluster.max_attempts"},
		{"cluster: {heartbeat_timeout: 10ms}\n", "cluster.heartbeat_timeout"},
		{"cluster: {heartbeat_timeout: 1m, task_timeout: 30s}\n", "cluster.task_timeout"},
		{"cluster: {drain_timeout: -1s}\n", "cluster.drain_timeout"},
		{"cluster: {namespace: ''}\n", "cluster.namespace"},
		{"cluster: {temporl: x}\n", "temporl"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "c.yaml")
			if err := os.WriteFile(file, []byte(tt.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := LoadCluster(Options{File: file})
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), file) {
				t.Errorf("err = %v, want %q naming %s", err, tt.want, file)
			}
		})
	}
}

func TestTaskConfigAcceptsClusterSection(t *testing.T) {
	p := taskDir(t, validTask+"cluster: {temporal: 'h:7233'}\n")
	if _, err := Load(Options{File: p}); err != nil {
		t.Fatalf("a base configuration with a cluster section: %v", err)
	}
}
