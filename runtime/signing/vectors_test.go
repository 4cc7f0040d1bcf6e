package signing_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"
	"github.com/adcpgen/adcpgen/runtime/signing/replay"
	"github.com/adcpgen/adcpgen/runtime/signing/revocation"

	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// The published RFC 9421 vectors, replayed by file name with each
// vector's own clock, keys, replay and revocation state: the loose copies
// published with 3.2.0-beta.5's compliance material, and the 3.0 copies in
// the 3.0.26 bundle. A vector the harness cannot run fails.

type vector struct {
	Name                  string `json:"name"`
	SigningProfileVersion string `json:"signing_profile_version"`
	ReferenceNow          int64  `json:"reference_now"`
	Request               struct {
		Method  string            `json:"method"`
		URL     string            `json:"url"`
		Headers map[string]string `json:"headers"`
		Body    string            `json:"body"`
	} `json:"request"`
	VerifierCapability *struct {
		Supported                  bool     `json:"supported"`
		CoversContentDigest        string   `json:"covers_content_digest"`
		RequiredFor                []string `json:"required_for"`
		WarnFor                    []string `json:"warn_for"`
		SupportedFor               []string `json:"supported_for"`
		ProtocolMethodsRequiredFor []string `json:"protocol_methods_required_for"`
	} `json:"verifier_capability"`
	JWKSRef               []string        `json:"jwks_ref"`
	JWKSOverride          json.RawMessage `json:"jwks_override"`
	TestHarnessState      json.RawMessage `json:"test_harness_state"`
	ExpectedSignatureBase string          `json:"expected_signature_base"`
	ExpectedOutcome       struct {
		Success   bool   `json:"success"`
		ErrorCode string `json:"error_code"`
	} `json:"expected_outcome"`
}

// vectorSet is one folder of vectors and how to run it.
type vectorSet struct {
	name    string
	fsys    fs.FS
	dir     string // holds keys.json
	subdirs []string
	kind    signing.ProfileKind
	version string // the AdCP version whose profile the verifier uses
	// keyVersion overrides version for a subdir ("profile-3.2" → "3.2").
	subVersion map[string]string
}

// looseSets are the vectors in test-vectors/, 3.2.0-beta.5's material.
func looseSets(t *testing.T) []vectorSet {
	fsys := os.DirFS(testspec.Path(t, "test-vectors"))
	return []vectorSet{
		{name: "request-signing", fsys: fsys, dir: "request-signing", kind: signing.Request, version: "3.1",
			subdirs:    []string{"positive", "negative", "profile-3.2/positive", "profile-3.2/negative"},
			subVersion: map[string]string{"profile-3.2/positive": "3.2", "profile-3.2/negative": "3.2"}},
		{name: "webhook-signing", fsys: fsys, dir: "webhook-signing", kind: signing.Webhook, version: "3.2.0-beta.5",
			subdirs: []string{"positive", "negative"}},
	}
}

// bundleSets are the 3.0 copies inside protocol/3.0.26.tgz, read with
// runtime/spec's bundle reader.
func bundleSets(t *testing.T) []vectorSet {
	tree, err := spec.OpenBundleFile(testspec.Path(t, "protocol", "3.0.26.tgz"))
	if err != nil {
		t.Fatal(err)
	}
	return []vectorSet{
		{name: "3.0.26/request-signing", fsys: tree.Bundle, dir: "compliance/test-vectors/request-signing", kind: signing.Request, version: "3.0.26",
			subdirs: []string{"positive", "negative"}},
		{name: "3.0.26/webhook-signing", fsys: tree.Bundle, dir: "compliance/test-vectors/webhook-signing", kind: signing.Webhook, version: "3.0.26",
			subdirs: []string{"positive", "negative"}},
	}
}

func TestVectors(t *testing.T) {
	counts := map[string]int{}
	for _, set := range append(looseSets(t), bundleSets(t)...) {
		vkeys := readKeys(t, set.fsys, path.Join(set.dir, "keys.json"))
		for _, sub := range set.subdirs {
			dir := path.Join(set.dir, sub)
			names, err := fs.Glob(set.fsys, dir+"/*.json")
			if err != nil || len(names) == 0 {
				t.Fatalf("%s: no vectors in %s (%v)", set.name, dir, err)
			}
			version := set.version
			if v, ok := set.subVersion[sub]; ok {
				version = v
			}
			for _, name := range names {
				t.Run(set.name+"/"+strings.TrimPrefix(name, set.dir+"/"), func(t *testing.T) {
					data, err := fs.ReadFile(set.fsys, name)
					if err != nil {
						t.Fatal(err)
					}
					var vec vector
					if err := json.Unmarshal(data, &vec); err != nil {
						t.Fatal(err)
					}
					runVector(t, set.kind, version, vkeys, &vec)
				})
				counts[set.name+"/"+sub]++
			}
		}
	}
	var lines []string
	total := 0
	for k, n := range counts {
		lines = append(lines, k+": "+strconv.Itoa(n))
		total += n
	}
	sort.Strings(lines)
	t.Logf("vectors replayed: %d\n%s", total, strings.Join(lines, "\n"))
}

func readKeys(t *testing.T, fsys fs.FS, name string) map[string]json.RawMessage {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]json.RawMessage{}
	for _, k := range doc.Keys {
		var id struct {
			Kid string `json:"kid"`
		}
		if err := json.Unmarshal(k, &id); err != nil {
			t.Fatal(err)
		}
		out[id.Kid] = k
	}
	return out
}

// vectorJWKS builds the verifier's view of the signer's JWKS: jwks_ref
// entries of keys.json, replaced by jwks_override ({"keys": [...]} or, in
// the webhook vectors, {kid: jwk}).
func vectorJWKS(t *testing.T, vkeys map[string]json.RawMessage, vec *vector) *keys.JWKS {
	var entries []json.RawMessage
	for _, kid := range vec.JWKSRef {
		k, ok := vkeys[kid]
		if !ok {
			t.Fatalf("jwks_ref names %q, which keys.json does not hold", kid)
		}
		entries = append(entries, k)
	}
	if len(vec.JWKSOverride) > 0 {
		var set struct {
			Keys []json.RawMessage `json:"keys"`
		}
		if err := json.Unmarshal(vec.JWKSOverride, &set); err == nil && set.Keys != nil {
			entries = set.Keys
		} else {
			var byKid map[string]json.RawMessage
			if err := json.Unmarshal(vec.JWKSOverride, &byKid); err != nil {
				t.Fatalf("jwks_override: %v", err)
			}
			entries = nil
			for _, kid := range vec.JWKSRef {
				if o, ok := byKid[kid]; ok {
					entries = append(entries, o)
				} else {
					entries = append(entries, vkeys[kid])
				}
			}
		}
	}
	doc, _ := json.Marshal(map[string]any{"keys": entries})
	set, err := keys.ParseJWKS(doc)
	if err != nil {
		t.Fatalf("JWKS: %v", err)
	}
	return set
}

// harnessState is every test_harness_state shape the two READMEs define.
type harnessState struct {
	ReplayCacheEntries []struct {
		KeyID      string `json:"keyid"`
		Nonce      string `json:"nonce"`
		TTLSeconds int    `json:"ttl_seconds"`
	} `json:"replay_cache_entries"`
	ReplayCachePerKeyidCapHit *struct {
		KeyID string `json:"keyid"`
	} `json:"replay_cache_per_keyid_cap_hit"`
	RevocationList             json.RawMessage `json:"revocation_list"`
	RevokedKids                []string        `json:"revoked_kids"`
	PerKeyidCapFilledFor       string          `json:"per_keyid_cap_filled_for"`
	RevocationListStaleSeconds int64           `json:"revocation_list_stale_seconds"`
}

var knownState = map[string]bool{"$comment": true, "replay_cache_entries": true, "replay_cache_per_keyid_cap_hit": true,
	"revocation_list": true, "revoked_kids": true, "per_keyid_cap_filled_for": true, "revocation_list_stale_seconds": true}

// harnessCap is the per-keyid cap the harness configures; "cap hit"
// vectors fill it with placeholder nonces.
const harnessCap = 4

func vectorMessage(vec *vector) *signing.Message {
	h := http.Header{}
	for k, v := range vec.Request.Headers {
		h.Set(k, v)
	}
	return &signing.Message{Method: vec.Request.Method, URL: vec.Request.URL, Header: h, Body: []byte(vec.Request.Body)}
}

func runVector(t *testing.T, kind signing.ProfileKind, version string, vkeys map[string]json.RawMessage, vec *vector) {
	ctx := context.Background()
	now := time.Unix(vec.ReferenceNow, 0)
	if vec.ReferenceNow == 0 {
		t.Fatal("vector has no reference_now")
	}
	if vec.SigningProfileVersion != "" && kind == signing.Request {
		version = vec.SigningProfileVersion
	}
	var profile signing.Profile
	var err error
	if kind == signing.Request {
		profile, err = signing.RequestProfile(version)
		if err == nil && vec.VerifierCapability != nil && vec.VerifierCapability.CoversContentDigest != "" && profile.Encoding() == signing.EncodingLegacy {
			profile, err = profile.WithDigest(signing.DigestPolicy(vec.VerifierCapability.CoversContentDigest))
		}
	} else {
		profile, err = signing.WebhookProfile(version)
	}
	if err != nil {
		t.Fatal(err)
	}

	replay := replay.NewLocal(0)
	opts := signing.VerifierOptions{
		Profile:     profile,
		Keys:        keys.Static{Set: vectorJWKS(t, vkeys, vec), AgentURL: "https://agent.example.com"},
		Replay:      replay,
		ReplayLimit: harnessCap,
		Now:         func() time.Time { return now },
	}
	if len(vec.TestHarnessState) > 0 {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(vec.TestHarnessState, &raw); err != nil {
			t.Fatal(err)
		}
		for k := range raw {
			if !knownState[k] {
				t.Fatalf("test_harness_state.%s: the harness cannot install this state", k)
			}
		}
		var st harnessState
		if err := json.Unmarshal(vec.TestHarnessState, &st); err != nil {
			t.Fatal(err)
		}
		for _, e := range st.ReplayCacheEntries {
			ttl := time.Duration(e.TTLSeconds) * time.Second
			if ttl == 0 {
				ttl = 360 * time.Second
			}
			mustInsert(t, replay, e.KeyID, e.Nonce, now.Add(ttl), now)
		}
		capped := st.PerKeyidCapFilledFor
		if st.ReplayCachePerKeyidCapHit != nil {
			capped = st.ReplayCachePerKeyidCapHit.KeyID
		}
		if capped != "" {
			for i := 0; i < harnessCap; i++ {
				mustInsert(t, replay, capped, "placeholder-nonce-"+strconv.Itoa(i), now.Add(5*time.Minute), now)
			}
		}
		switch {
		case len(st.RevocationList) > 0:
			l, err := revocation.ParseList(st.RevocationList)
			if err != nil {
				t.Fatal(err)
			}
			r := &revocation.Feed{}
			r.Update(l, now)
			opts.Revocation = r
		case st.RevokedKids != nil:
			r := revocation.Fixed{}
			for _, k := range st.RevokedKids {
				r[k] = true
			}
			opts.Revocation = r
		case st.RevocationListStaleSeconds > 0:
			// The last refresh was that long ago, of a list whose polling
			// interval (a tenth of it) puts next_update + 4 intervals well
			// before now.
			fetched := now.Add(-time.Duration(st.RevocationListStaleSeconds) * time.Second)
			interval := time.Duration(st.RevocationListStaleSeconds) * time.Second / 10
			r := &revocation.Feed{}
			r.Update(&revocation.List{Updated: fetched, NextUpdate: fetched.Add(interval)}, fetched)
			opts.Revocation = r
		}
	}
	v, err := signing.NewVerifier(opts)
	if err != nil {
		t.Fatal(err)
	}
	m := vectorMessage(vec)

	// The base is the request's on positive vectors and on the
	// signature-invalid catchers; other negatives carry the base of the
	// request before it was broken.
	if vec.ExpectedSignatureBase != "" && (vec.ExpectedOutcome.Success || strings.HasSuffix(vec.ExpectedOutcome.ErrorCode, "_signature_invalid")) {
		base, err := signing.SignatureBase(m)
		if err != nil {
			t.Errorf("signature base: %v", err)
		} else if base != vec.ExpectedSignatureBase {
			t.Errorf("signature base differs:\n got %q\nwant %q", base, vec.ExpectedSignatureBase)
		}
	}

	// The pre-check's mode: the operation from the /adcp/<op> route, or
	// the JSON-RPC call the body makes, against the advertised lists. The
	// harness's verifier accepts no other credential.
	mode := signing.ModeNone
	if c := vec.VerifierCapability; kind == signing.Request && c != nil {
		pol := signing.OperationPolicy{
			SupportedFor: union(c.SupportedFor, c.RequiredFor, c.WarnFor), WarnFor: c.WarnFor, RequiredFor: c.RequiredFor,
			ProtocolMethodsSupportedFor: c.ProtocolMethodsRequiredFor, ProtocolMethodsRequiredFor: c.ProtocolMethodsRequiredFor,
		}
		if err := pol.Validate(); err != nil {
			t.Fatal(err)
		}
		call := signing.InvocationFromJSONRPC(m.Body)
		if call == (signing.Invocation{}) {
			if i := strings.Index(vec.Request.URL, "/adcp/"); i >= 0 {
				call.Operation = path.Base(vec.Request.URL[i:])
			}
		}
		mode = pol.Mode(call)
	}
	d := v.Decide(ctx, m, mode, false)
	if vec.ExpectedOutcome.Success {
		if d.Verdict != signing.Accept || d.Signer == nil {
			t.Fatalf("want a verified signer, got %s: %v", d.Verdict, d.Err)
		}
		if d.Signer.AgentURL != "https://agent.example.com" {
			t.Errorf("agent URL %q", d.Signer.AgentURL)
		}
		resignVector(t, profile, vkeys, vec, m)
		return
	}
	if d.Verdict != signing.Reject {
		t.Fatalf("want a rejection with %s, got %s (%v)", vec.ExpectedOutcome.ErrorCode, d.Verdict, d.Err)
	}
	if got := signing.CodeOf(d.Err); string(got) != vec.ExpectedOutcome.ErrorCode {
		t.Fatalf("code %s, want %s (%v)", got, vec.ExpectedOutcome.ErrorCode, d.Err)
	}
}

func union(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		for _, s := range l {
			if !contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func mustInsert(t *testing.T, r replay.Ledger, keyID, nonce string, exp, now time.Time) {
	t.Helper()
	res, err := r.Insert(context.Background(), keyID, nonce, exp, harnessCap, now)
	if err != nil || res != replay.Inserted {
		t.Fatalf("preloading the replay cache: %v %v", res, err)
	}
}

// resignVector signs the positive vector's request again with the
// keys.json private key, its created time and nonce, and checks the
// Signature bytes (Ed25519 is deterministic; ECDSA is checked by
// verifying our signature instead) and Content-Digest.
func resignVector(t *testing.T, p signing.Profile, vkeys map[string]json.RawMessage, vec *vector, received *signing.Message) {
	t.Helper()
	base, _ := signing.SignatureBase(received)
	params := base[strings.LastIndex(base, "\n")+1:]
	kid := paramValue(params, "keyid")
	nonce, err := base64.RawURLEncoding.DecodeString(paramValue(params, "nonce"))
	if err != nil {
		t.Fatal(err)
	}
	key, _ := privateKey(t, vkeys[kid])
	if strings.Contains(received.Header.Get("Signature-Input"), `"content-digest"`) && p.Kind() == signing.Request && p.Encoding() == signing.EncodingLegacy {
		p, _ = p.WithDigest(signing.DigestRequired)
	}
	if !strings.Contains(received.Header.Get("Signature-Input"), `"content-digest"`) && p.Kind() == signing.Request && p.Encoding() == signing.EncodingLegacy {
		p, _ = p.WithDigest(signing.DigestEither)
	}
	s, err := signing.NewSigner(signing.SignerOptions{
		Profile: p, KeyID: kid, Key: key,
		Now:  func() time.Time { return time.Unix(vec.ReferenceNow, 0) },
		Rand: io.MultiReader(bytes.NewReader(nonce), strings.NewReader(strings.Repeat("r", 256))),
	})
	if err != nil {
		t.Fatal(err)
	}
	h := http.Header{}
	h.Set("Content-Type", received.Header.Get("Content-Type"))
	m := &signing.Message{Method: vec.Request.Method, URL: vec.Request.URL, Header: h, Body: received.Body}
	if err := s.Sign(m); err != nil {
		t.Fatal(err)
	}
	if d := received.Header.Get("Content-Digest"); d != "" && m.Header.Get("Content-Digest") != d {
		t.Errorf("Content-Digest %q, the vector's %q", m.Header.Get("Content-Digest"), d)
	}
	got := firstLabel(m.Header.Get("Signature"))
	want := firstLabel(received.Header.Get("Signature"))
	if s.Algorithm() == keys.Ed25519 && got != want {
		t.Errorf("Signature %q, the vector's %q", got, want)
	}
	if gotBase, _ := signing.SignatureBase(m); gotBase != base {
		t.Errorf("our signature base:\n%q\nthe vector's:\n%q", gotBase, base)
	}
}

func firstLabel(v string) string {
	if i := strings.Index(v, ","); i >= 0 {
		return v[:i]
	}
	return v
}

func paramValue(params, name string) string {
	i := strings.Index(params, ";"+name+"=")
	if i < 0 {
		return ""
	}
	v := params[i+len(name)+2:]
	if j := strings.IndexByte(v, ';'); j >= 0 {
		v = v[:j]
	}
	return strings.Trim(v, `"`)
}
