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
			evaluated: 4216780, banked: 1033785, digest: "c200ec835cf1bc9545e5cbfa6a5870896a78ca01ab42846e6b8a2b57f6737ea5"},
		{name: "scalar", problem: familyProblem(1), size: 5,
			evaluated: 297584, banked: 56496, digest: "89782ff601ddbd73fe73b741a0e039f5c7b56841971c23073fd2d992a5cc536f"},
		{name: "conditional", problem: familyProblem(2), size: 5,
			evaluated: 218261, banked: 51802, digest: "a4d83e323090e81fec24a4da802490aada01eef62e49f77343af80ccf0e9cdb2"},
		{name: "digit_loop", problem: familyProblem(7), size: 5,
			evaluated: 204409, banked: 48414, digest: "62645453c637bbfd92957f7b531c40da95897da21e8030bb2c5e01068e637668"},
		{name: "string", problem: familyProblem(8), size: 6,
			evaluated: 1267480, banked: 234185, digest: "d5399e75f5b7592b02aa5138c117886c012a912fae8bfb81f96b0fb090930a2c"},
		{name: "pairs", problem: familyProblem(9), size: 6,
			evaluated: 1354932, banked: 239832, digest: "08ddad0037067d1bb80be32bacc32579c295015c60a05eb09c5d20c9aebd12cb"},
		{name: "geometry", problem: familyProblem(10), size: 6,
			evaluated: 1276324, banked: 229131, digest: "0e8763a57e9a659391dea6fe6c66fc58b5a7119d64a48c1f67efc59de5856ec0"},
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
