package llm

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

const applyPatchToolName = "apply_patch"

const applyPatchDescription = `Apply a unified diff to files in the workspace. Each file starts with "--- a/PATH" and "+++ b/PATH" lines ` +
	`(--- /dev/null creates a file, +++ /dev/null deletes one), followed by "@@ -l,n +l,n @@" hunks whose lines start with ' ' (context), '-' (removed) or '+' (added). ` +
	`Hunks are placed where their context and removed lines match, nearest to the stated line. If any hunk does not apply, nothing changes.`

type applyPatchParams struct {
	Patch string `json:"patch" description:"the unified diff"`
}

func newApplyPatchTool(ws *workspace) *workspaceTool[applyPatchParams] {
	return &workspaceTool[applyPatchParams]{toolSpec[applyPatchParams]{applyPatchToolName, applyPatchDescription}, ws, applyPatch}
}

// applyPatch applies a unified diff to the workspace, all of it or nothing.
func applyPatch(ws *workspace, p applyPatchParams) (string, error) {
	files, err := parsePatch(p.Patch)
	if err != nil {
		return "", fmt.Errorf("cannot parse the patch: %w", err)
	}
	type change struct {
		path    string
		content string
		deleted bool
	}
	var changes []change
	seen := map[string]bool{}
	for _, fp := range files {
		for _, path := range []string{fp.oldPath, fp.newPath} {
			if path == "" {
				continue
			}
			if _, err := ws.clean(path); err != nil {
				return "", err
			}
		}
		target := fp.target()
		if seen[target] {
			return "", fmt.Errorf("the patch changes %s twice; put all its hunks under one header", target)
		}
		seen[target] = true
		src := fp.oldPath
		if src == "" {
			src = fp.newPath
		}
		data, err := ws.ReadFile(src)
		exists := err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		out, deleted, err := fp.apply(string(data), exists)
		if err != nil {
			return "", err
		}
		changes = append(changes, change{path: target, content: out, deleted: deleted})
		if fp.oldPath != "" && fp.newPath != "" && fp.oldPath != fp.newPath {
			changes = append(changes, change{path: fp.oldPath, deleted: true})
		}
	}
	var done []string
	for _, c := range changes {
		if c.deleted {
			if err := ws.Remove(c.path); err != nil {
				return "", err
			}
			done = append(done, "deleted "+c.path)
			continue
		}
		if err := ws.WriteFile(c.path, []byte(c.content)); err != nil {
			return "", err
		}
		done = append(done, "patched "+c.path)
	}
	return strings.Join(done, "\n"), nil
}
