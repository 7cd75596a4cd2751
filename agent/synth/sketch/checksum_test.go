package sketch

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// luhn, isbn10 and ean13 are the checks the tests learn.
func luhn(s string) bool {
	total := 0
	for i := range len(s) {
		d := int(s[len(s)-1-i] - '0')
		if i%2 == 1 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		total += d
	}
	return total%10 == 0
}

func isbn10(s string) bool {
	total := 0
	for i, c := range s {
		v := 10
		if c != 'X' {
			v = int(c - '0')
		}
		total += (10 - i) * v
	}
	return total%11 == 0
}

func ean13(s string) bool {
	total := 0
	for i, c := range s {
		w := 1
		if i%2 == 1 {
			w = 3
		}
		total += w * int(c-'0')
	}
	return total%10 == 0
}

// The weighted digit-sum checksums: Luhn's doubled digits, ISBN-10's
// linear weights with X, EAN-13's cycle of 1 and 3 from the left; none
// for a code with other characters, too few passing codes, or a result
// that is not a truth value. The program found agrees with its Python.
func TestChecksum(t *testing.T) {
	cards := []string{"79927398713", "4539578763621486", "1234567812345670", "0", "18", "79927398710", "4539578763621487", "1234567812345678",
		"12", "5", "49927398716", "2222"}
	isbns := []string{"0306406152", "0471958697", "080442957X", "0198526636", "0306406153", "0471958698", "0804429570", "0198526637",
		"1111111111", "1234567890"}
	eans := []string{"4006381333931", "5901234123457", "9780306406157", "0000000000000", "4006381333932", "5901234123458", "9780306406158",
		"1234567890123", "1111111111111"}
	tests := []struct {
		name string
		ins  []string
		f    func(string) any
		want bool
	}{
		{"luhn", cards, func(s string) any { return luhn(s) }, true},
		{"isbn10", isbns, func(s string) any { return isbn10(s) }, true},
		{"ean13", eans, func(s string) any { return ean13(s) }, true},
		{"other characters", append([]string{"12-34"}, cards...), func(s string) any { return strings.HasSuffix(s, "0") }, false},
		{"too few passing", []string{"79927398713", "18", "12", "5", "2222", "79927398710"}, func(s string) any { return luhn(s) }, false},
		{"not a truth value", cards, func(s string) any { return int64(len(s)) }, false},
	}
	py, pyErr := exec.LookPath("python3")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, src := fitText(t, "Checksum", Checksum, tt.ins, tt.f, tt.want)
			if got == nil {
				return
			}
			if pyErr != nil {
				t.Skip("python3 not found: cannot compare emitted Python with the Go evaluator")
			}
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "candidate.py"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			probe := append(append([]string(nil), tt.ins...), "X12", "7a", "")
			in, _ := json.Marshal(probe)
			script := "import json, sys\nsys.path.insert(0, sys.argv[1])\nfrom candidate import solve\nout = []\n" +
				"for x in json.loads(sys.argv[2]):\n    try:\n        out.append(solve(x))\n    except Exception:\n        out.append(None)\n" +
				"print(json.dumps(out))\n"
			out, err := exec.Command(py, "-c", script, dir, string(in)).CombinedOutput()
			if err != nil {
				t.Fatalf("python: %v\n%s\n%s", err, out, src)
			}
			var pyVals []any
			if err := json.Unmarshal(out, &pyVals); err != nil {
				t.Fatalf("decode %q: %v", out, err)
			}
			for i, s := range probe {
				goVal := dsl.EvalSafe(got, []any{s})
				if dsl.IsErr(goVal) != (pyVals[i] == nil) || !dsl.IsErr(goVal) && goVal != pyVals[i] {
					t.Errorf("%q: Go %v, Python %v\n%s", s, goVal, pyVals[i], src)
				}
			}
		})
	}
}
