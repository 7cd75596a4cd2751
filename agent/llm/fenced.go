package llm

import (
	"regexp"
	"strings"
)

var (
	fence = regexp.MustCompile("(?s)```[ \\t]*([A-Za-z0-9_+.-]*)[^\\n]*\\n(.*?)```")
	think = regexp.MustCompile("(?s)<think>.*?</think>")
)

// lastFencedBlock returns the body of the last fenced code block tagged
// with lang (python also accepts py and python3), or failing that the last
// untagged block; "" when there is none. Reasoning in <think> tags is
// ignored.
func lastFencedBlock(content, lang string) string {
	content = think.ReplaceAllString(content, "")
	tagged, untagged := "", ""
	for _, m := range fence.FindAllStringSubmatch(content, -1) {
		tag := strings.ToLower(m[1])
		body := m[2]
		switch {
		case tag == "":
			untagged = body
		case tag == lang, lang == "python" && (tag == "py" || tag == "python3"):
			tagged = body
		}
	}
	if tagged != "" {
		return tagged
	}
	return untagged
}
