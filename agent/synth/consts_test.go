package synth

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/task"
)

func TestNumbersIn(t *testing.T) {
	cases := []struct {
		text string
		want []int64
	}{
		{"pow_mod97", []int64{97}},
		{"sum_multiples_3_5", []int64{3, 5}},
		{"clamp_0_10", []int64{0, 10}},
		{"between -50 and 50", []int64{-50, 50}},
		{"x-3", []int64{3}},
		{"-7", []int64{-7}},
		{"list of integers", nil},
		{"99999999999999999999 and 4", []int64{4}},
	}
	for _, c := range cases {
		got := numbersIn(c.text)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("numbersIn(%q) (-want +got):\n%s", c.text, diff)
		}
	}
}

func TestMinedConsts(t *testing.T) {
	cases := []struct {
		name string
		t    task.Task
		want []int64
	}{
		{"modulus in the name", task.Task{Name: "algorithm_pow_mod97", InputType: "pair of integers [a, b]", InputConstraints: "two integers between 0 and 200"}, []int64{97}},
		{"two in the name, no repeat", task.Task{Name: "sum_multiples_3_5_3", InputType: "integer"}, []int64{3, 5}},
		{"input type counts", task.Task{Name: "triple_sum", InputType: "list of 3 integers"}, []int64{3}},
		{"constraints do not", task.Task{Name: "double", InputType: "integer", InputConstraints: "between -1000 and 1000"}, nil},
		{"an unnamed modulus from the constraints", task.Task{Name: "algorithm_fib_mod", InputType: "integer", InputConstraints: "one integer between 0 and 1000"}, []int64{1000}},
		{"a named modulus only", task.Task{Name: "pow_mod97", InputType: "integer", InputConstraints: "between 0 and 500"}, []int64{97}},
		{"mod inside a word is not the word", task.Task{Name: "modal_value", InputType: "list", InputConstraints: "between 0 and 9"}, nil},
		{"bounded", task.Task{Name: "a1_2_3_4_5_6_7_8_9_10"}, []int64{1, 2, 3, 4, 5, 6, 7, 8}},
		{"number words in the name", task.Task{Name: "sevens_not_fives", InputType: "[a, b]: two integers"}, []int64{7, 5}},
		{"a number word in the input type", task.Task{Name: "dice_chance", InputType: "[n, total]: a number of six-sided dice and a total"}, []int64{6}},
		{"percent is a hundred", task.Task{Name: "grow", InputType: "[amount, rate]: an amount and a rate in percent"}, []int64{100}},
		{"plurals and words after digits", task.Task{Name: "count_sixes_of_12", InputType: "a dozen twenties"}, []int64{12, 6, 20}},
		{"the default constants are not words to mine", task.Task{Name: "one_or_two", InputType: "two lists of three integers"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := minedConsts(c.t)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("minedConsts (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWithConsts(t *testing.T) {
	got := withConsts([]any{int64(0), int64(10), ""}, []int64{10, 97, 97, -3})
	want := []any{int64(0), int64(10), "", int64(97), int64(-3)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("withConsts (-want +got):\n%s", diff)
	}
}
