package config

import (
	"fmt"
	"os"
	"time"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/viper"
)

// Defaults of the cluster section.
const (
	DefaultNamespace        = "default"
	DefaultTaskQueue        = "reconstruct"
	DefaultMaxAttempts      = 3
	DefaultHeartbeatTimeout = 30 * time.Second
	DefaultTaskTimeout      = 4 * time.Hour
	DefaultDrainTimeout     = 10 * time.Minute
)

// Cluster is the cluster section: how `bench run --engine temporal` and
// `reconstruct worker` reach the Temporal server that hands a sweep's tasks
// to the workers, and how the tasks are retried. A run ignores it.
type Cluster struct {
	// Temporal is the server's HOST:PORT (the frontend's gRPC port).
	Temporal  string `mapstructure:"temporal" json:"temporal"`
	Namespace string `mapstructure:"namespace" json:"namespace"`
	TaskQueue string `mapstructure:"task_queue" json:"task_queue"`
	// Parallel is how many tasks one worker runs at once.
	Parallel int `mapstructure:"parallel" json:"parallel"`
	// MaxAttempts bounds the attempts of a task that fails for an
	// infrastructure reason (a lost worker counts as one).
	MaxAttempts int `mapstructure:"max_attempts" json:"max_attempts"`
	// HeartbeatTimeout is how long a task may go without a heartbeat before
	// its worker is taken for lost and the task is given to another.
	HeartbeatTimeout time.Duration `mapstructure:"heartbeat_timeout" json:"heartbeat_timeout"`
	// TaskTimeout bounds one attempt of one task.
	TaskTimeout time.Duration `mapstructure:"task_timeout" json:"task_timeout"`
	// DrainTimeout is how long a worker asked to stop lets its tasks finish
	// before it hands them back.
	DrainTimeout time.Duration `mapstructure:"drain_timeout" json:"drain_timeout"`
	// Workdir holds a worker's unpacked task directories and workspaces.
	Workdir string `mapstructure:"workdir" json:"workdir"`
}

// clusterDefaults are the keys of the cluster section (from Table) with
// their defaults.
func clusterDefaults() map[string]any {
	m := map[string]any{}
	for _, k := range Table {
		if k.Section() == "cluster" {
			m[k.Name] = k.Default
		}
	}
	return m
}

// LoadCluster reads the cluster section and bank.path, without requiring a
// task: from opts.File when given (any configuration file; a sweep's base
// configuration usually), then RECONSTRUCT_CLUSTER_* and
// RECONSTRUCT_BANK_PATH (when opts.Env), then opts.Flags. The returned bank
// location is empty when nothing set it.
func LoadCluster(opts Options) (Cluster, string, error) {
	v := viper.New()
	keys := clusterDefaults()
	keys["bank.path"] = ""
	for k, d := range keys {
		v.SetDefault(k, d)
	}
	file := ""
	p := &problems{file: opts.File}
	if opts.File != "" {
		m, err := readFile(opts.File, p)
		if err != nil {
			return Cluster{}, "", err
		}
		if err := p.err(); err != nil {
			return Cluster{}, "", err
		}
		if err := v.MergeConfigMap(m); err != nil {
			return Cluster{}, "", &Error{File: opts.File, Msg: err.Error()}
		}
		file = opts.File
	}
	if opts.Env {
		getenv := opts.Getenv
		if getenv == nil {
			getenv = os.Getenv
		}
		for k := range keys {
			if val := getenv(EnvName(k)); val != "" {
				v.Set(k, envValue(k, val))
			}
		}
		if val := getenv(EnvPrefix + "_BANK"); val != "" && getenv(EnvName("bank.path")) == "" {
			v.Set("bank.path", envValue("bank.path", val))
		}
	}
	setFlags(v, opts.Flags)
	var c struct {
		Cluster Cluster `mapstructure:"cluster"`
		Bank    struct {
			Path string `mapstructure:"path"`
		} `mapstructure:"bank"`
	}
	if err := v.Unmarshal(&c, decodeOptions(true), func(dc *mapstructure.DecoderConfig) { dc.ErrorUnused = false }); err != nil {
		decodeProblems(err, p, v.Get)
		return Cluster{}, "", p.err()
	}
	if err := c.Cluster.check(file); err != nil {
		return Cluster{}, "", err
	}
	return c.Cluster, c.Bank.Path, nil
}

// check validates the section; errors name the key.
func (c Cluster) check(file string) error {
	bad := func(key, format string, args ...any) error {
		return &Error{File: file, Key: key, Msg: fmt.Sprintf(format, args...)}
	}
	switch {
	case c.Namespace == "":
		return bad("cluster.namespace", "must not be empty")
	case c.TaskQueue == "":
		return bad("cluster.task_queue", "must not be empty")
	case c.Parallel < 1:
		return bad("cluster.parallel", "must be at least 1, got %d", c.Parallel)
	case c.MaxAttempts < 1:
		return bad("cluster.max_attempts", "must be at least 1, got %d", c.MaxAttempts)
	case c.HeartbeatTimeout < time.Second:
		return bad("cluster.heartbeat_timeout", "must be at least 1s, got %s", c.HeartbeatTimeout)
	case c.TaskTimeout <= c.HeartbeatTimeout:
		return bad("cluster.task_timeout", "must be longer than cluster.heartbeat_timeout (%s), got %s", c.HeartbeatTimeout, c.TaskTimeout)
	case c.DrainTimeout < 0:
		return bad("cluster.drain_timeout", "must not be negative")
	}
	return nil
}
