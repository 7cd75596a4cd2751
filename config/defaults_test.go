package config

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// A default lives in one place: a key of Table whose default is written
// as a literal must not have the value of an exported Default… constant of
// a package of the module — the table then names that constant instead
// (agent.llm.max_turns is llm.DefaultMaxTurns, not 12), so that a change
// of the package's default reaches the configuration, its flags and its
// documentation.
func TestNoDefaultWrittenTwice(t *testing.T) {
	consts := defaultConstants(t, "..")
	// The scan must see the constants the table names, or it proves nothing.
	for _, want := range []string{"agent/llm.DefaultMaxTurns", "sandbox.DefaultCallTimeout", "workflow.DefaultEarlyStop"} {
		if !hasConstant(consts, want) {
			t.Fatalf("the scan of the module found no %s among %d Default constants", want, len(consts))
		}
	}
	for _, name := range literalDefaults(t, "keys.go") {
		k, _ := Lookup(name)
		v, duration, ok := constantOf(k.Default)
		if !ok {
			continue
		}
		for _, c := range consts {
			if c.duration != duration || kindOf(c.value) != kindOf(v) {
				continue
			}
			for _, scaled := range scales(name, v) {
				if constant.Compare(scaled, token.EQL, c.value) && !coincidences[name+" "+c.name] {
					t.Errorf("Table writes %s's default %v as a literal; it is %s: name the constant", name, k.Default, c.name)
				}
			}
		}
	}
}

// kindOf tells numbers, strings and the rest apart: only values of one
// kind are compared.
func kindOf(v constant.Value) string {
	switch v.Kind() {
	case constant.Int, constant.Float:
		return "number"
	case constant.String:
		return "string"
	}
	return "other"
}

// coincidences are a key's literal default and a constant of the same
// value that are not the same fact.
var coincidences = map[string]bool{
	// An HTTP oracle's retries; no package has a default of its own.
	"task.oracle.retries config.DefaultMaxAttempts":       true,
	"task.oracle.retries workflow.DefaultProposeAttempts": true,
}

// namedConst is an exported Default… constant of a package of the module.
type namedConst struct {
	name     string // package path relative to the module, and name
	value    constant.Value
	duration bool // of type time.Duration
}

func hasConstant(consts []namedConst, name string) bool {
	for _, c := range consts {
		if c.name == name {
			return true
		}
	}
	return false
}

// scales is the literal default v of a key, and in bytes for a key counted
// in KiB or MiB (sandbox.memory_mb is 512 where the package says 512 << 20).
func scales(name string, v constant.Value) []constant.Value {
	switch {
	case strings.HasSuffix(name, "_mb"):
		return []constant.Value{v, constant.Shift(v, token.SHL, 20)}
	case strings.HasSuffix(name, "_kb"):
		return []constant.Value{v, constant.Shift(v, token.SHL, 10)}
	}
	return []constant.Value{v}
}

// constantOf is a default as a constant; false for a value too common to
// tell a copy from a coincidence (0, 1, "", a boolean) and for lists.
func constantOf(d any) (constant.Value, bool, bool) {
	var v constant.Value
	duration := false
	switch d := d.(type) {
	case int:
		v = constant.MakeInt64(int64(d))
	case time.Duration:
		v, duration = constant.MakeInt64(int64(d)), true
	case float64:
		v = constant.MakeFloat64(d)
	case string:
		if d == "" {
			return nil, false, false
		}
		return constant.MakeString(d), false, true
	default:
		return nil, false, false
	}
	for _, trivial := range []int64{0, 1} {
		if constant.Compare(v, token.EQL, constant.MakeInt64(trivial)) {
			return nil, false, false
		}
	}
	return v, duration, true
}

// literalDefaults lists the keys of Table, in file, whose Default is
// written as a literal (12, 2 * time.Second, "tools") rather than named.
func literalDefaults(t *testing.T, file string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var table *ast.CompositeLit
	ast.Inspect(f, func(n ast.Node) bool {
		if vs, ok := n.(*ast.ValueSpec); ok && len(vs.Names) == 1 && vs.Names[0].Name == "Table" {
			table, _ = vs.Values[0].(*ast.CompositeLit)
		}
		return table == nil
	})
	if table == nil {
		t.Fatalf("%s: no Table", file)
	}
	var names []string
	for _, e := range table.Elts {
		var name string
		var def ast.Expr
		for _, field := range e.(*ast.CompositeLit).Elts {
			kv := field.(*ast.KeyValueExpr)
			switch kv.Key.(*ast.Ident).Name {
			case "Name":
				name = strings.Trim(kv.Value.(*ast.BasicLit).Value, `"`)
			case "Default":
				def = kv.Value
			}
		}
		if def != nil && isLiteral(def) {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		t.Fatalf("%s: no key of Table has a literal default (agent.llm.temperature has)", file)
	}
	return names
}

// isLiteral reports an expression made of literals and time's units only.
func isLiteral(e ast.Expr) bool {
	literal, named := false, false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			literal = true
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); !ok || x.Name != "time" {
				named = true
			}
			return false
		case *ast.Ident:
			named = true
		}
		return true
	})
	return literal && !named
}

// defaultConstants type-checks every package of the module under root
// (each on its own: an import other than time is left unresolved, which
// only loses constants that name another package's) and lists its
// exported Default… constants.
func defaultConstants(t *testing.T, root string) []namedConst {
	t.Helper()
	dirs := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			dirs[filepath.Dir(path)] = append(dirs[filepath.Dir(path)], path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []namedConst
	for dir, files := range dirs {
		fset := token.NewFileSet()
		byPkg := map[string][]*ast.File{}
		for _, path := range files {
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			byPkg[f.Name.Name] = append(byPkg[f.Name.Name], f)
		}
		rel, _ := filepath.Rel(root, dir)
		for _, fs := range byPkg {
			conf := types.Config{Importer: timeOnly{}, Error: func(error) {}}
			pkg, _ := conf.Check(rel, fset, fs, nil)
			for _, name := range pkg.Scope().Names() {
				c, ok := pkg.Scope().Lookup(name).(*types.Const)
				if !ok || !c.Exported() || !strings.HasPrefix(name, "Default") || c.Val().Kind() == constant.Unknown {
					continue
				}
				named, _ := c.Type().(*types.Named)
				out = append(out, namedConst{name: filepath.ToSlash(rel) + "." + name, value: c.Val(),
					duration: named != nil && named.Obj().Name() == "Duration"})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// timeOnly imports time with its Duration and units, and every other
// package empty.
type timeOnly struct{}

func (timeOnly) Import(path string) (*types.Package, error) {
	pkg := types.NewPackage(path, filepath.Base(path))
	if path == "time" {
		dur := types.NewNamed(types.NewTypeName(token.NoPos, pkg, "Duration", nil), types.Typ[types.Int64], nil)
		pkg.Scope().Insert(dur.Obj())
		for name, ns := range map[string]time.Duration{"Nanosecond": time.Nanosecond, "Microsecond": time.Microsecond,
			"Millisecond": time.Millisecond, "Second": time.Second, "Minute": time.Minute, "Hour": time.Hour} {
			pkg.Scope().Insert(types.NewConst(token.NoPos, pkg, name, dur, constant.MakeInt64(int64(ns))))
		}
	}
	pkg.MarkComplete()
	return pkg, nil
}
