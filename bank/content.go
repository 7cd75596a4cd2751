package bank

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
)

// How revision content is stored. Every input value (its canonical JSON)
// and the graph structure is addressed by its SHA-256, the hash users see.
// The structure, and a value of up to ChunkThreshold bytes, is one blob
// under that hash. A larger value is split into content-defined chunks,
// each a blob under its own SHA-256, listed by index nodes, themselves
// blobs, up to a single root; the revision record maps the value's hash
// to that root (RevisionRecord.Trees). The chunk boundaries depend only on nearby bytes, so changing,
// inserting or removing one element of a 10,000-element list rewrites the
// chunk around it and the index nodes above it: a few kilobytes, not the
// list. Unchanged chunks are the same blobs and are not stored again.
const (
	// ChunkThreshold is the size above which content is stored as a tree.
	ChunkThreshold = 16 << 10
	// Data chunks are at least chunkMin and at most chunkMax bytes. A cut
	// falls where the rolling hash's top bits are zero: chunkHard bits
	// before chunkNormal bytes, chunkEasy bits after, so that most chunks
	// are a little over chunkNormal bytes long.
	chunkMin    = 1 << 10
	chunkNormal = 4 << 10
	chunkMax    = 32 << 10
	chunkHard   = 14
	chunkEasy   = 10
	// An index node ends after a child whose hash has fanBits low zero
	// bits (about 2^fanBits children), and after fanMax children at most.
	fanBits = 4
	fanMax  = 256
	// maxTreeLevels bounds the depth of a tree read from the store.
	maxTreeLevels = 16
)

// Index node layout: the magic, the level (1: the children are data
// chunks; n: index nodes of level n-1), the number of children, then per
// child its raw SHA-256 and the length of the content it stands for, both
// lengths as unsigned varints.
var treeMagic = []byte("rbt1")

// gear is the rolling hash's table: fixed pseudo-random words. Changing
// it moves chunk boundaries (so less is shared with content stored
// before) but never changes what any tree reads back as.
var gear = func() (t [256]uint64) {
	for i := range t {
		sum := sha256.Sum256([]byte{'g', 'e', 'a', 'r', byte(i)})
		t[i] = binary.LittleEndian.Uint64(sum[:8])
	}
	return t
}()

// cutPoint returns the length of the next data chunk of b.
func cutPoint(b []byte) int {
	if len(b) <= chunkMin {
		return len(b)
	}
	end := min(len(b), chunkMax)
	const (
		hard = (uint64(1)<<chunkHard - 1) << (64 - chunkHard)
		easy = (uint64(1)<<chunkEasy - 1) << (64 - chunkEasy)
	)
	var h uint64
	// The hash forgets a byte after 64 steps; start it 64 bytes before the
	// first allowed cut so the decision depends only on nearby content.
	for i := chunkMin - 64; i < end; i++ {
		h = h<<1 + gear[b[i]]
		if i < chunkMin {
			continue
		}
		mask := easy
		if i < chunkNormal {
			mask = hard
		}
		if h&mask == 0 {
			return i + 1
		}
	}
	return end
}

// treeEntry is one child of an index node.
type treeEntry struct {
	sum [32]byte
	n   int // length of the content it stands for
}

// splitTree stores data as a tree: it adds the chunk and index blobs to
// blobs and returns the root's hash.
func splitTree(data []byte, blobs map[string][]byte) string {
	var entries []treeEntry
	for rest := data; len(entries) == 0 || len(rest) > 0; {
		n := cutPoint(rest)
		chunk := rest[:n:n]
		e := treeEntry{sum: sha256.Sum256(chunk), n: n}
		blobs[hashName(e.sum)] = chunk
		entries = append(entries, e)
		rest = rest[n:]
	}
	for level := 1; ; level++ {
		var up []treeEntry
		for start := 0; start < len(entries); {
			end := start
			for end < len(entries) {
				end++
				if end-start >= fanMax || binary.LittleEndian.Uint32(entries[end-1].sum[:4])&(1<<fanBits-1) == 0 {
					break
				}
			}
			node, total := encodeIndex(level, entries[start:end])
			e := treeEntry{sum: sha256.Sum256(node), n: total}
			blobs[hashName(e.sum)] = node
			up = append(up, e)
			start = end
		}
		if len(up) == 1 {
			return hashName(up[0].sum)
		}
		entries = up
	}
}

func encodeIndex(level int, children []treeEntry) ([]byte, int) {
	b := make([]byte, 0, len(treeMagic)+2*binary.MaxVarintLen64+len(children)*(32+4))
	b = append(b, treeMagic...)
	b = binary.AppendUvarint(b, uint64(level))
	b = binary.AppendUvarint(b, uint64(len(children)))
	total := 0
	for _, c := range children {
		b = append(b, c.sum[:]...)
		b = binary.AppendUvarint(b, uint64(c.n))
		total += c.n
	}
	return b, total
}

var errBadIndex = errors.New("malformed index node")

func decodeIndex(b []byte) (level int, children []treeEntry, err error) {
	if !bytes.HasPrefix(b, treeMagic) {
		return 0, nil, errBadIndex
	}
	b = b[len(treeMagic):]
	lv, k := binary.Uvarint(b)
	if k <= 0 || lv < 1 || lv > maxTreeLevels {
		return 0, nil, errBadIndex
	}
	b = b[k:]
	count, k := binary.Uvarint(b)
	if k <= 0 || count < 1 || count > uint64(len(b)/33) {
		return 0, nil, errBadIndex
	}
	b = b[k:]
	children = make([]treeEntry, count)
	for i := range children {
		if len(b) < 33 {
			return 0, nil, errBadIndex
		}
		copy(children[i].sum[:], b[:32])
		n, k := binary.Uvarint(b[32:])
		if k <= 0 || n > 1<<40 {
			return 0, nil, errBadIndex
		}
		children[i].n = int(n)
		b = b[32+k:]
	}
	if len(b) != 0 {
		return 0, nil, errBadIndex
	}
	return int(lv), children, nil
}

// blobReader is the part of a Store that reading trees needs.
type blobReader interface {
	Blobs(ctx context.Context, hashes []string) (map[string][]byte, error)
}

// readTree reassembles content stored as a tree whose root blob is given,
// reading one level of the tree per call to the store, and, when check is
// set, checks that it hashes to want.
func readTree(ctx context.Context, store blobReader, want string, root []byte, check bool) ([]byte, error) {
	level, nodes := 0, [][]byte{root}
	var data []byte
	for {
		var children []treeEntry
		for _, node := range nodes {
			lv, cs, err := decodeIndex(node)
			if err != nil {
				return nil, fmt.Errorf("content %s: %w", want, err)
			}
			if level != 0 && lv != level {
				return nil, fmt.Errorf("content %s: %w: level %d under level %d", want, errBadIndex, lv, level+1)
			}
			level = lv
			children = append(children, cs...)
		}
		names := make([]string, len(children))
		total := 0
		for i, c := range children {
			names[i] = hashName(c.sum)
			total += c.n
		}
		blobs, err := store.Blobs(ctx, names)
		if err != nil {
			return nil, fmt.Errorf("content %s: %w", want, err)
		}
		if level == 1 {
			data = make([]byte, 0, total)
			for i, c := range children {
				chunk := blobs[names[i]]
				if len(chunk) != c.n {
					return nil, fmt.Errorf("content %s: chunk %s has %d bytes, the index says %d", want, names[i], len(chunk), c.n)
				}
				data = append(data, chunk...)
			}
			break
		}
		nodes = nodes[:0]
		for _, n := range names {
			nodes = append(nodes, blobs[n])
		}
		level--
	}
	if got := HashBytes(data); check && got != want {
		return nil, fmt.Errorf("content %s: %w: the chunks reassemble to %s", want, ErrTampered, got)
	}
	return data, nil
}
