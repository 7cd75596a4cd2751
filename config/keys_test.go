package config

import (
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// docs/config.md's key tables are made from Table: the file must be as
// go generate ./config writes it.
func TestConfigDocIsCurrent(t *testing.T) {
	const path = "../docs/config.md"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := RewriteDoc(string(doc))
	if err != nil {
		t.Fatal(err)
	}
	if want != string(doc) {
		t.Errorf("%s is stale (run go generate ./config):\n%s", path, cmp.Diff(string(doc), want))
	}
	for _, k := range Table {
		if !strings.Contains(string(doc), "| `"+k.Name+"` |") {
			t.Errorf("%s: no row for %s (is its section marked?)", path, k.Name)
		}
	}
}

// Table and the Config struct name the same keys: a field without a key
// could not be set from the environment or documented, a key without a
// field would be refused as unknown.
func TestTableMatchesConfig(t *testing.T) {
	var fields []string
	var walk func(tp reflect.Type, prefix string)
	walk = func(tp reflect.Type, prefix string) {
		for tp.Kind() == reflect.Pointer {
			tp = tp.Elem()
		}
		for i := 0; i < tp.NumField(); i++ {
			f := tp.Field(i)
			tag := f.Tag.Get("mapstructure")
			if tag == "" && f.IsExported() {
				tag = strings.ToLower(f.Name) // mapstructure's own rule
			}
			if tag == "" || tag == "-" {
				continue
			}
			name := prefix + tag
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct && ft.String() != "time.Duration" {
				walk(ft, name+".")
				continue
			}
			fields = append(fields, name)
		}
	}
	walk(reflect.TypeOf(Config{}), "")
	sort.Strings(fields)
	if diff := cmp.Diff(fields, Keys()); diff != "" {
		t.Errorf("Config's fields (-) and Table's keys (+) differ:\n%s", diff)
	}
	nested := map[string]any{}
	for k, v := range defaults() {
		m, parts := nested, strings.Split(k, ".")
		for _, p := range parts[:len(parts)-1] {
			if m[p] == nil {
				m[p] = map[string]any{}
			}
			m = m[p].(map[string]any)
		}
		m[parts[len(parts)-1]] = v
	}
	var c Config
	if err := decode(nested, &c, false); err != nil {
		t.Errorf("the defaults do not decode strictly: %v", err)
	}
}

func TestShownDefault(t *testing.T) {
	tests := []struct {
		key  string
		want string
	}{
		{"workflow.atol", "`1e-9`"},
		{"workflow.random_share", "`0.0`, or `0.5` for a task with a generator"},
		{"workflow.coverage_gate", "`false`, or `true` for a task with a generator"},
		{"agent.llm.request_timeout", "`2m`"},
		{"cluster.task_timeout", "`4h`"},
		{"cluster.drain_timeout", "`10m`"},
		{"agent.synth.propose_time_limit", "`400ms`"},
		{"sandbox.image", "`\"\"`"},
		{"task.name", "required"},
		{"workflow.early_stop", "`5`"},
	}
	for _, tt := range tests {
		k, ok := Lookup(tt.key)
		if !ok {
			t.Fatalf("no key %s", tt.key)
		}
		if got := k.ShownDefault(); got != tt.want {
			t.Errorf("%s: ShownDefault = %s, want %s", tt.key, got, tt.want)
		}
	}
}

func TestRewriteDocRefusesBadMarks(t *testing.T) {
	for _, doc := range []string{
		"<!-- keys: nope -->\n<!-- end of generated keys -->\n",
		"<!-- keys: task -->\nno end\n",
		"<!-- keys: task\n",
	} {
		if _, err := RewriteDoc(doc); err == nil {
			t.Errorf("RewriteDoc(%q) succeeded", doc)
		}
	}
}
