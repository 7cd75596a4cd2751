package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/reconstruct/reconstruct/config"
)

// statedDefault finds a default a help line states: "default 3)",
// "temporal engine; default 30s)", "else auto)".
var statedDefault = regexp.MustCompile(`\b(?:default|else) ([^\s;)]+)[;)]`)

// A help line states a configuration key's default only as config.Table
// has it: a flag bound to a key that names a default names the key's, and
// each flag of worker and bench run's temporal engine whose key has a
// default states it.
func TestHelpStatesTheTablesDefaults(t *testing.T) {
	// A flag is bound to a key by its name for the run commands' flags
	// (config.Table), by its help line for the others (bench run's
	// --parallel is not worker's).
	keyOf := map[string]string{}
	byUsage := map[string]string{}
	for _, f := range append(append(append([]configFlag{bankFlag}, clusterFlags...), workerFlags...), sweepRunFlags...) {
		byUsage[f.usage] = f.key
	}
	for _, k := range config.Table {
		if k.Flag != "" {
			keyOf[k.Flag] = k.Name
		}
	}
	checked := 0
	var walk func(cmd *cobra.Command)
	walk = func(cmd *cobra.Command) {
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			key, stated := byUsage[f.Usage]
			if !stated {
				if key = keyOf[f.Name]; key == "" {
					return
				}
			}
			k, _ := config.Lookup(key)
			want := k.DefaultText()
			for _, m := range statedDefault.FindAllStringSubmatch(f.Usage, -1) {
				checked++
				if m[1] != want {
					t.Errorf("%s --%s says %q, but %s's default is %q", cmd.CommandPath(), f.Name, m[0], key, want)
				}
			}
			if stated && want != "" && !strings.Contains(f.Usage, "default "+want) {
				t.Errorf("%s --%s: %q does not state %s's default %s", cmd.CommandPath(), f.Name, f.Usage, key, want)
			}
		})
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(&app{stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}))
	if checked < len(sweepRunFlags) {
		t.Fatalf("only %d stated defaults found in the help texts: the walk missed the flags", checked)
	}
}

// No string of the commands' source writes a default value by hand
// ("(default 3)", "default 30s", "else 1)"): keyFlag and defaultOf write
// them from config.Table.
func TestNoDefaultWrittenByHand(t *testing.T) {
	byHand := regexp.MustCompile(`\b(?:default|else) \d`)
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if s, err := strconv.Unquote(lit.Value); err == nil && byHand.MatchString(s) {
				t.Errorf("%s: %q states a default by hand; give the flag with keyFlag (or the text with defaultOf)", fset.Position(lit.Pos()), s)
			}
			return true
		})
	}
}

// docs/cluster.md's table of the cluster settings states each default as
// config.Table has it.
func TestClusterDocStatesTheTablesDefaults(t *testing.T) {
	doc := mustRead(t, repoPath(t, "docs", "cluster.md"))
	row := regexp.MustCompile("(?m)^\\| `([a-z_.]+)` \\| [^|]+ \\| ([^|]+) \\|")
	rows := 0
	for _, m := range row.FindAllStringSubmatch(doc, -1) {
		k, ok := config.Lookup(m[1])
		if !ok || k.DefaultText() == "" {
			continue
		}
		rows++
		if got, want := strings.TrimSpace(m[2]), k.ShownDefault(); got != want {
			t.Errorf("docs/cluster.md: %s's default is %s, config.Table's %s", m[1], got, want)
		}
	}
	if rows < 6 {
		t.Errorf("docs/cluster.md: %d rows with a default found, want the cluster table's", rows)
	}
}
