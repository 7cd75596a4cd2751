package jsonparse

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// The options decide what is made of the inputs readers differ on.
func TestOptions(t *testing.T) {
	bank := Options{MaxDepth: 3}
	exact := Options{MaxDepth: 3, LastKeyWins: true, KeepSurrogates: true, StrictUTF8: true}
	tests := []struct {
		name string
		in   string
		o    Options
		want any
		err  string
	}{
		{"a repeated key, refused", `{"a":1,"a":2}`, bank, nil, `duplicate key "a"`},
		{"a repeated key, the last wins", `{"a":1,"a":2}`, exact, map[string]any{"a": json.Number("2")}, ""},
		{"a lone surrogate as encoding/json reads it", `"\ud800x"`, bank, "\uFFFDx", ""},
		{"a lone surrogate kept", `"\ud800x"`, exact, "\xed\xa0\x80x", ""},
		{"a low surrogate kept", `"\udfff"`, exact, "\xed\xbf\xbf", ""},
		{"a pair is one code point", `"\ud83d\ude00"`, exact, "\U0001F600", ""},
		{"bytes that are not UTF-8 as encoding/json reads them", "\"a\xffb\"", bank, "a\uFFFDb", ""},
		{"bytes that are not UTF-8 refused", "\"a\xffb\"", exact, nil, "not UTF-8"},
		{"too deep", `[[[[1]]]]`, exact, nil, "nested deeper than 3 levels"},
		{"numbers keep their spelling", `[1.0, 10]`, exact, []any{json.Number("1.0"), json.Number("10")}, ""},
		{"trailing data", `1 2`, exact, nil, "unexpected data after the JSON value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.in), tt.o)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Parse(%q) = %#v, %v; want %#v", tt.in, got, err, tt.want)
			}
		})
	}
	if r, ok := SurrogateAt("\xed\xa0\x80"); !ok || r != 0xd800 {
		t.Errorf("SurrogateAt = %x, %v", r, ok)
	}
	if _, ok := SurrogateAt("\xed\x9f\xbf"); ok {
		t.Errorf("U+D7FF taken for a surrogate")
	}
}
