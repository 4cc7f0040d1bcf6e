package discovery

import (
	"crypto"
	"encoding/base64"
	"errors"

	"github.com/adcpgen/adcpgen/runtime/signing"
)

func asError(err error, target **signing.Rejection) bool { return errors.As(err, target) }

func signedList(t interface{ Fatal(...any) }, key crypto.Signer, kid, payload string) string {
	b64 := base64.RawURLEncoding.EncodeToString
	h := b64([]byte(`{"alg":"EdDSA","kid":"` + kid + `","typ":"adcp-gov-revocation+jws"}`))
	p := b64([]byte(payload))
	sig, err := key.Sign(nil, []byte(h+"."+p), crypto.Hash(0))
	if err != nil {
		t.Fatal(err)
	}
	return `{"payload":"` + p + `","signatures":[{"protected":"` + h + `","signature":"` + b64(sig) + `"}]}`
}
