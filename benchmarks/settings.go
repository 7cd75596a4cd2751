package benchmarks

import (
	"encoding/json"
	"sort"
	"time"

	"github.com/reconstruct/reconstruct/config"
)

// EffectiveSettings are the settings a run of c goes by, flattened to
// their keys (workflow.early_stop, agent.synth.time_limit, …): every key of
// the workflow, agent and sandbox sections and the hidden program's time
// limit. A time-bounded result depends on them as much as on the task, so a
// sweep's records keep them beside its figures.
func EffectiveSettings(c *config.Config) map[string]any {
	sections := map[string]any{"workflow": c.Workflow, "agent": c.Agent, "sandbox": c.Sandbox}
	out := map[string]any{}
	for name, v := range sections {
		data, err := json.Marshal(v)
		if err != nil {
			continue
		}
		var m map[string]any
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		flatten(out, name, m)
	}
	// Durations are written as a person does (20s), not in nanoseconds.
	for k, v := range out {
		if key, ok := config.Lookup(k); ok {
			if _, isDur := key.Default.(time.Duration); isDur {
				if f, ok := v.(float64); ok {
					out[k] = time.Duration(f).String()
				}
			}
		}
	}
	out["task.oracle.timeout"] = c.Task.Oracle.Timeout.String()
	// The settings an agent kind does not use would only make sweeps of
	// different agents look different where they are not.
	for k := range out {
		for _, kind := range []string{"synth", "llm", "replay"} {
			if kind != c.Agent.Kind && len(k) > len("agent."+kind) && k[:len("agent."+kind)+1] == "agent."+kind+"." {
				delete(out, k)
			}
		}
	}
	return out
}

func flatten(out map[string]any, prefix string, m map[string]any) {
	for k, v := range m {
		key := prefix + "." + k
		if sub, ok := v.(map[string]any); ok {
			flatten(out, key, sub)
			continue
		}
		out[key] = v
	}
}

// settingKeys are the keys of a settings map, sorted.
func settingKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
