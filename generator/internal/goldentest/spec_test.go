package goldentest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/generator/testdata/golden/foundation"
	"github.com/adcpgen/adcpgen/generator/testdata/golden/manifest"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// typeOf names a constructor's type, "<nil>" for nil.
func typeOf(newValue func() wire.Value) string {
	if newValue == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%T", newValue())
}

// The manifest golden's Spec carries what its manifest.json says, minus the
// entries whose schemas are not in the tree.
func TestSpecFromManifest(t *testing.T) {
	s := manifest.Spec()
	if s != manifest.Spec() {
		t.Fatal("Spec() builds a new value per call")
	}
	if s.Version() != "9.0.0-test" || s.Version() != manifest.SpecVersion {
		t.Errorf("version %q", s.Version())
	}
	var tools []string
	for _, tl := range s.Tools() {
		tools = append(tools, tl.Name)
	}
	if got := strings.Join(tools, ","); got != "create_thing,get_things" {
		t.Errorf("tools %s; not_generated has no schemas and must be left out", got)
	}
	create, ok := s.Tool("create_thing")
	if !ok || !create.Mutating || !create.IdempotencyRequired || !create.Deprecated || create.Protocol != "media-buy" ||
		create.RequestSchema != "media-buy/create-thing-request.json" || create.ResponseSchema != "media-buy/create-thing-response.json" {
		t.Errorf("create_thing: %+v", create)
	}
	if typeOf(create.NewRequest) != "*manifest.CreateThingRequest" || typeOf(create.NewResponse) != "*manifest.CreateThingResponse" {
		t.Errorf("create_thing types %s, %s", typeOf(create.NewRequest), typeOf(create.NewResponse))
	}
	if a, ok := create.AsyncFor("submitted"); !ok || a.Schema != "media-buy/create-thing-async-response-submitted.json" || typeOf(a.New) != "*manifest.CreateThingSubmitted" {
		t.Errorf("submitted: %+v", a)
	}
	get, _ := s.Tool("get_things")
	if get.Mutating || get.IdempotencyRequired || get.Deprecated || len(get.Async) != 0 {
		t.Errorf("get_things: %+v", get)
	}

	for code, want := range map[string]registry.Recovery{
		"RATE_LIMITED": registry.Transient, "THING_NOT_FOUND": registry.Correctable, "OLD_CODE": registry.Terminal,
	} {
		if got, ok := s.Recovery(code); !ok || got != want {
			t.Errorf("%s: %q, %v; want %s", code, got, ok, want)
		}
	}
	if _, ok := s.Recovery("X_VENDOR_CODE"); ok {
		t.Error("an unlisted code has a class")
	}
	if s.UnknownRecovery() != registry.Transient {
		t.Errorf("unknown recovery %q, want the manifest's transient", s.UnknownRecovery())
	}
	if codes := s.Codes(); len(codes) != 3 || !codes[0].Deprecated || codes[0].Code != "OLD_CODE" {
		t.Errorf("codes %+v", codes)
	}

	if d := s.NewDetails("RATE_LIMITED"); fmt.Sprintf("%T", d) != "*manifest.RateLimitedDetails" {
		t.Errorf("RATE_LIMITED details %T", d)
	}
	if d := s.NewDetails("THING_NOT_FOUND"); d != nil {
		t.Errorf("a code without a details shape gives %T, want a nil wire.Value", d)
	}

	var results []string
	for _, r := range s.WebhookResults() {
		results = append(results, r.TaskType+"="+r.Schema+"="+typeOf(r.New))
	}
	want := "create_thing=media-buy/create-thing-response.json=*manifest.CreateThingResponse," +
		"get_things=media-buy/get-things-response.json=*manifest.GetThingsResponse," +
		"thing_delivery=media-buy/thing-delivery-webhook-result.json=*manifest.ThingDeliveryResult"
	if got := strings.Join(results, ","); got != want {
		t.Errorf("webhook results\n got %s\nwant %s", got, want)
	}
	if _, ok := s.WebhookResult("absent_delivery"); ok {
		t.Error("an override whose schema is not in the tree has a result")
	}
	if v := s.NewBySchema("/schemas/9.0.0-test/core/thing.json"); fmt.Sprintf("%T", v) != "*manifest.Thing" {
		t.Errorf("NewBySchema(thing) %T", v)
	}
}

// A tree without a manifest, codes or webhook results gives an empty Spec:
// unlisted codes stay terminal (UnknownRecovery says nothing).
func TestSpecWithoutManifest(t *testing.T) {
	s := foundation.Spec()
	if len(s.Tools()) != 0 || len(s.Codes()) != 0 || len(s.WebhookResults()) != 0 || s.UnknownRecovery() != "" {
		t.Errorf("tools %v, codes %v, results %v, unknown %q", s.Tools(), s.Codes(), s.WebhookResults(), s.UnknownRecovery())
	}
	if v := s.NewBySchema("core/widget.json"); fmt.Sprintf("%T", v) != "*foundation.Widget" {
		t.Errorf("NewBySchema(widget) %T", v)
	}
}
