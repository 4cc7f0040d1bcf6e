package signing_test

import (
	"crypto"
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"
)

// privateKey reads a keys.json entry, whose private part is in
// _private_d_for_test_only, as a private JWK.
func privateKey(t testing.TB, entry json.RawMessage) (crypto.Signer, *keys.JWK) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(entry, &m); err != nil {
		t.Fatal(err)
	}
	m["d"] = m["_private_d_for_test_only"]
	delete(m, "_private_d_for_test_only")
	delete(m, "$comment")
	b, _ := json.Marshal(m)
	key, pub, err := keys.ParsePrivateJWK(b)
	if err != nil {
		t.Fatal(err)
	}
	return key, pub
}

var base64Std = base64.StdEncoding
