package signing

import (
	"encoding/base64"
	"errors"
	"strings"
)

// decodeBinary decodes the text of an sf-binary value as the profile's
// encoding writes it (security.mdx "Request-profile binary value
// encoding"; webhook-signing README "Binary value encoding").
func decodeBinary(text string, enc Encoding) ([]byte, error) {
	if enc == EncodingStructured {
		// RFC 8941 §3.3.5: the standard alphabet. §4.2.7 asks parsers not to
		// fail on missing "=" padding, so it is synthesised; a padded value
		// must be padded correctly.
		if strings.ContainsAny(text, "-_") {
			return nil, errors.New("byte sequence uses the base64url alphabet; RFC 8941 sf-binary is standard base64")
		}
		return decodeStd(text)
	}
	url := strings.ContainsAny(text, "-_")
	std := strings.ContainsAny(text, "+/")
	switch {
	case url && std:
		return nil, errors.New("byte sequence mixes the base64url and standard base64 alphabets")
	case url:
		if strings.Contains(text, "=") {
			return nil, errors.New("base64url byte sequence is padded; the legacy profile writes it unpadded")
		}
		b, err := base64.RawURLEncoding.DecodeString(text)
		if err != nil {
			return nil, errors.New("byte sequence is not valid base64url")
		}
		return b, nil
	}
	return decodeStd(text)
}

func decodeStd(text string) ([]byte, error) {
	enc := base64.StdEncoding
	if !strings.HasSuffix(text, "=") {
		enc = base64.RawStdEncoding
	}
	b, err := enc.DecodeString(text)
	if err != nil {
		return nil, errors.New("byte sequence is not valid base64")
	}
	return b, nil
}

// encodeBinary writes b as the profile's signers must: unpadded base64url
// (legacy) or padded standard base64 (RFC 8941).
func encodeBinary(b []byte, enc Encoding) string {
	if enc == EncodingStructured {
		return base64.StdEncoding.EncodeToString(b)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}
