package signing_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"testing"

	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// TestCanonicalizationVectors replays canonicalization.json, the current
// one and the 3.0.26 bundle's, case by case.
func TestCanonicalizationVectors(t *testing.T) {
	tree, err := spec.OpenBundleFile(testspec.Path(t, "protocol", "3.0.26.tgz"))
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []struct {
		name string
		fsys fs.FS
		file string
	}{
		{"test-vectors", os.DirFS(testspec.Path(t, "test-vectors")), "request-signing/canonicalization.json"},
		{"3.0.26", tree.Bundle, "compliance/test-vectors/request-signing/canonicalization.json"},
	} {
		data, err := fs.ReadFile(src.fsys, src.file)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Cases []struct {
				Name              string `json:"name"`
				InputURL          string `json:"input_url"`
				ExpectedTargetURI string `json:"expected_target_uri"`
				ExpectedAuthority string `json:"expected_authority"`
				Reject            bool   `json:"reject"`
				ExpectedErrorCode string `json:"expected_error_code"`
			} `json:"cases"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Cases) == 0 {
			t.Fatalf("%s: no cases", src.file)
		}
		for _, c := range doc.Cases {
			t.Run(src.name+"/"+c.Name, func(t *testing.T) {
				target, authority, err := signing.CanonicalURL(c.InputURL)
				if c.Reject {
					if err == nil {
						t.Fatalf("%q canonicalized to %q; want a rejection", c.InputURL, target)
					}
					if got := string(signing.CodeOf(err)); got != c.ExpectedErrorCode {
						t.Fatalf("code %s, want %s (%v)", got, c.ExpectedErrorCode, err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if target != c.ExpectedTargetURI || authority != c.ExpectedAuthority {
					t.Fatalf("%q → %q, %q; want %q, %q", c.InputURL, target, authority, c.ExpectedTargetURI, c.ExpectedAuthority)
				}
			})
		}
		t.Logf("%s: %d canonicalization cases", src.file, len(doc.Cases))
	}
}
