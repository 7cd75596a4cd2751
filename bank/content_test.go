package bank

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// memBlobs is a blob store in memory for tree tests.
type memBlobs map[string][]byte

func (m memBlobs) Blobs(_ context.Context, hashes []string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, h := range hashes {
		d, ok := m[h]
		if !ok {
			return nil, fmt.Errorf("blob %s: %w", h, ErrNotFound)
		}
		out[h] = d
	}
	return out, nil
}

// examplesList is the canonical JSON of a list[example] of n examples;
// example i's output is changed to "changed" when i == change.
func examplesList(t testing.TB, n, change int) []byte {
	t.Helper()
	items := make([]Value, n)
	for i := range items {
		out := fmt.Sprintf(`{"sum":%d,"items":[%d,%d,%d]}`, i*3, i, i+1, i+2)
		if i == change {
			out = `"changed"`
		}
		v, err := NewExample([]byte(fmt.Sprintf(`{"items":[%d,%d,%d]}`, i, i+1, i+2)), []byte(out), "agent")
		if err != nil {
			t.Fatal(err)
		}
		items[i] = v
	}
	return List(KindExample, items).Canonical()
}

func storeTree(t *testing.T, into memBlobs, data []byte) (root string, added int) {
	t.Helper()
	blobs := map[string][]byte{}
	root = splitTree(data, blobs)
	for h, d := range blobs {
		if _, ok := into[h]; !ok {
			into[h] = d
			added += len(d)
		}
	}
	got, err := readTree(context.Background(), into, HashBytes(data), into[root], true)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("tree of %d bytes reads back as %d different bytes", len(data), len(got))
	}
	return root, added
}

func TestTreeRoundTrip(t *testing.T) {
	for _, n := range []int{0, 1, chunkMin, chunkMin + 1, ChunkThreshold + 1, chunkMax, chunkMax + 1, 3 << 20} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(i*7 + i/1000)
		}
		storeTree(t, memBlobs{}, data)
	}
	// Data without any cut point (all zeros) still splits at chunkMax.
	storeTree(t, memBlobs{}, make([]byte, 5*chunkMax+3))
}

// TestTreeSharesUnchangedChunks: a one-element change, an insertion, a
// removal or an append in a 10,000-element list stores a few kilobytes.
func TestTreeSharesUnchangedChunks(t *testing.T) {
	const n = 10000
	base := examplesList(t, n, -1)
	changed := examplesList(t, n, n/2)
	i := bytes.Index(base, []byte(`{"input":{"items":[5000,`))
	j := bytes.Index(base, []byte(`{"input":{"items":[5001,`))
	removed := append(append([]byte{}, base[:i]...), base[j:]...)
	inserted := append(append(append([]byte{}, base[:j]...), base[i:j]...), base[j:]...)
	appended := examplesList(t, n+1, -1)
	for _, tt := range []struct {
		name string
		data []byte
	}{{"change", changed}, {"remove", removed}, {"insert", inserted}, {"append", appended}} {
		t.Run(tt.name, func(t *testing.T) {
			store := memBlobs{}
			_, first := storeTree(t, store, base)
			_, added := storeTree(t, store, tt.data)
			t.Logf("list of %d bytes stored in %d bytes; %s: %d bytes more", len(base), first, tt.name, added)
			if added > 32<<10 {
				t.Errorf("%s of one element in a %d-byte list added %d bytes", tt.name, len(base), added)
			}
		})
	}
}

func TestReadTreeRejectsDamage(t *testing.T) {
	data := examplesList(t, 2000, -1)
	want := HashBytes(data)
	good := memBlobs{}
	root, _ := storeTree(t, good, data)
	// child is the first data chunk: the first child of the first node
	// of level 1.
	var child string
	for node := good[root]; child == ""; {
		level, children, err := decodeIndex(node)
		if err != nil {
			t.Fatal(err)
		}
		if level == 1 {
			child = hashName(children[0].sum)
		}
		node = good[hashName(children[0].sum)]
	}
	tests := []struct {
		name   string
		damage func(m memBlobs)
		want   string
	}{
		{"missing chunk", func(m memBlobs) { delete(m, child) }, "not found"},
		{"chunk of another length", func(m memBlobs) { m[child] = append(m[child], ' ') }, "the index says"},
		{"chunk with other bytes", func(m memBlobs) { c := bytes.Clone(m[child]); c[0] ^= 1; m[child] = c }, "reassemble to"},
		{"root not an index", func(m memBlobs) { m[root] = []byte(`{"data":1,"kind":"index"}`) }, "malformed index node"},
		{"truncated index", func(m memBlobs) { m[root] = m[root][:len(m[root])-1] }, "malformed index node"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := memBlobs{}
			for k, v := range good {
				m[k] = v
			}
			tt.damage(m)
			_, err := readTree(context.Background(), m, want, m[root], true)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
			if tt.want == "not found" && !errors.Is(err, ErrNotFound) {
				t.Errorf("err = %v, want ErrNotFound", err)
			}
		})
	}
}
