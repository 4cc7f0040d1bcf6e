package roundtrip

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
)

// Harness is a built harness program.
type Harness struct {
	Bin string
}

// Operations a Case asks for.
const (
	// OpRoundTrip decodes strictly and in exact mode and, when the strict
	// decode succeeds, re-encodes, decodes the bytes again and compares.
	OpRoundTrip = "roundtrip"
	// OpDecode decodes strictly and in exact mode.
	OpDecode = "decode"
)

// Case is one document to decode with the type generated for Ref in the
// package of Version.
type Case struct {
	ID      string `json:"id"`
	Version string `json:"version"`
	Ref     string `json:"ref"`
	Op      string `json:"op"`
	Data    []byte `json:"data"`
}

// WireError is a decoding failure as the harness saw it (Kind "" when the
// error was not a *wire.DecodeError).
type WireError struct {
	Kind    string   `json:"kind"`
	Pointer string   `json:"pointer"`
	Message string   `json:"message"`
	Missing []string `json:"missing,omitempty"`
}

func (e *WireError) String() string {
	if e == nil {
		return "ok"
	}
	p := e.Pointer
	if p == "" {
		p = "(root)"
	}
	return e.Kind + "@" + p
}

// Result is what the harness reports for a Case.
type Result struct {
	ID string `json:"id"`
	// NoType: the package has no type for the reference.
	NoType bool       `json:"no_type,omitempty"`
	Err    *WireError `json:"err,omitempty"`
	// Exact is the exact-mode decode's error.
	Exact *WireError `json:"exact,omitempty"`
	// The rest is set by OpRoundTrip after a successful decode.
	Enc      []byte     `json:"enc,omitempty"`
	EncErr   string     `json:"enc_err,omitempty"`
	Redecode *WireError `json:"redecode,omitempty"`
	// Equal: the second decode equals the first (reflect.DeepEqual).
	Equal bool `json:"equal"`
	// JSONSame: json.Marshal and json.Unmarshal (the generated
	// MarshalJSON/UnmarshalJSON) agree with the wire calls.
	JSONSame bool   `json:"json_same"`
	Panic    string `json:"panic,omitempty"`
}

// Refs lists every version's schema references (SchemaRefs).
func (h *Harness) Refs(ctx context.Context) (map[string][]string, error) {
	out, err := exec.CommandContext(ctx, h.Bin, "refs").Output()
	if err != nil {
		return nil, fmt.Errorf("harness refs: %w", err)
	}
	var refs map[string][]string
	if err := json.Unmarshal(out, &refs); err != nil {
		return nil, fmt.Errorf("harness refs: %w", err)
	}
	return refs, nil
}

// Run decodes every case in one harness process and returns the results
// by case ID.
func (h *Harness) Run(ctx context.Context, cases []Case) (map[string]*Result, error) {
	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	for i := range cases {
		if err := enc.Encode(&cases[i]); err != nil {
			return nil, err
		}
	}
	cmd := exec.CommandContext(ctx, h.Bin)
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	results := make(map[string]*Result, len(cases))
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	var parseErr error
	for sc.Scan() {
		var r Result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil && parseErr == nil {
			parseErr = fmt.Errorf("harness output: %w", err)
			continue
		}
		results[r.ID] = &r
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("harness: %w\n%s", err, stderr.Bytes())
	}
	if parseErr != nil {
		return nil, parseErr
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for _, c := range cases {
		if results[c.ID] == nil {
			return nil, fmt.Errorf("harness: no result for case %s", c.ID)
		}
	}
	return results, nil
}
