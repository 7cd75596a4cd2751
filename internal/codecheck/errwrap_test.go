package codecheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// errName matches the names the code gives errors (err, werr, closeErr).
var errName = regexp.MustCompile(`^(err|\w*Err|\w*err)$`)

// verbs lists the verbs of a format string in order ("%w: %s" → w, s).
func verbs(format string) []byte {
	var out []byte
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && strings.IndexByte("+-# 0123456789.[]*", format[i]) >= 0 {
			i++
		}
		if i < len(format) && format[i] != '%' {
			out = append(out, format[i])
		}
	}
	return out
}

// errorsFlattened lists the fmt.Errorf calls of a file that format an
// error with %v or %s: the cause is lost to errors.Is and errors.As.
func errorsFlattened(fset *token.FileSet, f *ast.File) []string {
	var bad []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) < 2 {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Errorf" {
			return true
		}
		if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "fmt" {
			return true
		}
		lit, ok := call.Args[0].(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		format, err := strconv.Unquote(lit.Value)
		if err != nil {
			return true
		}
		for i, v := range verbs(format) {
			if 1+i >= len(call.Args) || (v != 'v' && v != 's') {
				continue
			}
			if id, ok := call.Args[1+i].(*ast.Ident); ok && errName.MatchString(id.Name) {
				bad = append(bad, fset.Position(call.Pos()).String()+": fmt.Errorf formats "+id.Name+" with %"+string(v)+"; wrap it with %w")
			}
		}
		return true
	})
	return bad
}

// Every error is wrapped with %w, so that errors.Is(err, context.Canceled)
// and the packages' sentinel errors reach the caller. It reads the module's
// Go files but tests' own (_test.go), and knows an error by its name (err,
// perr, closeErr, …).
func TestErrorsAreWrapped(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	var bad []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "testdata", "vendor", ".git", "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		bad = append(bad, errorsFlattened(fset, f)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		t.Error(b)
	}
}

// The check finds what it must and nothing else.
func TestErrorsFlattened(t *testing.T) {
	src := `package p
import "fmt"
func f(err, cerr error, n int) {
	_ = fmt.Errorf("a: %v", err)
	_ = fmt.Errorf("%w: %s", cerr, err)
	_ = fmt.Errorf("b: %w", err)
	_ = fmt.Errorf("%d%%: %v", n, n)
	_ = fmt.Errorf("%q %+v", "x", cerr)
}`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := errorsFlattened(fset, f)
	want := []string{"p.go:4:6", "p.go:5:6", "p.go:8:6"}
	if len(got) != len(want) {
		t.Fatalf("found %q, want %d", got, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w+":") {
			t.Errorf("finding %d = %s, want at %s", i, got[i], w)
		}
	}
}
