package llm

import "testing"

func TestLastFencedBlock(t *testing.T) {
	tests := []struct {
		name, content, lang, want string
	}{
		{"none", "no code here", "python", ""},
		{"python", "x\n```python\na = 1\n```\n", "python", "a = 1\n"},
		{"last python wins", "```python\na = 1\n```\n```python\nb = 2\n```", "python", "b = 2\n"},
		{"tagged beats later untagged", "```py\na = 1\n```\n```\nrun it\n```", "python", "a = 1\n"},
		{"untagged fallback", "```\na = 1\n```", "python", "a = 1\n"},
		{"other language ignored", "```bash\nls\n```", "python", ""},
		{"think ignored", "<think>```python\nbad\n```</think>```python3\ngood\n```", "python", "good\n"},
		{"json", "```json\n[1]\n```\n```python\nx\n```", "json", "[1]\n"},
		{"unclosed", "```python\na = 1\n", "python", ""},
	}
	for _, tt := range tests {
		if got := lastFencedBlock(tt.content, tt.lang); got != tt.want {
			t.Errorf("%s: lastFencedBlock = %q, want %q", tt.name, got, tt.want)
		}
	}
}
