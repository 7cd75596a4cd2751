package config

import (
	"fmt"
	"sort"
	"strings"
)

// OtherEnv are the RECONSTRUCT_* environment variables that set no key of
// Table but are read all the same (logging, the bank's secrets and retries,
// the image builder's mirror, the test suite).
var OtherEnv = []string{
	EnvPrefix + "_LOG_LEVEL", EnvPrefix + "_LOG_FORMAT", LegacyBankEnv,
	EnvPrefix + "_BANK_KEY", EnvPrefix + "_BANK_RETRY", EnvPrefix + "_SANDBOX_MIRROR",
	EnvPrefix + "_REQUIRE_ALL", EnvPrefix + "_BIN",
}

// testEnvPrefix prefixes the variables of the project's own tests.
const testEnvPrefix = EnvPrefix + "_TEST_"

// UnknownEnv returns a warning for every RECONSTRUCT_* variable of environ
// ("NAME=value" entries) that reconstruct does not read, a typo most
// likely, with the nearest variable it does read: a typo in a file's key is
// an error, and one in a variable must not pass in silence either.
func UnknownEnv(environ []string) []string {
	known := map[string]bool{}
	for _, k := range Table {
		known[k.Env()] = true
	}
	for _, n := range OtherEnv {
		known[n] = true
	}
	var out []string
	seen := map[string]bool{}
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, EnvPrefix+"_") || known[name] || seen[name] || strings.HasPrefix(name, testEnvPrefix) {
			continue
		}
		seen[name] = true
		msg := fmt.Sprintf("%s is not a variable reconstruct reads, and is ignored", name)
		if s := suggestEnv(name, known); s != "" {
			msg += fmt.Sprintf("; did you mean %s?", s)
		} else {
			msg += " (docs/config.md lists every variable)"
		}
		out = append(out, msg)
	}
	sort.Strings(out)
	return out
}

// suggestEnv is the known variable nearest in spelling to name, when near
// enough; a key's variable named by its last part (RECONSTRUCT_EARLY_STOP)
// is found too.
func suggestEnv(name string, known map[string]bool) string {
	if s := suggest(strings.ToLower(strings.TrimPrefix(name, EnvPrefix+"_"))); s != "" {
		if _, ok := lookup[s]; ok {
			return EnvName(s)
		}
	}
	names := make([]string, 0, len(known))
	for n := range known {
		names = append(names, n)
	}
	sort.Strings(names)
	best, bestD := "", len(name)/4+2
	for _, n := range names {
		if d := distance(name, n); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}
