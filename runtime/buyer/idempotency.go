package buyer

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// idempotencyMember is the request member AdCP's mutating tools carry.
const idempotencyMember = "idempotency_key"

// NewIdempotencyKey returns a fresh UUID v4 from crypto/rand, the key AdCP
// asks buyers to use (36 characters, within the schema's 16 to 255).
func NewIdempotencyKey() string {
	var u [16]byte
	if _, err := rand.Read(u[:]); err != nil {
		panic("buyer: crypto/rand failed: " + err.Error()) // never on supported platforms
	}
	u[6] = u[6]&0x0f | 0x40 // version 4
	u[8] = u[8]&0x3f | 0x80 // RFC 4122 variant
	var out [36]byte
	hex.Encode(out[0:8], u[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], u[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], u[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], u[8:10])
	out[23] = '-'
	hex.Encode(out[24:], u[10:])
	return string(out[:])
}

// CheckIdempotencyKey checks a key against the schema of AdCP's
// idempotency_key: 16 to 255 characters of A-Z a-z 0-9 _ . : -.
func CheckIdempotencyKey(key string) error {
	if len(key) < 16 || len(key) > 255 {
		return fmt.Errorf("idempotency_key has %d characters, want 16 to 255", len(key))
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == ':' || c == '-') {
			return fmt.Errorf("idempotency_key has %q at byte %d, want only A-Z a-z 0-9 _ . : -", c, i)
		}
	}
	return nil
}

// withIdempotencyKey makes sure the request object carries an idempotency
// key: the one it has, else want, else a fresh one. It returns the object
// to send and the key.
func withIdempotencyKey(obj wire.Lenient, want string) (wire.Lenient, string, error) {
	v := obj.Get(idempotencyMember)
	have := ""
	if v.Present() {
		switch s, ok := v.AsString(); {
		case ok:
			have = s
		case !v.IsNull():
			return nil, "", fmt.Errorf("/%s: want a string, got %s", idempotencyMember, v)
		}
	}
	switch {
	case have != "" && want != "" && have != want:
		return nil, "", fmt.Errorf("/%s: the request carries %q and the call option %q", idempotencyMember, have, want)
	case have != "":
		if err := CheckIdempotencyKey(have); err != nil {
			return nil, "", fmt.Errorf("/%s: %w", idempotencyMember, err)
		}
		return obj, have, nil
	case want == "":
		want = NewIdempotencyKey()
	default:
		if err := CheckIdempotencyKey(want); err != nil {
			return nil, "", err
		}
	}
	return withMember(obj, idempotencyMember, wire.AppendQuoted(nil, want)), want, nil
}
