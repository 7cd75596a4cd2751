// Command gendoc writes the key tables of docs/config.md from the
// configuration's key table (config.Table): go generate ./config.
package main

import (
	"fmt"
	"os"

	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/internal/atomicfile"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gendoc docs/config.md")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "gendoc:", err)
		os.Exit(1)
	}
}

func run(path string) error {
	doc, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := config.RewriteDoc(string(doc))
	if err != nil {
		return err
	}
	return atomicfile.Write(path, []byte(out), 0o644)
}
