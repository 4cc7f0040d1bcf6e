package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"time"

	"example.com/seller/adcp"
	"example.com/seller/adcp31"
	"example.com/seller/adcp32"

	"github.com/adcpgen/adcpgen/runtime/formatdecl"
	"github.com/adcpgen/adcpgen/runtime/idempotency"
	"github.com/adcpgen/adcpgen/runtime/notifyconfig"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/release"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/sellertask"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/validate"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// The seller is written once, against AdCP 3.0.26 (its handlers, in
// tools.go). It serves the later releases from the same handlers: each
// has a server of its own (its generated package's Spec, its embedded
// schema tree, its idempotency layer), whose tools are the 3.0.26
// handlers' through seller.Bridge (requests read as 3.0.26's, answers
// converted back and checked against the release's schemas), and the
// servers share one endpoint (AddRelease): every call is answered in the
// release the buyer's adcp_version resolves to, 3.0 when it names none.
// A tool a release changes beyond what maps mechanically gets a shim
// (shims below) or a handler of that release, registered before Bridge.

// laterReleases are the releases served through the 3.0.26 handlers, each
// with its shims by tool.
var laterReleases = []struct {
	spec  func() *registry.Spec
	shims map[string]seller.Shim
	// edge is the release's own middleware, on the sales it answers from
	// (nil for none).
	edge func(*sales) seller.Middleware
	// caps adds what the release's capabilities declare beyond 3.1's (nil
	// for nothing).
	caps func(json.RawMessage) (json.RawMessage, error)
	// serve serves the release's own tools on its server (nil for none).
	serve func(*seller.Server, *sales) error
	// products completes the release's get_products answers after
	// catalogForms (nil for nothing).
	products func(*sales) func(*seller.Call, task.Status, json.RawMessage) (json.RawMessage, error)
}{
	{spec: adcp31.Spec, shims: shims31},
	{spec: adcp32.Spec, shims: shims32, edge: edge32, caps: caps32, serve: agentNotifications, products: configuredOffers},
}

// caps32 is what 3.2's capabilities declare beyond 3.1's: the accounts'
// currency modes, materialized localization and the capability-change
// notifications.
func caps32(caps json.RawMessage) (json.RawMessage, error) {
	caps, err := currencyModes(caps)
	if err != nil {
		return nil, err
	}
	c := wire.Lenient(caps)
	creative, ok := c.Get("creative").WithMember("localization", []byte(localizationCapability))
	if !ok {
		return nil, errors.New("the capabilities' creative block is not a JSON object")
	}
	if caps, ok = c.WithMember("creative", creative); !ok {
		return nil, errors.New("the capabilities are not a JSON object")
	}
	return capabilityChanges(caps)
}

// capabilityChanges declares, from 3.2, the capability-change
// notifications agentNotifications takes subscribers for
// (adcp.capability_changes), fenced by the revision of the rest of the
// document.
func capabilityChanges(caps json.RawMessage) (json.RawMessage, error) {
	c := wire.Lenient(caps)
	adcpBlock, ok := c.Get("adcp").WithMember("capability_changes", notifyconfig.CapabilityChanges(notifyconfig.CapabilitiesVersion(caps), time.Hour))
	if !ok {
		return nil, errors.New("the capabilities' adcp block is not a JSON object")
	}
	out, ok := c.WithMember("adcp", adcpBlock)
	if !ok {
		return nil, errors.New("the capabilities are not a JSON object")
	}
	return out, nil
}

// agentNotifications serves 3.2's sync_agent_notification_configs: each
// caller's agent-level subscribers (capabilities.changed), kept beside the
// accounts' and checked against the same URL policy.
func agentNotifications(srv *seller.Server, s *sales) error {
	return notifyconfig.ServeAgentTool(srv, s.notify, notifyconfig.AgentToolOptions{URLs: s.webhookURLs})
}

// currencyModes declares, from 3.2, how this seller's accounts take a
// currency (account.supported_account_currency_modes): per media buy, each
// buy in the currency of its pricing option; an account holds none.
func currencyModes(caps json.RawMessage) (json.RawMessage, error) {
	c := wire.Lenient(caps)
	account, ok := c.Get("account").WithMember("supported_account_currency_modes", []byte(`["per_media_buy"]`))
	if !ok {
		return nil, errors.New("the capabilities' account block is not a JSON object")
	}
	out, ok := c.WithMember("account", account)
	if !ok {
		return nil, errors.New("the capabilities are not a JSON object")
	}
	return out, nil
}

// shims31 adapt what 3.1 changed beyond what maps mechanically (it holds
// for 3.2 too), each where the 3.0.26 answer cannot say it:
//   - create_media_buy and update_media_buy: the media buy's status, 3.0's
//     top-level status, is media_buy_status from 3.1, where status is the
//     task's (the protocol envelope's, which the framework fills);
//   - build_creative: a canonical build's manifest names its format_kind
//     (build.go);
//   - sync_creatives: 3.1's pixel_tracker assets are 3.0's tracker URLs;
//   - get_products: cache_scope, required from 3.1 on every answer with
//     products (the buyer's cache key): this seller prices every account
//     off its published rate card, so "public".
var shims31 = map[string]seller.Shim{
	"create_media_buy": {Response: mediaBuyStatus},
	"update_media_buy": {Response: mediaBuyStatus},
	"get_products":     {Request: withoutFields, Response: chain(publicCacheScope, canonicalOnlyFormats, divergentFormats)},
	"sync_accounts":    {Request: settingsUpdate},
	"build_creative":   {Response: canonicalBuild},
	"sync_creatives":   {Request: pixelTrackers},
}

// settingsUpdate makes 3.1's settings-update entries of sync_accounts
// (account, an existing account's reference, in place of brand, operator
// and billing) readable as 3.0's, whose entries all provision: the
// reference leaves, and placeholders fill the three members 3.0 requires.
// The handler reads the entry as the buyer sent it (accounts.go) and
// updates the account it names, never reading the placeholders. A
// provisioning entry without billing (optional from 3.1) gets the only
// billing this seller offers, operator.
func settingsUpdate(args json.RawMessage) (json.RawMessage, error) {
	var req map[string]json.RawMessage
	if err := json.Unmarshal(args, &req); err != nil {
		return nil, err
	}
	var accounts []map[string]json.RawMessage
	if err := json.Unmarshal(req["accounts"], &accounts); err != nil {
		return args, nil // not an array: the strict read says so
	}
	changed := false
	for _, a := range accounts {
		if a == nil {
			continue
		}
		if _, ok := a["account"]; ok {
			delete(a, "account")
			a["brand"], a["operator"] = json.RawMessage(`{"domain":"settings-update.invalid"}`), json.RawMessage(`"settings-update.invalid"`)
			changed = true
		}
		if _, ok := a["billing"]; !ok {
			a["billing"] = json.RawMessage(`"operator"`)
			changed = true
		}
	}
	if !changed {
		return args, nil
	}
	req["accounts"], _ = json.Marshal(accounts)
	return json.Marshal(req)
}

// chain applies response shims in turn.
func chain(shims ...func(task.Status, json.RawMessage) (json.RawMessage, error)) func(task.Status, json.RawMessage) (json.RawMessage, error) {
	return func(status task.Status, p json.RawMessage) (json.RawMessage, error) {
		var err error
		for _, s := range shims {
			if p, err = s(status, p); err != nil {
				return nil, err
			}
		}
		return p, nil
	}
}

// withoutFields drops get_products' and (3.2) list_creatives' fields,
// whose later releases name members 3.0's enum lacks (format_options,
// localization): this seller answers every member whatever the buyer
// selects, which fields allows (the identifying members always come; a
// seller may send more).
func withoutFields(args json.RawMessage) (json.RawMessage, error) {
	v := wire.Lenient(args)
	if !v.Get("fields").Present() {
		return args, nil
	}
	out, ok := v.WithoutMember("fields")
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	return out, nil
}

// canonicalOnlyFormats leaves out the empty format_ids of a product that
// declares format_options (a canonical-format product of 3.1 and later,
// which names no legacy format: 3.0 requires format_ids, so the handler's
// product carries an empty one).
func canonicalOnlyFormats(status task.Status, p json.RawMessage) (json.RawMessage, error) {
	if status != task.Completed || !wire.Lenient(p).Get("products").IsArray() {
		return p, nil
	}
	var resp map[string]json.RawMessage
	if err := json.Unmarshal(p, &resp); err != nil {
		return nil, err
	}
	var products []map[string]json.RawMessage
	if err := json.Unmarshal(resp["products"], &products); err != nil {
		return nil, err
	}
	changed := false
	for _, pr := range products {
		if wire.Lenient(pr["format_options"]).IsArray() && string(pr["format_options"]) != "[]" && string(pr["format_ids"]) == "[]" {
			delete(pr, "format_ids")
			changed = true
		}
	}
	if !changed {
		return p, nil
	}
	resp["products"], _ = json.Marshal(products)
	return json.Marshal(resp)
}

// mediaBuyStatus moves a 3.0 success's status, the media buy's, to
// media_buy_status.
func mediaBuyStatus(status task.Status, p json.RawMessage) (json.RawMessage, error) {
	v := wire.Lenient(p)
	st := v.Get("status")
	if status != task.Completed || !st.Present() || v.Get("media_buy_status").Present() {
		return p, nil
	}
	out, _ := v.WithoutMember("status")
	out, ok := wire.Lenient(out).WithMember("media_buy_status", st.Raw())
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	return out, nil
}

// publicCacheScope adds cache_scope "public" to a completed get_products
// answer.
func publicCacheScope(status task.Status, p json.RawMessage) (json.RawMessage, error) {
	v := wire.Lenient(p)
	if status != task.Completed || v.Get("cache_scope").Present() {
		return p, nil
	}
	out, ok := v.WithMember("cache_scope", []byte(`"public"`))
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	return out, nil
}

// divergentFormats flags each product whose format_ids and
// format_options disagree (FORMAT_DECLARATION_DIVERGENT, 3.1 and later):
// a seeded fixture may carry both as given.
func divergentFormats(status task.Status, p json.RawMessage) (json.RawMessage, error) {
	if status != task.Completed {
		return p, nil
	}
	return formatdecl.Advise(p)
}

// openTree opens the schema tree of a release published as a tree only,
// copied into specdata/VERSION by go generate (gen.go), checked to be that
// version.
func openTree(version string) (*spec.Tree, error) {
	sub, err := fs.Sub(specdata, "specdata/"+version)
	if err != nil {
		return nil, err
	}
	tree, err := spec.OpenFS(sub, "specdata/"+version, spec.KindEmbedded)
	if err != nil {
		return nil, fmt.Errorf("the embedded %s schema tree (run go generate): %w", version, err)
	}
	if tree.Version != version {
		return nil, fmt.Errorf("the embedded schema tree at specdata/%s is version %q: run go generate again", version, tree.Version)
	}
	return tree, nil
}

// releaseConfig is what every release's server shares with the 3.0.26
// one: the store, the tasks, the logger, the capabilities it declares.
type releaseConfig struct {
	store        sellerstore.Store
	tasks        *sellertask.Manager
	logger       *slog.Logger
	capabilities func(*idempotency.Layer) json.RawMessage
	brandJSONURL string
	now          func() time.Time
	// signed is the endpoint's request-signature verification, which
	// every release advertises (the 3.0.26 server verifies).
	signed *seller.SignedRequests
	// sales is what the 3.0.26 handlers answer from, which a release's
	// edge middleware reads.
	sales *sales
}

// addReleases puts the later releases behind srv's endpoint, each served
// through srv's handlers.
func addReleases(srv *seller.Server, rc releaseConfig) error {
	for _, r := range laterReleases {
		sp := r.spec()
		tree, err := openTree(sp.Version())
		if err != nil {
			return err
		}
		validator, err := validate.New(tree, validate.Options{})
		if err != nil {
			return err
		}
		layer := idempotency.New(sp, rc.store, idempotency.Options{Validator: validator, Logger: rc.logger})
		var signed *seller.SignedRequests
		if rc.signed != nil {
			cp := *rc.signed
			if r, _ := release.Of(sp.Version()); r.Compare(release.Release{Major: 3, Minor: 2, Pre: "0"}) >= 0 {
				// 3.2 requires a content digest of a seller that verifies
				// signatures and speaks 3.2 (its capabilities schema).
				cp.CoversContentDigest = signing.DigestRequired
			}
			signed = &cp
		}
		caps, err := withSupportedFormats(rc.capabilities(layer))
		if err == nil && r.caps != nil {
			caps, err = r.caps(caps)
		}
		if err != nil {
			return err
		}
		middleware := []seller.Middleware{layer.Middleware()}
		if rc.sales != nil {
			middleware = append([]seller.Middleware{sandboxSession(rc.sales)}, middleware...)
		}
		if r.edge != nil && rc.sales != nil {
			middleware = append(middleware, r.edge(rc.sales))
		}
		later, err := seller.New(sp, seller.Options{
			Logger:            rc.logger,
			Schemas:           tree,
			ValidateResponses: true,
			Tasks:             rc.tasks,
			Middleware:        middleware,
			Capabilities:      caps,
			SignedRequests:    signed,
			BrandJSONURL:      rc.brandJSONURL,
			Now:               rc.now,
		})
		if err != nil {
			return fmt.Errorf("the server of %s: %w", sp.Version(), err)
		}
		rc.tasks.ServeStatusTools(later)
		if rc.sales != nil && rc.sales.sandbox {
			// The release's own controller: its scenarios (3.1's
			// force_get_products_arm...) and its schemas.
			if err := newController(later, rc.sales); err != nil {
				return err
			}
		}
		if r.serve != nil && rc.sales != nil {
			if err := r.serve(later, rc.sales); err != nil {
				return err
			}
		}
		// Tools a release no longer has are left out (BridgeError lists
		// them); anything else is a mistake.
		shims := r.shims
		if rc.sales != nil {
			shims = withCatalogForms(shims, rc.sales.catalog, sp.Version())
			if r.products != nil {
				sh := shims["get_products"]
				forms, more := sh.Complete, r.products(rc.sales)
				sh.Complete = func(c *seller.Call, st task.Status, p json.RawMessage) (json.RawMessage, error) {
					p, err := forms(c, st, p)
					if err != nil {
						return nil, err
					}
					return more(c, st, p)
				}
				shims["get_products"] = sh
			}
		}
		var be *seller.BridgeError
		if err := later.Bridge(srv, shims); err != nil && !errors.As(err, &be) {
			return err
		} else if be != nil {
			rc.logger.Info("tools not served in "+sp.Version(), "tools", be.Tools)
		}
		if err := srv.AddRelease(later); err != nil {
			return err
		}
	}
	return nil
}

// servedSpec is the spec of the release ctx's call is served in (the
// 3.0.26 handlers answer every release): where a release's error codes
// differ (3.1's PROPOSAL_NOT_FOUND, 3.0's REFERENCE_NOT_FOUND), the
// handler answers in the buyer's. 3.0.26 when the call names none.
func servedSpec(ctx context.Context) *registry.Spec {
	c := seller.CallFrom(ctx)
	if c == nil || c.Release == "" {
		return adcp.Spec()
	}
	served, err := release.FromWire(c.Release)
	if err != nil {
		return adcp.Spec()
	}
	for _, sp := range append([]*registry.Spec{adcp.Spec()}, laterSpecs()...) {
		if r, err := release.Of(sp.Version()); err == nil && r.Major == served.Major && r.Minor == served.Minor && (served.Pre == "" || r.Pre == served.Pre) {
			return sp
		}
	}
	return adcp.Spec()
}

// laterSpecs are the specs of laterReleases.
func laterSpecs() []*registry.Spec {
	out := make([]*registry.Spec, len(laterReleases))
	for i, r := range laterReleases {
		out[i] = r.spec()
	}
	return out
}

// laterRelease reports a call served in a release after 3.0.
func laterRelease(ctx context.Context) bool { return servedSpec(ctx) != adcp.Spec() }

// pixelTrackers makes 3.1's pixel_tracker assets of sync_creatives'
// creatives readable as 3.0's: a URL asset the renderer fires, an img
// pixel (tracker_pixel) or a script (tracker_script). The event it fires
// on has no 3.0 member; this seller serves no pixels itself.
func pixelTrackers(args json.RawMessage) (json.RawMessage, error) {
	return editArray(args, "creatives", func(c map[string]json.RawMessage) bool {
		var assets map[string]json.RawMessage
		if json.Unmarshal(c["assets"], &assets) != nil {
			return false
		}
		changed := false
		for name, raw := range assets {
			var a struct {
				Type   string `json:"asset_type"`
				URL    string `json:"url"`
				Method string `json:"method"`
			}
			if json.Unmarshal(raw, &a) != nil || a.Type != "pixel_tracker" {
				continue
			}
			urlType := "tracker_pixel"
			if a.Method == "js" {
				urlType = "tracker_script"
			}
			assets[name] = objectJSON(map[string]string{"asset_type": "url", "url": a.URL, "url_type": urlType})
			changed = true
		}
		if changed {
			c["assets"] = objectJSON(assets)
		}
		return changed
	})
}

// chainRequests applies request shims in turn.
func chainRequests(shims ...func(json.RawMessage) (json.RawMessage, error)) func(json.RawMessage) (json.RawMessage, error) {
	return func(args json.RawMessage) (json.RawMessage, error) {
		var err error
		for _, s := range shims {
			if args, err = s(args); err != nil {
				return nil, err
			}
		}
		return args, nil
	}
}
