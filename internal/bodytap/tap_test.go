package bodytap_test

import (
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/adcpgen/adcpgen/internal/bodytap"
)

func TestFramers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		framer func(func([]byte)) bodytap.Framer
		body   string
		want   []string
	}{
		{"whole", bodytap.WholeBody, `{"a":1,"a":2}`, []string{`{"a":1,"a":2}`}},
		{"a2a data lines", bodytap.DataLines,
			"id: 1\ndata: {\"a\":1}\n\n: keep-alive\n\ndata:{\"nospace\":1}\ndata: {\"b\":2}\r\ndata: {\"c\":3}",
			[]string{`{"a":1}`, `{"b":2}`, `{"c":3}`}},
		{"json values", bodytap.JSONValues,
			"{\"a\":\"}\\\"{\"}\n[{\"b\":1},\n {\"c\":[2]}]\r\n  {\"d\":\n1}\n{\"cut\":",
			[]string{`{"a":"}\"{"}`, "[{\"b\":1},\n {\"c\":[2]}]", "{\"d\":\n1}"}},
		{"json values stop at a scalar", bodytap.JSONValues, "{}\n42\n{}\n", []string{`{}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			body := bodytap.Tap(io.NopCloser(iotest.OneByteReader(strings.NewReader(tc.body))), tc.framer(func(b []byte) { got = append(got, string(b)) }))
			passed, err := io.ReadAll(body)
			if err != nil || string(passed) != tc.body {
				t.Fatalf("the tap changed the body: %q, %v", passed, err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// A body closed before its end yields no partial message.
func TestCloseBeforeEnd(t *testing.T) {
	var got []string
	body := bodytap.Tap(io.NopCloser(strings.NewReader(`{"a":1}`)), bodytap.WholeBody(func(b []byte) { got = append(got, string(b)) }))
	buf := make([]byte, 3)
	if _, err := body.Read(buf); err != nil {
		t.Fatal(err)
	}
	body.Close()
	if len(got) != 0 {
		t.Errorf("emitted %q", got)
	}
}
