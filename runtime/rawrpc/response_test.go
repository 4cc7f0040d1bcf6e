package rawrpc_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/rawrpc"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, msg          string
		id, result, errObj string
		wantErr            string // a fragment of the error, with the pointer
	}{
		{name: "result", msg: `{"jsonrpc":"2.0","id":7,"result":{"a":1,"a":2}}`, id: `7`, result: `{"a":1,"a":2}`},
		{name: "error keeps data", msg: ` {"jsonrpc":"2.0", "error" : {"code":-32029,"message":"x","data":{"\u005f_proto__":1}}, "id":"r1"} `,
			id: `"r1"`, errObj: `{"code":-32029,"message":"x","data":{"\u005f_proto__":1}}`},
		{name: "duplicate result", msg: `{"jsonrpc":"2.0","id":1,"result":{},"result":{"x":1}}`, wantErr: `at /result: duplicate member "result"`},
		{name: "escaped duplicate", msg: `{"jsonrpc":"2.0","id":1,"result":{},"\u0072esult":{}}`, wantErr: `at /result: duplicate`},
		{name: "duplicate id", msg: `{"jsonrpc":"2.0","id":1,"id":2,"result":{}}`, wantErr: `at /id: duplicate`},
		{name: "both", msg: `{"jsonrpc":"2.0","id":1,"result":{},"error":{}}`, wantErr: `at /error: both`},
		{name: "neither", msg: `{"jsonrpc":"2.0","id":1}`, wantErr: `neither`},
		{name: "trailing data", msg: `{"jsonrpc":"2.0","id":1,"result":{}} {}`, wantErr: `after the top-level value`},
		{name: "not an object", msg: `[{"jsonrpc":"2.0","id":1,"result":{}}]`, wantErr: `not an object`},
		{name: "bad value", msg: `{"jsonrpc":"2.0","id":1,"result":{"a":}}`, wantErr: `at /result/a: want a value`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := rawrpc.Parse([]byte(tc.msg))
			if tc.wantErr != "" {
				if err == nil || !errors.Is(err, rawrpc.ErrMalformed) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(r.ID) != tc.id || string(r.Result) != tc.result || string(r.Error) != tc.errObj || !r.Exact || string(r.Message) != tc.msg {
				t.Errorf("got id=%s result=%s error=%s exact=%v", r.ID, r.Result, r.Error, r.Exact)
			}
		})
	}
}

func TestIDKey(t *testing.T) {
	for _, tc := range []struct{ id, want string }{
		{`1`, "n:1"}, {`1.0`, "n:1"}, {`"1"`, "s:1"}, {`"\u0061b"`, "s:ab"}, {`1.5`, ""}, {`null`, ""}, {`{}`, ""},
		{` 7 `, "n:7"}, {`1e2`, "n:100"}, {`-3`, "n:-3"}, {`true`, ""}, {`7 8`, ""}, {`"a`, ""},
	} {
		got, err := rawrpc.IDKey([]byte(tc.id))
		if got != tc.want || (err != nil) != (tc.want == "") {
			t.Errorf("IDKey(%s) = %q, %v; want %q", tc.id, got, err, tc.want)
		}
	}
}
