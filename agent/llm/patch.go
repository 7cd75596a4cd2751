package llm

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// filePatch is the part of a unified diff about one file.
type filePatch struct {
	// oldPath and newPath are "" for /dev/null (creation, deletion).
	oldPath, newPath string
	hunks            []hunk
}

type hunk struct {
	header string
	// oldStart is the 1-based line the hunk claims to start at in the old
	// file, 0 when the header gives none. It is a hint: the hunk applies
	// where its old lines are found, nearest to the hint.
	oldStart int
	lines    []hunkLine
	// noEOL: the new file ends without a newline.
	noEOL bool
}

type hunkLine struct {
	op   byte // ' ', '-' or '+'
	text string
}

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// parsePatch reads a unified diff (git or plain diff -u). Hunk bodies run
// until the next hunk or file header, so wrong line counts in a header do
// not matter; blank lines inside a hunk count as empty context lines.
func parsePatch(text string) ([]filePatch, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var files []filePatch
	isFileHeader := func(i int) bool {
		return strings.HasPrefix(lines[i], "--- ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "+++ ")
	}
	for i := 0; i < len(lines); {
		if !isFileHeader(i) {
			if strings.HasPrefix(lines[i], "@@") && len(files) == 0 {
				return nil, errors.New("the patch has a hunk before any file header; start each file with --- a/PATH and +++ b/PATH lines")
			}
			i++
			continue
		}
		fp := filePatch{oldPath: patchPath(lines[i][4:]), newPath: patchPath(lines[i+1][4:])}
		i += 2
		for i < len(lines) && !isFileHeader(i) && !strings.HasPrefix(lines[i], "diff ") {
			if !strings.HasPrefix(lines[i], "@@") {
				i++
				continue
			}
			h := hunk{header: lines[i]}
			if m := hunkHeader.FindStringSubmatch(lines[i]); m != nil {
				h.oldStart, _ = strconv.Atoi(m[1])
			}
			i++
			for i < len(lines) && !strings.HasPrefix(lines[i], "@@") && !isFileHeader(i) && !strings.HasPrefix(lines[i], "diff ") {
				l := lines[i]
				switch {
				case l == "":
					h.lines = append(h.lines, hunkLine{op: ' '})
				case l[0] == ' ' || l[0] == '-' || l[0] == '+':
					h.lines = append(h.lines, hunkLine{op: l[0], text: l[1:]})
				case l[0] == '\\':
					// "\ No newline at end of file" after a new-side line.
					if n := len(h.lines); n > 0 && h.lines[n-1].op != '-' {
						h.noEOL = true
					}
				default:
					return nil, fmt.Errorf("hunk %q: line %q does not start with ' ', '-' or '+'", h.header, l)
				}
				i++
			}
			// Blank lines after the last hunk are the patch text's own
			// trailing newlines, not context.
			for n := len(h.lines); n > 0 && h.lines[n-1] == (hunkLine{op: ' '}); n-- {
				h.lines = h.lines[:n-1]
			}
			if len(h.lines) == 0 {
				return nil, fmt.Errorf("hunk %q is empty", h.header)
			}
			fp.hunks = append(fp.hunks, h)
		}
		if fp.oldPath == "" && fp.newPath == "" {
			return nil, errors.New("a file header names /dev/null on both sides")
		}
		if len(fp.hunks) == 0 {
			return nil, fmt.Errorf("the patch for %s has no hunks", fp.target())
		}
		files = append(files, fp)
	}
	if len(files) == 0 {
		return nil, errors.New("no file header found; a unified diff starts with --- a/PATH and +++ b/PATH lines followed by @@ hunks")
	}
	return files, nil
}

// patchPath strips the a/ b/ prefixes and any timestamp; /dev/null is "".
func patchPath(s string) string {
	s, _, _ = strings.Cut(s, "\t")
	s = strings.TrimSpace(s)
	if s == "/dev/null" {
		return ""
	}
	if strings.HasPrefix(s, "a/") || strings.HasPrefix(s, "b/") {
		return s[2:]
	}
	return s
}

// target is the path the patch changes.
func (fp filePatch) target() string {
	if fp.newPath != "" {
		return fp.newPath
	}
	return fp.oldPath
}

// apply applies the patch to a file's content (exists false: no file) and
// returns the new content, or deleted when the patch removes the file.
func (fp filePatch) apply(content string, exists bool) (out string, deleted bool, err error) {
	switch {
	case fp.oldPath == "" && exists && content != "":
		return "", false, fmt.Errorf("the patch creates %s, which already exists; patch it with --- a/%s instead, or use file_write", fp.newPath, fp.newPath)
	case fp.oldPath != "" && !exists:
		return "", false, fmt.Errorf("%s does not exist", fp.oldPath)
	}
	lines, eol := splitLines(content)
	if !exists {
		eol = true
	}
	from := 0  // hunks apply in order, each after the previous
	shift := 0 // how far earlier hunks moved the line numbers
	for n, h := range fp.hunks {
		var old, repl []string
		for _, l := range h.lines {
			if l.op != '+' {
				old = append(old, l.text)
			}
			if l.op != '-' {
				repl = append(repl, l.text)
			}
		}
		hint := from
		if h.oldStart > 0 {
			hint = max(from, h.oldStart-1+shift)
			if len(old) == 0 {
				hint = max(from, h.oldStart+shift) // pure insertion goes after line oldStart
			}
		}
		pos := locate(lines, old, from, hint)
		if pos < 0 {
			return "", false, fmt.Errorf("hunk %d (%s) does not apply to %s: its context and removed lines were not found in order; read the file again and send a patch against its current content", n+1, h.header, fp.target())
		}
		// Context lines keep the file's own text (they may differ in
		// trailing whitespace).
		repl = repl[:0]
		oi := pos
		for _, l := range h.lines {
			switch l.op {
			case ' ':
				repl = append(repl, lines[oi])
				oi++
			case '-':
				oi++
			case '+':
				repl = append(repl, l.text)
			}
		}
		lines = append(lines[:pos], append(repl, lines[pos+len(old):]...)...)
		from = pos + len(repl)
		shift += len(repl) - len(old)
		if n == len(fp.hunks)-1 && h.noEOL {
			eol = false
		}
	}
	if fp.newPath == "" {
		if len(lines) > 0 {
			return "", false, fmt.Errorf("the patch deletes %s but leaves %d lines in it", fp.oldPath, len(lines))
		}
		return "", true, nil
	}
	out = strings.Join(lines, "\n")
	if eol && len(lines) > 0 {
		out += "\n"
	}
	return out, false, nil
}

// locate finds old in lines at or after from, nearest to hint; exact
// matches win over matches that ignore trailing whitespace. -1: none.
func locate(lines, old []string, from, hint int) int {
	if len(old) == 0 {
		return min(max(hint, from), len(lines))
	}
	for _, eq := range []func(a, b string) bool{
		func(a, b string) bool { return a == b },
		func(a, b string) bool { return strings.TrimRight(a, " \t") == strings.TrimRight(b, " \t") },
	} {
		best := -1
		for p := from; p+len(old) <= len(lines); p++ {
			if matchAt(lines, old, p, eq) && (best < 0 || absInt(p-hint) < absInt(best-hint)) {
				best = p
			}
		}
		if best >= 0 {
			return best
		}
	}
	return -1
}

func matchAt(lines, old []string, p int, eq func(a, b string) bool) bool {
	for i, o := range old {
		if !eq(lines[p+i], o) {
			return false
		}
	}
	return true
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// splitLines splits content into lines without their newlines and says
// whether the last line ended with one.
func splitLines(content string) ([]string, bool) {
	if content == "" {
		return nil, true
	}
	content = strings.ReplaceAll(content, "\r\n", "\n")
	eol := strings.HasSuffix(content, "\n")
	return strings.Split(strings.TrimSuffix(content, "\n"), "\n"), eol
}
