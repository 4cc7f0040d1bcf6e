package generator

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/adcpgen/adcpgen/generated/adcp"
	"github.com/adcpgen/adcpgen/internal/buyertest/tinyadcp"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/schemas"
)

// specTable is what a Spec says about its version, without constructors.
type specTable struct {
	Version  string
	Tools    registry.Tools
	Codes    registry.ErrorCodes
	Unknown  registry.Recovery
	Webhooks []registry.WebhookResult
}

func tableOf(s *registry.Spec) specTable {
	t := specTable{Version: s.Version(), Codes: s.Codes(), Unknown: s.UnknownRecovery()}
	for _, tool := range s.Tools() {
		tool.NewRequest, tool.NewResponse = nil, nil
		async := tool.Async
		tool.Async = nil
		for _, a := range async {
			a.New = nil
			tool.Async = append(tool.Async, a)
		}
		t.Tools = append(t.Tools, tool)
	}
	for _, w := range s.WebhookResults() {
		w.New = nil
		t.Webhooks = append(t.Webhooks, w)
	}
	return t
}

// SpecTable gives the tables of the Spec the generated package exports:
// the committed core package and the buyer tests' package, each against a
// fresh SpecTable of the tree it was generated from.
func TestSpecTableMatchesGeneratedSpec(t *testing.T) {
	embedded, err := spec.OpenFS(schemas.FS, "embedded", spec.KindEmbedded)
	if err != nil {
		t.Fatal(err)
	}
	embedded.Version = schemas.Version
	buyerTree, err := spec.Open(filepath.Join("..", "internal", "buyertest", "testdata", "schemas"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		tree      *spec.Tree
		generated *registry.Spec
	}{
		{"core", embedded, adcp.Spec()},
		{"buyertest", buyerTree, tinyadcp.Spec()},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, _, err := SpecTable(c.tree)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := tableOf(got), tableOf(c.generated); !reflect.DeepEqual(g, w) {
				t.Errorf("SpecTable:\n%+v\ngenerated Spec():\n%+v", g, w)
			}
			for _, tool := range got.Tools() {
				if tool.NewRequest != nil || tool.NewResponse != nil {
					t.Errorf("%s: SpecTable has constructors", tool.Name)
				}
			}
		})
	}
	if len(tinyadcp.Spec().Tools()) == 0 {
		t.Fatal("the buyer tests' package has no tools: the comparison proves nothing")
	}
}

// A tree without a manifest gets the table Generate derives from its
// layout, and says what it could not tell.
func TestSpecTableDerived(t *testing.T) {
	s, missing, err := SpecTable(openCorpus(t, "protocol/3.0.0.tgz"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Version() != "3.0.0" {
		t.Errorf("version %q", s.Version())
	}
	tool, ok := s.Tool("create_media_buy")
	if !ok {
		t.Fatal("no create_media_buy")
	}
	if tool.RequestSchema != "media-buy/create-media-buy-request.json" || tool.ResponseSchema != "media-buy/create-media-buy-response.json" {
		t.Errorf("create_media_buy schemas %q %q", tool.RequestSchema, tool.ResponseSchema)
	}
	if a, ok := tool.AsyncFor("submitted"); !ok || a.Schema != "media-buy/create-media-buy-async-response-submitted.json" {
		t.Errorf("create_media_buy submitted: %+v %v", a, ok)
	}
	if !tool.IdempotencyRequired {
		t.Error("create_media_buy: its request schema requires idempotency_key, the table does not")
	}
	if r, ok := s.Recovery("RATE_LIMITED"); !ok || r != registry.Transient {
		t.Errorf("RATE_LIMITED: %q %v", r, ok)
	}
	if len(missing) == 0 {
		t.Error("a derived table says nothing is missing")
	}
}

func TestSpecTableNilTree(t *testing.T) {
	if _, _, err := SpecTable(nil); err == nil {
		t.Error("no error for a nil tree")
	}
}

// Manifests before 3.2 say nothing of idempotency_requirement; a tool
// whose request schema requires idempotency_key requires one all the same.
func TestSpecTableKeyRequiredBySchema(t *testing.T) {
	for _, source := range []string{"protocol/3.0.26.tgz", "schemas/3.1.19", "schemas/3.2.0-beta.3", "schemas/3.2.0-beta.5"} {
		s, _, err := SpecTable(openCorpus(t, source))
		if err != nil {
			t.Fatal(err)
		}
		for name, want := range map[string]bool{"create_media_buy": true, "update_media_buy": true, "sync_creatives": true, "get_products": false} {
			tool, ok := s.Tool(name)
			if !ok || tool.IdempotencyRequired != want {
				t.Errorf("%s: %s: IdempotencyRequired %v (found %v), want %v", source, name, tool.IdempotencyRequired, ok, want)
			}
		}
	}
}
