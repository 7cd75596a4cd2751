package llm

import (
	"fmt"
	"strings"
)

const fileWriteToolName = "file_write"

const fileWriteDescription = `Write a file in the workspace, replacing it if it exists (path relative to the workspace). ` +
	`Write the whole program to candidate.py with this tool.`

// MaxWriteBytes caps what file_write accepts.
const MaxWriteBytes = 1 << 20

type fileWriteParams struct {
	Path    string `json:"path" description:"file path relative to the workspace, e.g. candidate.py"`
	Content string `json:"content" description:"the complete new content of the file"`
}

func newFileWriteTool(ws *workspace) *workspaceTool[fileWriteParams] {
	return &workspaceTool[fileWriteParams]{toolSpec[fileWriteParams]{fileWriteToolName, fileWriteDescription}, ws, writeFile}
}

// writeFile writes a whole file of the workspace.
func writeFile(ws *workspace, p fileWriteParams) (string, error) {
	if len(p.Content) > MaxWriteBytes {
		return "", fmt.Errorf("content is %d bytes; at most %d are accepted", len(p.Content), MaxWriteBytes)
	}
	if err := ws.WriteFile(p.Path, []byte(p.Content)); err != nil {
		return "", err
	}
	return fmt.Sprintf("wrote %s (%d lines, %d bytes)", p.Path, strings.Count(p.Content, "\n")+boolInt(p.Content != "" && !strings.HasSuffix(p.Content, "\n")), len(p.Content)), nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
