package docker

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadAptSources(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []aptSource
		pick  aptSource
		found bool
	}{
		{
			name: "deb822 with security and updates",
			files: map[string]string{
				"etc/apt/sources.list.d/debian.sources": `Types: deb
# a comment
URIs: http://mirror.example/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://mirror.example/debian-security
Suites: bookworm-security
Components: main
`,
			},
			want: []aptSource{
				{URI: "http://mirror.example/debian", Suite: "bookworm", Keyring: "/usr/share/keyrings/debian-archive-keyring.gpg"},
				{URI: "http://mirror.example/debian", Suite: "bookworm-updates", Keyring: "/usr/share/keyrings/debian-archive-keyring.gpg"},
				{URI: "http://mirror.example/debian-security", Suite: "bookworm-security"},
			},
			pick:  aptSource{URI: "http://mirror.example/debian", Suite: "bookworm", Keyring: "/usr/share/keyrings/debian-archive-keyring.gpg"},
			found: true,
		},
		{
			name: "one-line format with options, deb-src and disabled files",
			files: map[string]string{
				"etc/apt/sources.list": `# deb http://old.example/debian buster main
deb-src http://src.example/debian bookworm main
deb [arch=amd64 signed-by=/k.gpg] http://mirror.example/debian trixie main contrib
deb http://mirror.example/debian-security trixie-security main
`,
				"etc/apt/sources.list.d/other.list.disabled": "deb http://other.example/x stable main\n",
			},
			want: []aptSource{
				{URI: "http://mirror.example/debian", Suite: "trixie", Keyring: "/k.gpg"},
				{URI: "http://mirror.example/debian-security", Suite: "trixie-security"},
			},
			pick:  aptSource{URI: "http://mirror.example/debian", Suite: "trixie", Keyring: "/k.gpg"},
			found: true,
		},
		{
			name: "disabled stanza and only security",
			files: map[string]string{
				"etc/apt/sources.list.d/a.sources": `Types: deb
URIs: http://mirror.example/debian
Suites: bookworm
Enabled: no

Types: deb deb-src
URIs: http://mirror.example/debian-security
Suites: bookworm-security
`,
			},
			want:  []aptSource{{URI: "http://mirror.example/debian-security", Suite: "bookworm-security"}},
			found: false,
		},
		{name: "nothing configured", files: map[string]string{}, found: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for name, text := range tt.files {
				p := filepath.Join(root, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := readAptSources(root)
			if err != nil {
				t.Fatalf("readAptSources: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("sources (-want +got):\n%s", diff)
			}
			pick, found := debianSource(got)
			if found != tt.found || pick != tt.pick {
				t.Errorf("debianSource = %+v, %v; want %+v, %v", pick, found, tt.pick, tt.found)
			}
		})
	}
}

func TestUnescapeMountinfo(t *testing.T) {
	tests := []struct{ in, want string }{
		{`/plain/path`, "/plain/path"},
		{`/with\040space`, "/with space"},
		{`/tab\011and\134backslash`, "/tab\tand\\backslash"},
	}
	for _, tt := range tests {
		if got := unescapeMountinfo(tt.in); got != tt.want {
			t.Errorf("unescapeMountinfo(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
