package synth

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// enumGolden is what an enumerator finds on one problem up to a size: how
// many programs it evaluated, how many it banked, and a digest of the bank
// (every program's text and values, by type and size, in the order they
// were found). The figures were taken at commit 7612499, before the
// enumerator's hot path was reworked for speed: the rework must find the
// same programs in the same order, with the same values, after
// evaluating the same number of candidates.
type enumGolden struct {
	name      string
	problem   func(t testing.TB) *dsl.Problem
	size      int
	evaluated int64
	banked    int
	digest    string
}

// familyProblem is the problem of familyCases[i] on its inputs.
func familyProblem(i int) func(t testing.TB) *dsl.Problem {
	return func(t testing.TB) *dsl.Problem {
		t.Helper()
		c := familyCases[i]
		p, err := newProblem(taskFor(c), examplesFor(t, c, c.inputs))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
}

// bankDigest hashes an enumerator's bank: each program's text and its
// value on every environment (printed, not hashed with hasher, so that the
// digest does not depend on the hash the enumerator uses), in bankLog's
// order.
func bankDigest(en *enumerator) (int, string) {
	d := sha256.New()
	count := 0
	for t := range en.bank {
		for _, es := range en.bank[t] {
			for _, e := range es {
				count++
				fmt.Fprintf(d, "%d %s:", t, e.N.String())
				for i := range en.envs {
					if dsl.IsErr(e.At(i)) {
						fmt.Fprint(d, " !")
						continue
					}
					fmt.Fprintf(d, " %v", e.At(i))
				}
				fmt.Fprintln(d)
			}
		}
	}
	return count, hex.EncodeToString(d.Sum(nil))
}

// The enumerator finds the same programs, in the same order and with the
// same values, as it did before its hot path was reworked (see
// enumGolden). Set SYNTH_ENUM_GOLDEN=print to print the figures instead.
func TestEnumeratorGolden(t *testing.T) {
	cases := []enumGolden{
		{name: "unreachable", problem: unreachableProblem, size: 6,
			evaluated: 4226504, banked: 1034125, digest: "adfc56365c6a60dd2a4fdacf60f762d90c87bb667c62cb1befd915136755f17a"},
		{name: "scalar", problem: familyProblem(1), size: 5,
			evaluated: 298516, banked: 56515, digest: "36e7be3be32d45df3f57158b06b9c748e5d5c9d8cd6187e13dc0abaab26faeac"},
		{name: "conditional", problem: familyProblem(2), size: 5,
			evaluated: 218984, banked: 51840, digest: "4f657d8b09a832ea481987366d103ca3becf09a42ba09d8240784e0b8605f6c0"},
		{name: "digit_loop", problem: familyProblem(7), size: 5,
			evaluated: 205221, banked: 48492, digest: "71d0c059cbb35987ffd26d416446ba98e784236d3a5fb380515c40ccd5ffc14e"},
		{name: "string", problem: familyProblem(8), size: 6,
			evaluated: 1283367, banked: 235441, digest: "5ac870265c300a9882ed6e3cd07a45d48b0d1234357ef9d877ba1135fb3fee67"},
		{name: "pairs", problem: familyProblem(9), size: 6,
			evaluated: 1357755, banked: 239866, digest: "07624bc4c8ce4bf5b5059755e8c3212e5c06412582b3bd456264f4601314de1e"},
		{name: "geometry", problem: familyProblem(10), size: 6,
			evaluated: 1278880, banked: 229178, digest: "4c4b64fda09e22ac3ce0187f1f9a3a9fcbee34730e7ec679e53a15a473ff9201"},
	}
	lams := defaultLambdas()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.problem(t)
			en := newEnumerator(enumConfig{
				envs: p.Envs, vars: p.B.Types, consts: topConsts(p), ops: dsl.Catalog.Top,
				lams: lams, deadline: time.Now().Add(time.Hour), memLimit: DefaultMemoryBytes,
			})
			en.grow(c.size, nil)
			if en.timedOut || en.level != c.size {
				t.Fatalf("stopped at level %d (timed out: %v), want every size up to %d", en.level, en.timedOut, c.size)
			}
			banked, digest := bankDigest(en)
			if os.Getenv("SYNTH_ENUM_GOLDEN") == "print" {
				t.Logf("evaluated: %d, banked: %d, digest: %q", en.evaluated, banked, digest)
				return
			}
			if en.evaluated != c.evaluated || banked != c.banked || digest != c.digest {
				t.Errorf("evaluated %d, banked %d, digest %s; want %d, %d, %s", en.evaluated, banked, digest, c.evaluated, c.banked, c.digest)
			}
		})
	}
}

// sameValues, which lets try skip hashing a program whose values are an
// argument's, says so only for the same values and the same failures.
func TestSameValues(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name string
		data any
		bad  []bool
		v    dsl.Vec
		want bool
	}{
		{"ints", []int64{1, 2, 3}, []bool{false, false, false}, dsl.Vec{Data: []int64{1, 2, 3}}, true},
		{"ints differ", []int64{1, 2, 4}, []bool{false, false, false}, dsl.Vec{Data: []int64{1, 2, 3}}, false},
		{"failed alike", []int64{1, 9, 3}, []bool{false, true, false}, dsl.Vec{Data: []int64{1, 0, 3}, Bad: []bool{false, true, false}}, true},
		{"failed on one side", []int64{1, 0, 3}, []bool{false, true, false}, dsl.Vec{Data: []int64{1, 0, 3}}, false},
		{"floats", []float64{0.5, -1}, []bool{false, false}, dsl.Vec{Data: []float64{0.5, -1}}, true},
		{"NaN", []float64{nan}, []bool{false}, dsl.Vec{Data: []float64{nan}}, false},
		{"strings", []string{"a", ""}, []bool{false, false}, dsl.Vec{Data: []string{"a", ""}}, true},
		{"lists", [][]int64{{1, 2}, {}}, []bool{false, false}, dsl.Vec{Data: [][]int64{{1, 2}, {}}}, true},
		{"lists differ", [][]int64{{1, 2}, {}}, []bool{false, false}, dsl.Vec{Data: [][]int64{{1, 2}, {0}}}, false},
		{"pairs", [][]dsl.Pair{{{1, 2}}}, []bool{false}, dsl.Vec{Data: [][]dsl.Pair{{{1, 2}}}}, true},
		{"pairs differ", [][]dsl.Pair{{{1, 2}}}, []bool{false}, dsl.Vec{Data: [][]dsl.Pair{{{2, 1}}}}, false},
	}
	for _, c := range cases {
		if got := sameValues(c.data, c.bad, c.v, len(c.bad)); got != c.want {
			t.Errorf("%s: sameValues = %v, want %v", c.name, got, c.want)
		}
	}
}
