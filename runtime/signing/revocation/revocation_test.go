package revocation_test

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"
	"github.com/adcpgen/adcpgen/runtime/signing/revocation"
)

// TestRevocationsStaleness: stale after next_update + 4 polling intervals
// (the interval held within 1 to 30 minutes), and before the first list.
func TestFeedStaleness(t *testing.T) {
	ctx := context.Background()
	r := &revocation.Feed{}
	if _, err := r.Revoked(ctx, "k", testNow); !errors.Is(err, revocation.ErrStale) {
		t.Fatal("no list yet must be stale:", err)
	}
	fetched := testNow
	for _, c := range []struct {
		name     string
		next     time.Duration // next_update after fetch
		deadline time.Duration // stale strictly after fetch + this
	}{
		{"15 min cadence", 15 * time.Minute, 75 * time.Minute},
		{"below the 1 min floor", 10 * time.Second, 5 * time.Minute},
		{"above the 30 min ceiling", 2 * time.Hour, 150 * time.Minute},
	} {
		t.Run(c.name, func(t *testing.T) {
			r.Update(&revocation.List{NextUpdate: fetched.Add(c.next), RevokedKids: []string{"bad"}}, fetched)
			if _, err := r.Revoked(ctx, "k", fetched.Add(c.deadline)); err != nil {
				t.Fatal("stale at the deadline:", err)
			}
			if _, err := r.Revoked(ctx, "k", fetched.Add(c.deadline+time.Second)); !errors.Is(err, revocation.ErrStale) {
				t.Fatal("not stale after the deadline:", err)
			}
			if ok, err := r.Revoked(ctx, "bad", fetched.Add(c.deadline+time.Hour)); !ok || err != nil {
				t.Fatal("a revoked kid stays revoked on a stale list:", ok, err)
			}
		})
	}
}

// TestVerifyRevocationJWS signs a list the way an operator publishes it
// and checks it, and each way a list is refused.
func TestVerifyJWS(t *testing.T) {
	key, jwk, _ := keys.GenerateKey(keys.Ed25519, "ops-1", nil)
	ops := keys.Static{Set: &keys.JWKS{Keys: []*keys.JWK{jwk}}}
	payload := `{"version":1,"issuer":"https://ops.example","updated":"2026-04-18T14:00:00Z","next_update":"2026-04-18T14:15:00Z","revoked_kids":["k-old"],"revoked_jtis":[]}`
	b64 := base64.RawURLEncoding.EncodeToString
	jws := func(header, body string) (string, string) {
		h, p := b64([]byte(header)), b64([]byte(body))
		sig := ed25519.Sign(key.(ed25519.PrivateKey), []byte(h+"."+p))
		return `{"payload":"` + p + `","signatures":[{"protected":"` + h + `","signature":"` + b64(sig) + `"}]}`, h + "." + p + "." + b64(sig)
	}
	hdr := `{"alg":"EdDSA","kid":"ops-1","typ":"adcp-gov-revocation+jws"}`
	flat, compact := jws(hdr, payload)
	for _, doc := range []string{flat, compact} {
		l, err := revocation.VerifyJWS(context.Background(), []byte(doc), ops, "https://ops.example")
		if err != nil {
			t.Fatal(err)
		}
		if len(l.RevokedKids) != 1 || l.RevokedKids[0] != "k-old" || !l.NextUpdate.Equal(time.Date(2026, 4, 18, 14, 15, 0, 0, time.UTC)) {
			t.Fatalf("%+v", l)
		}
	}
	wrongTyp, _ := jws(`{"alg":"EdDSA","kid":"ops-1","typ":"JWT"}`, payload)
	tampered := strings.Replace(flat, `"payload":"`, `"payload":"e`, 1)
	dupHeader, _ := jws(`{"alg":"EdDSA","kid":"ops-1","typ":"adcp-gov-revocation+jws","typ":"x"}`, payload)
	for name, doc := range map[string]string{
		"wrong typ":        wrongTyp,
		"tampered payload": tampered,
		"duplicate header": dupHeader,
		"other issuer":     flat,
	} {
		issuer := "https://ops.example"
		if name == "other issuer" {
			issuer = "https://elsewhere.example"
		}
		if _, err := revocation.VerifyJWS(context.Background(), []byte(doc), ops, issuer); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

var testNow = time.Unix(1776520800, 0)

// ParseList names the member a list gets wrong.
func TestParseListNamesTheMember(t *testing.T) {
	if _, err := revocation.ParseList([]byte(`{"issuer":"x","updated":"2026-01-01T00:00:00Z","next_update":"2026-01-02T00:00:00Z","revoked_kids":"k"}`)); err == nil || !strings.Contains(err.Error(), "revoked_kids is not an array") {
		t.Errorf("revoked_kids a string: %v", err)
	}
}
