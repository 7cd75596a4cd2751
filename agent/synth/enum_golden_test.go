package synth

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"testing"
	"time"
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
	problem   func(t testing.TB) *problem
	size      int
	evaluated int64
	banked    int
	digest    string
}

// familyProblem is the problem of familyCases[i] on its inputs.
func familyProblem(i int) func(t testing.TB) *problem {
	return func(t testing.TB) *problem {
		t.Helper()
		c := familyCases[i]
		p, err := newProblem(taskFor(c), examplesFor(t, c, c.inputs))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
}

// bankDigest hashes an enumerator's bank: each program's text and the
// hash of its values, in bankLog's order.
func bankDigest(en *enumerator) (int, string) {
	d := sha256.New()
	var buf [8]byte
	count := 0
	for t := range en.bank {
		for _, es := range en.bank[t] {
			for _, e := range es {
				count++
				fmt.Fprintf(d, "%d %s\n", t, e.n.String())
				binary.LittleEndian.PutUint64(buf[:], uint64(hashColumn(e.col.data, e.col.bad, len(en.envs))))
				d.Write(buf[:])
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
			evaluated: 4093026, banked: 1027715, digest: "9c326ec7a1f9209002ac94cf1919158d9ce457f36bfdc62ecbabf7f944bb68f9"},
		{name: "scalar", problem: familyProblem(1), size: 5,
			evaluated: 294313, banked: 56467, digest: "27aee57eb65d9d12b3fce299501d9735f0d7c82320261a51c6829f60294f494f"},
		{name: "conditional", problem: familyProblem(2), size: 5,
			evaluated: 215906, banked: 51749, digest: "97fede64844a093403c136b2ea604aedfb194548cdea29dcfbdce863ef6afe4e"},
		{name: "digit_loop", problem: familyProblem(7), size: 5,
			evaluated: 202056, banked: 48360, digest: "04fb9cb2aef0e5c996b6b89b1fbc8d4567191342d17cc39581dbe134e69ebc24"},
		{name: "string", problem: familyProblem(8), size: 6,
			evaluated: 1206162, banked: 231545, digest: "c0f6e9537960518a8f24b5388b111abd9bbf4005c369c48118709a7b1bb7dd9b"},
		{name: "pairs", problem: familyProblem(9), size: 6,
			evaluated: 1320525, banked: 239389, digest: "8f7ed8876dc02e12c6e42b6ea33ac9beb8c4785ac3395e4fe1340a719d1431dc"},
		{name: "geometry", problem: familyProblem(10), size: 6,
			evaluated: 1243692, banked: 228088, digest: "75a675281a318b3031767f973781537bb2236ecbf98ecad7a2b7ddfcb598dd02"},
	}
	lams := defaultLambdas()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.problem(t)
			en := newEnumerator(enumConfig{
				envs: p.envs, vars: p.b.types, consts: topConsts(p), ops: catalog.top,
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
