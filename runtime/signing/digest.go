package signing

import (
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"fmt"
)

// ContentDigest is the RFC 9530 Content-Digest field value for body: its
// SHA-256 as one sha-256 member, written in the profile's encoding.
func ContentDigest(body []byte, enc Encoding) string {
	sum := sha256.Sum256(body)
	return "sha-256=:" + encodeBinary(sum[:], enc) + ":"
}

// checkDigestField parses a Content-Digest value (step 1): a dictionary
// with no repeated algorithm whose sha-256 and sha-512 members are byte
// sequences of the right length.
func checkDigestField(v string, enc Encoding) ([]sfMember, error) {
	members, err := parseDictionary(v)
	if err != nil {
		return nil, err
	}
	for _, m := range members {
		want := 0
		switch m.key {
		case "sha-256":
			want = sha256.Size
		case "sha-512":
			want = sha512.Size
		default:
			continue // other algorithms are neither trusted nor refused
		}
		if m.val.kind != sfBinary {
			return nil, fmt.Errorf("member %s is a %s, not a byte sequence", m.key, m.val.kind)
		}
		b, err := decodeBinary(m.val.text, enc)
		if err != nil {
			return nil, fmt.Errorf("member %s: %v", m.key, err)
		}
		if len(b) != want {
			return nil, fmt.Errorf("member %s holds %d bytes, not %d", m.key, len(b), want)
		}
	}
	return members, nil
}

// digestMatches recomputes the body's digest for every sha-256 and
// sha-512 member of a field checkDigestField accepted (step 11); false when
// a member differs or none is present.
func digestMatches(members []sfMember, enc Encoding, body []byte) bool {
	checked := false
	for _, m := range members {
		var sum []byte
		switch m.key {
		case "sha-256":
			s := sha256.Sum256(body)
			sum = s[:]
		case "sha-512":
			s := sha512.Sum512(body)
			sum = s[:]
		default:
			continue
		}
		got, err := decodeBinary(m.val.text, enc)
		if err != nil || subtle.ConstantTimeCompare(got, sum) != 1 {
			return false
		}
		checked = true
	}
	return checked
}
