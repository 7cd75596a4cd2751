package llm

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

const fileReadToolName = "file_read"

const fileReadDescription = `Read a text file in the workspace (path relative to the workspace, e.g. candidate.py). ` +
	`Optional start_line and end_line (1-based, inclusive) select a range. Lines are shown with their numbers.`

// MaxReadBytes caps what file_read returns.
const MaxReadBytes = 64 << 10

type fileReadParams struct {
	Path      string `json:"path" description:"file path relative to the workspace"`
	StartLine int    `json:"start_line,omitempty" description:"first line to show (1-based)"`
	EndLine   int    `json:"end_line,omitempty" description:"last line to show (inclusive)"`
}

func newFileReadTool(ws *workspace) *workspaceTool[fileReadParams] {
	return &workspaceTool[fileReadParams]{toolSpec[fileReadParams]{fileReadToolName, fileReadDescription}, ws, readFile}
}

// readFile shows the lines of a text file of the workspace, numbered.
func readFile(ws *workspace, p fileReadParams) (string, error) {
	data, err := ws.ReadFile(p.Path)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(data) {
		return "", fmt.Errorf("%s is not a UTF-8 text file", p.Path)
	}
	if len(data) == 0 {
		return fmt.Sprintf("%s is empty", p.Path), nil
	}
	lines := strings.SplitAfter(string(data), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	start, end := 1, len(lines)
	if p.StartLine > 0 {
		start = p.StartLine
	}
	if p.EndLine > 0 && p.EndLine < end {
		end = p.EndLine
	}
	if start > len(lines) {
		return "", fmt.Errorf("%s has %d lines; start_line %d is past the end", p.Path, len(lines), start)
	}
	if start > end {
		return "", fmt.Errorf("start_line %d is after end_line %d", start, end)
	}
	var b strings.Builder
	for i := start; i <= end; i++ {
		fmt.Fprintf(&b, "%5d\t%s", i, strings.TrimSuffix(lines[i-1], "\n"))
		b.WriteByte('\n')
	}
	return capText(b.String(), MaxReadBytes), nil
}
