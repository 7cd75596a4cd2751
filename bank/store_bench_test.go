package bank_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/storetest"
)

func BenchmarkGraph1000ValidateEvaluate(b *testing.B) {
	benchEvaluate(b, storetest.ChainGraph(1000), func(res *bank.Result) error {
		if !res.Outputs["last"].Equal(bank.Index(1001)) {
			return errors.New("wrong result")
		}
		return nil
	})
}

// benchEvaluate measures evaluating g with the built-in operations; check
// tells a wrong result.
func benchEvaluate(b *testing.B, g *bank.Graph, check func(*bank.Result) error) {
	ev := &bank.Evaluator{Registry: bank.NewRegistry()}
	b.ReportAllocs()
	defer storetest.ReportCPU(b)()
	for b.Loop() {
		res, err := ev.Evaluate(context.Background(), g)
		if err == nil {
			err = check(res)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFold10000Objects paints 10,000 single-pixel objects onto a
// 128×128 grid in one fold, tracing every step.
func BenchmarkFold10000Objects(b *testing.B) {
	g, err := bank.NewGrid(func() [][]int {
		rows := make([][]int, 128)
		for i := range rows {
			rows[i] = make([]int, 128)
		}
		return rows
	}())
	if err != nil {
		b.Fatal(err)
	}
	src := g.Hash()
	items := make([]bank.Value, 10000)
	for i := range items {
		items[i] = bank.ObjectValue(&bank.Object{Source: src, Origin: src, Frame: [2]int64{128, 128},
			Pixels: []bank.Pixel{{Row: int64(i / 100), Col: int64(i % 100), Color: uint8(1 + i%9)}}})
	}
	graph := &bank.Graph{
		Inputs: map[string]bank.Value{"objs": bank.List(bank.KindObject, items), "g": g, "bg": bank.Color(0), "no": bank.Flag(false)},
		Nodes: []bank.Node{{ID: "out", Fold: &bank.Apply{Op: "object.paint", Items: "objs", State: "g",
			Bindings: map[string]string{"background": "bg", "overwrite": "no"}}}},
		Outputs: map[string]string{"out": "out"},
	}
	benchEvaluate(b, graph, func(res *bank.Result) error {
		if res.Calls != 10000 {
			return fmt.Errorf("%d calls", res.Calls)
		}
		return nil
	})
}

func BenchmarkObserve1000(b *testing.B) {
	bk, _ := openBank(b, bank.Options{})
	storetest.CreateChain(b, bk, 1000)
	storetest.BenchObserve(b, bk)
}

func BenchmarkProposeCommit1000(b *testing.B) {
	bk, _ := openBank(b, bank.Options{})
	storetest.CreateChain(b, bk, 1000)
	storetest.BenchProposeCommit(b, bk, true)
}

// FuzzAct: any input gives a response that encodes (AppendJSON writing
// what encoding/json writes), never a panic; only well-formed actions may
// succeed.
func FuzzAct(f *testing.F) {
	for _, s := range []string{
		`{"action":"observe","workspace":"objects"}`,
		proposeOffset,
		`{"action":"propose","workspace":"objects","graph_edits":[{"kind":"add_node","value":{"id":"t","op":"number.add","args":{"a":"minimum","b":"minimum"}}},{"kind":"set_output","output":"t","ref":"t"}],"targets":{"t":{"kind":"index","data":4}},"require_target_match":true,"atol":0.5}`,
		`{"action":"commit","receipt":{"proposal_id":"sha256:00","payload":{"format":1},"signature":"x"}}`,
		`{"action":"compare","a":"objects","b":"objects@r000001"}`,
		`{"action":"fork","workspace":"objects","name":"t2","expected_revision":"r000001"}`,
		`{"action":"list"}`,
	} {
		f.Add([]byte(s))
	}
	b, _ := openBank(f, bank.Options{})
	setupObjects(f, b)
	f.Fuzz(func(t *testing.T, data []byte) {
		resp := b.Act(context.Background(), data)
		encodeResponse(t, resp) // encodes, as encoding/json does
		if !resp.OK && resp.Error == nil {
			t.Fatal("failed response without an error")
		}
		if resp.OK && !json.Valid(data) {
			t.Fatalf("invalid JSON %q succeeded", data)
		}
	})
}
