package seller

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Identity is what an agent publishes so that counterparties find the
// keys its signatures verify with (security.mdx "Agent key publication",
// "Discovering an agent's signing keys via brand_json_url"): the
// operator's brand.json, whose agents[] entry with the agent's URL names a
// jwks_uri, and the JWKS served there. Its Handler serves both.
type Identity struct {
	// BrandJSONURL is where brand.json is served
	// (https://seller.example/.well-known/brand.json): the
	// identity.brand_json_url the agent advertises (Options.BrandJSONURL).
	BrandJSONURL string
	// Agents are brand.json's agents[] entries.
	Agents []IdentityAgent
	// Keys is the JWKS served at the agents' JWKSURI: public keys only
	// (its JSON form has no private member), each with the purpose
	// members keys.GenerateKey sets.
	Keys *keys.JWKS
}

// IdentityAgent is one agents[] entry of brand.json.
type IdentityAgent struct {
	// Type is the agent's role (enums/brand-agent-type: "sales",
	// "buying", "signals", ...).
	Type string
	// URL is the agent's endpoint exactly as counterparties call it: a
	// verifier looks for the entry whose url is byte-equal to the URL it
	// discovered the agent by.
	URL string
	// ID is the entry's id (lowercase letters, digits and "_").
	ID string
	// JWKSURI is where its keys are ("" is /.well-known/jwks.json at the
	// URL's origin, as verifiers default it).
	JWKSURI string
}

// Handler serves brand.json at BrandJSONURL's path and the JWKS at the
// path of every JWKSURI (documents on other origins are the operator's to
// serve), GET and HEAD only, as application/json that caches for five
// minutes (the JWKS cache bound verifiers apply). Mount it at the origin
// of those URLs. It fails on URLs that do not parse, an agent without a
// URL or ID, or keys that cannot be published.
func (id *Identity) Handler() (http.Handler, error) {
	docs := map[string][]byte{}
	brand, err := id.brandJSON()
	if err != nil {
		return nil, err
	}
	if id.BrandJSONURL != "" {
		u, err := url.Parse(id.BrandJSONURL)
		if err != nil || u.Path == "" {
			return nil, fmt.Errorf("seller: Identity.BrandJSONURL %q: not a URL with a path", id.BrandJSONURL)
		}
		docs[u.Path] = brand
	}
	if id.Keys != nil {
		jwks, err := id.Keys.MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("seller: Identity.Keys: %w", err)
		}
		for _, a := range id.Agents {
			u, err := url.Parse(jwksURI(a))
			if err != nil {
				return nil, fmt.Errorf("seller: Identity agent %s: jwks_uri: %w", a.URL, err)
			}
			docs[u.Path] = jwks
		}
	}
	if len(docs) == 0 {
		return nil, errors.New("seller: Identity: nothing to serve (no BrandJSONURL, no Keys)")
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		doc, ok := docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "max-age=300")
		if r.Method == http.MethodGet {
			_, _ = w.Write(doc)
		}
	}), nil
}

// jwksURI is an agent's jwks_uri, or the default verifiers apply.
func jwksURI(a IdentityAgent) string {
	if a.JWKSURI != "" {
		return a.JWKSURI
	}
	u, err := url.Parse(a.URL)
	if err != nil {
		return a.URL
	}
	return u.Scheme + "://" + u.Host + "/.well-known/jwks.json"
}

// brandJSON is the brand.json of the Brand Agent form: {"version",
// "agents": [{type, url, id, jwks_uri}]}.
func (id *Identity) brandJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"version":"1.0","agents":[`)
	for i, a := range id.Agents {
		if a.URL == "" || a.ID == "" || a.Type == "" {
			return nil, fmt.Errorf("seller: Identity agent %d: Type, URL and ID are required", i)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"type":`)
		b.Write(wire.AppendQuoted(nil, a.Type))
		b.WriteString(`,"url":`)
		b.Write(wire.AppendQuoted(nil, a.URL))
		b.WriteString(`,"id":`)
		b.Write(wire.AppendQuoted(nil, a.ID))
		b.WriteString(`,"jwks_uri":`)
		b.Write(wire.AppendQuoted(nil, jwksURI(a)))
		b.WriteByte('}')
	}
	b.WriteString(`]}`)
	return b.Bytes(), nil
}
