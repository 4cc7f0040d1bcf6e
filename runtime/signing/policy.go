package signing

import (
	"fmt"
	"slices"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// OperationPolicy is an endpoint's request_signing operation lists (security.mdx
// "Transport capability advertisement"): which AdCP operations, and which
// JSON-RPC protocol methods, it verifies signatures for, shadows, or
// requires them on. The two namespaces never mix: operation names have no
// "/", protocol methods (tasks/cancel) always have one.
type OperationPolicy struct {
	SupportedFor []string
	WarnFor      []string
	RequiredFor  []string

	ProtocolMethodsSupportedFor []string
	ProtocolMethodsWarnFor      []string
	ProtocolMethodsRequiredFor  []string
}

// Validate refuses lists that break the namespace split (a verifier MUST
// reject them at configuration time rather than coerce), and the
// capability schema's x-adcp-validation rules: required and warn entries
// are supported ones, and no entry is both required and warn.
func (p *OperationPolicy) Validate() error {
	check := func(field string, names []string, method bool) error {
		for _, n := range names {
			if n == "" || strings.Contains(n, "/") != method {
				if method {
					return fmt.Errorf("signing: policy %s: %q is not a JSON-RPC method (they hold a \"/\")", field, n)
				}
				return fmt.Errorf("signing: policy %s: %q is not an AdCP operation name (those hold no \"/\")", field, n)
			}
		}
		return nil
	}
	for _, f := range []struct {
		name   string
		list   []string
		method bool
	}{
		{"supported_for", p.SupportedFor, false}, {"warn_for", p.WarnFor, false}, {"required_for", p.RequiredFor, false},
		{"protocol_methods_supported_for", p.ProtocolMethodsSupportedFor, true},
		{"protocol_methods_warn_for", p.ProtocolMethodsWarnFor, true},
		{"protocol_methods_required_for", p.ProtocolMethodsRequiredFor, true},
	} {
		if err := check(f.name, f.list, f.method); err != nil {
			return err
		}
	}
	subset := func(field string, names, of []string, ofName string) error {
		for _, n := range names {
			if !slices.Contains(of, n) {
				return fmt.Errorf("signing: policy %s lists %q, which %s does not", field, n, ofName)
			}
		}
		return nil
	}
	if err := subset("required_for", p.RequiredFor, p.SupportedFor, "supported_for"); err != nil {
		return err
	}
	if err := subset("warn_for", p.WarnFor, p.SupportedFor, "supported_for"); err != nil {
		return err
	}
	if err := subset("protocol_methods_required_for", p.ProtocolMethodsRequiredFor, p.ProtocolMethodsSupportedFor, "protocol_methods_supported_for"); err != nil {
		return err
	}
	if err := subset("protocol_methods_warn_for", p.ProtocolMethodsWarnFor, p.ProtocolMethodsSupportedFor, "protocol_methods_supported_for"); err != nil {
		return err
	}
	for _, pair := range [][2][]string{{p.WarnFor, p.RequiredFor}, {p.ProtocolMethodsWarnFor, p.ProtocolMethodsRequiredFor}} {
		for _, n := range pair[0] {
			if slices.Contains(pair[1], n) {
				return fmt.Errorf("signing: policy lists %q both as warn and as required", n)
			}
		}
	}
	return nil
}

// Mode is how an endpoint treats signatures on one call.
type Mode uint8

const (
	// ModeNone: the call is on no list; a signature present is still
	// verified (a signed request is judged on its merits), an absent one is
	// not asked for.
	ModeNone Mode = iota
	// ModeSupported: signatures are verified when present.
	ModeSupported
	// ModeWarn: shadow mode; a well-formed signature that fails is recorded
	// and the call proceeds only on another valid credential.
	ModeWarn
	// ModeRequired: a call with no signature and no other valid credential
	// is refused with request_signature_required.
	ModeRequired
)

func (m Mode) String() string {
	return [...]string{"none", "supported_for", "warn_for", "required_for"}[m]
}

// Invocation names what a request invokes: an AdCP operation (an MCP tools/call
// params.name, an A2A skill) or a JSON-RPC protocol method (tasks/cancel).
// Set one of the two.
type Invocation struct {
	Operation string
	Method    string
}

// Mode returns the call's mode: required_for > warn_for > supported_for,
// each list matched in the call's own namespace only.
func (p *OperationPolicy) Mode(c Invocation) Mode {
	req, warn, sup := p.RequiredFor, p.WarnFor, p.SupportedFor
	name := c.Operation
	if c.Operation == "" {
		req, warn, sup = p.ProtocolMethodsRequiredFor, p.ProtocolMethodsWarnFor, p.ProtocolMethodsSupportedFor
		name = c.Method
	}
	switch {
	case name == "":
		return ModeNone
	case slices.Contains(req, name):
		return ModeRequired
	case slices.Contains(warn, name):
		return ModeWarn
	case slices.Contains(sup, name):
		return ModeSupported
	}
	return ModeNone
}

// InvocationFromJSONRPC reads the call a JSON-RPC request body makes: an MCP
// tools/call names the operation in params.name; any other method is a
// protocol method. A body that is not a JSON-RPC request names nothing.
func InvocationFromJSONRPC(body []byte) Invocation {
	v, err := wire.ParseLenient(body)
	if err != nil {
		return Invocation{}
	}
	method, ok := v.Get("method").AsString()
	if !ok || method == "" {
		return Invocation{}
	}
	if method == "tools/call" {
		name, _ := v.Get("params").Get("name").AsString()
		return Invocation{Operation: name}
	}
	return Invocation{Method: method}
}

// CarriesWebhookAuthentication reports whether a request body registers a
// webhook with an authentication block, anywhere in it:
// push_notification_config.authentication, or an entry of a
// notification_configs array (accounts[] and sync_agent_notification_configs)
// with authentication. A seller that supports request signing requires such
// a request to be signed whatever its operation (security.mdx "Downgrade
// and injection resistance"). Every occurrence of a repeated key is looked
// at. A body that is not JSON carries none.
func CarriesWebhookAuthentication(body []byte) bool {
	v, err := wire.ParseLenient(body)
	if err != nil {
		return false
	}
	return carriesAuth(v)
}

func hasAuth(cfg wire.Lenient) bool {
	found := false
	cfg.Members(func(k, val wire.Lenient) bool {
		if k.StringIs("authentication") && val.Present() && !val.IsNull() {
			found = true
		}
		return !found
	})
	return found
}

func carriesAuth(v wire.Lenient) bool {
	found := false
	switch {
	case v.IsObject():
		v.Members(func(k, val wire.Lenient) bool {
			switch {
			case k.StringIs("push_notification_config") && val.IsObject() && hasAuth(val):
				found = true
			case k.StringIs("notification_configs") && val.IsArray():
				val.Elems(func(e wire.Lenient) bool {
					found = e.IsObject() && hasAuth(e)
					return !found
				})
			}
			if !found {
				found = carriesAuth(val)
			}
			return !found
		})
	case v.IsArray():
		v.Elems(func(e wire.Lenient) bool {
			found = carriesAuth(e)
			return !found
		})
	}
	return found
}
