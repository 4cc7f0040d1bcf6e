package main

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"regexp"
	"strconv"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Canonical creative formats (AdCP 3.2). From 3.2 creatives and products
// speak canonical formats: a creative names the portable contract it
// targets (format_kind: image, video_hosted, native_in_feed, ...) rather
// than a named format of a creative agent (format_id, deprecated), and a
// product declares format_options rather than format_ids. The 3.0.26
// handlers keep named formats, so the 3.2 server translates at its edge:
//
//   - a canonical creative (sync_creatives, preview_creative) reaches the
//     handlers under the named format of its kind: the seller's standard
//     format whose kind and size match its assets (an image of 300x250
//     is display_300x250), else canonical_<kind>, the seller's name for
//     "any creative of that kind";
//   - a creative the handlers answer (list_creatives, sync_creatives)
//     leaves with the kind of its named format;
//   - a product that names only legacy formats leaves with their
//     canonical declarations beside them (format_options, each linked to
//     its format id by v1_format_ref): 3.x products dual-emit, and 3.2's
//     storyboards read both on one product.

// shims32 adapt what 3.2 changed beyond 3.1: the canonical creative wire.
var shims32 = func() map[string]seller.Shim {
	m := maps.Clone(shims31)
	m["get_products"] = seller.Shim{Request: withoutFields, Response: chain(publicCacheScope, canonicalOnlyFormats, canonicalProducts, divergentFormats)}
	m["sync_creatives"] = seller.Shim{Request: chainRequests(pixelTrackers, namedCreatives("creatives")), Response: canonicalCreatives("creatives")}
	m["list_creatives"] = seller.Shim{Request: withoutFields, Response: canonicalCreatives("creatives")}
	m["sync_accounts"] = seller.Shim{Request: shims31["sync_accounts"].Request, OwnsIssues: inNotificationConfigs}
	m["preview_creative"] = seller.Shim{Request: namedManifest, Response: draftQuality}
	m["build_creative"] = seller.Shim{Request: capabilityTarget, Response: canonicalBuild}
	m["create_media_buy"] = seller.Shim{Response: chain(mediaBuyStatus, totalBudgets(""))}
	m["get_media_buys"] = seller.Shim{Response: totalBudgets("media_buys")}
	return m
}()

// libraryEdge is the 3.2 server's middleware giving each creative of a
// completed list_creatives answer the 3.2 members the library keeps for it
// and the 3.0.26 handler cannot answer: its assets as given (3.2's asset
// types, published_post among them), its canonical format_option_ref and
// its localization (localization.go).
func libraryEdge(s *sales) seller.Middleware {
	return func(next seller.Dispatch) seller.Dispatch {
		return func(ctx context.Context, c *seller.Call) *seller.Answer {
			a := next(ctx, c)
			if c.Tool.Name != "list_creatives" || a == nil || a.Error != nil || a.Status != task.Completed || len(a.Body) == 0 {
				return a
			}
			s.library.mu.Lock()
			defer s.library.mu.Unlock()
			body, err := editArray(a.Body, "creatives", func(m map[string]json.RawMessage) bool {
				var id string
				if json.Unmarshal(m["creative_id"], &id) != nil {
					return false
				}
				cr := s.library.find(c.Principal.ID, "", id)
				if cr == nil {
					return false
				}
				changed := false
				if len(cr.assets) > 0 && string(cr.assets) != "null" {
					m["assets"], changed = cr.assets, true
				}
				if len(cr.optionRef) > 0 {
					m["format_option_ref"], changed = cr.optionRef, true
				}
				if len(cr.localization) > 0 {
					m["localization"], changed = cr.localization, true
				}
				return changed
			})
			if err == nil {
				a.Body = body
			}
			return a
		}
	}
}

// inNotificationConfigs reports a sync_accounts schema violation inside an
// account's notification_configs (3.2 enumerates the account-level event
// types), which syncAccounts answers as that account's failure, naming the
// field, rather than the framework refusing the whole request.
func inNotificationConfigs(pointer string) bool {
	_, _, ok := notificationConfigIssue(pointer)
	return ok
}

// formatKind is the canonical kind of a named format id of this seller
// (or of the storyboards' fixtures, which follow the same naming).
func formatKind(id string) string {
	switch {
	case strings.HasPrefix(id, "canonical_"):
		return strings.TrimPrefix(id, "canonical_")
	case strings.HasPrefix(id, "vast"), strings.Contains(id, "_vast"):
		return "video_vast"
	case strings.HasPrefix(id, "video"):
		return "video_hosted"
	case strings.HasPrefix(id, "native"):
		return "native_in_feed"
	case strings.HasPrefix(id, "audio"):
		return "audio_hosted"
	case strings.HasPrefix(id, "html5"):
		return "html5"
	}
	return "image"
}

var (
	sizeInID     = regexp.MustCompile(`(\d{2,4})x(\d{2,4})`)
	durationInID = regexp.MustCompile(`_(\d{1,3})s(?:_|$)`)
)

// declaration is the canonical declaration of a named format id.
func declaration(id string) json.RawMessage {
	params := map[string]any{}
	if m := sizeInID.FindStringSubmatch(id); m != nil {
		w, _ := strconv.Atoi(m[1])
		h, _ := strconv.Atoi(m[2])
		params["width"], params["height"] = w, h
	}
	kind := formatKind(id)
	if m := durationInID.FindStringSubmatch(id); m != nil && kind == "video_hosted" {
		s, _ := strconv.Atoi(m[1])
		params["duration_ms_exact"] = s * 1000
	}
	return objectJSON(map[string]any{"format_option_id": id, "format_kind": kind, "params": params})
}

// namedFormat is the named format id a canonical creative reaches the
// handlers under: the standard format of its kind and size, else
// canonical_<kind>.
func namedFormat(kind string, assets json.RawMessage) string {
	var as map[string]struct {
		Width  int `json:"width"`
		Height int `json:"height"`
	}
	_ = json.Unmarshal(assets, &as)
	for _, f := range standardFormats {
		if formatKind(f.id) != kind {
			continue
		}
		m := sizeInID.FindStringSubmatch(f.id)
		if m == nil {
			continue
		}
		for _, a := range as {
			if strconv.Itoa(a.Width) == m[1] && strconv.Itoa(a.Height) == m[2] {
				return f.id
			}
		}
	}
	return "canonical_" + kind
}

// namedCreatives gives each canonical creative of the member array a
// named format (namedFormat) in place of its format_kind and
// format_option_ref.
func namedCreatives(member string) func(json.RawMessage) (json.RawMessage, error) {
	return func(args json.RawMessage) (json.RawMessage, error) {
		return editArray(args, member, func(c map[string]json.RawMessage) bool {
			raw, ok := c["format_kind"]
			if !ok {
				return false
			}
			var kind string
			if json.Unmarshal(raw, &kind) != nil {
				return false
			}
			c["format_id"] = objectJSON(map[string]string{"agent_url": defaultFormatAgent, "id": namedFormat(kind, c["assets"])})
			delete(c, "format_kind")
			delete(c, "format_option_ref")
			return true
		})
	}
}

// namedManifest gives preview_creative's canonical creative_manifest a
// named format.
func namedManifest(args json.RawMessage) (json.RawMessage, error) {
	var req map[string]json.RawMessage
	if err := json.Unmarshal(args, &req); err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(req["creative_manifest"], &m) != nil || m == nil {
		return args, nil
	}
	raw, ok := m["format_kind"]
	if !ok {
		return args, nil
	}
	var kind string
	if json.Unmarshal(raw, &kind) != nil {
		return args, nil
	}
	m["format_id"] = objectJSON(map[string]string{"agent_url": defaultFormatAgent, "id": namedFormat(kind, m["assets"])})
	delete(m, "format_kind")
	delete(m, "format_option_ref")
	req["creative_manifest"] = objectJSON(m)
	return json.Marshal(req)
}

// draftQuality says the render quality of a completed preview_creative
// answer (quality_used, 3.2: present whenever the request named one): this
// seller's preview is a placeholder page, draft whatever tier was asked,
// which the field lets a buyer see before approval.
func draftQuality(status task.Status, p json.RawMessage) (json.RawMessage, error) {
	v := wire.Lenient(p)
	if status != task.Completed || v.Get("quality_used").Present() || !v.Get("previews").IsArray() {
		return p, nil
	}
	out, ok := v.WithMember("quality_used", []byte(`"draft"`))
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	return out, nil
}

// canonicalCreatives gives each creative of the member array of a
// completed answer the kind of its named format in place of the name.
func canonicalCreatives(member string) func(task.Status, json.RawMessage) (json.RawMessage, error) {
	return func(status task.Status, p json.RawMessage) (json.RawMessage, error) {
		if status != task.Completed {
			return p, nil
		}
		return editArray(p, member, func(c map[string]json.RawMessage) bool {
			raw, ok := c["format_id"]
			if !ok {
				return false
			}
			var fid struct {
				ID string `json:"id"`
			}
			if json.Unmarshal(raw, &fid) != nil || fid.ID == "" {
				return false
			}
			delete(c, "format_id")
			c["format_kind"] = objectJSON(formatKind(fid.ID))
			return true
		})
	}
}

// canonicalProducts gives a completed get_products answer's products that
// name only legacy formats (format_ids) the canonical declarations of
// those formats too, each linked back to its format id (v1_format_ref):
// dual emission, as 3.2's schema-compliance storyboards read products raw
// (canonical_formats wants both on one product).
func canonicalProducts(status task.Status, p json.RawMessage) (json.RawMessage, error) {
	if status != task.Completed {
		return p, nil
	}
	return editArray(p, "products", func(pr map[string]json.RawMessage) bool {
		if _, ok := pr["format_options"]; ok {
			return false
		}
		var ids []json.RawMessage
		_ = json.Unmarshal(pr["format_ids"], &ids)
		var opts []map[string]json.RawMessage
		for _, raw := range ids {
			var fid struct {
				ID string `json:"id"`
			}
			if json.Unmarshal(raw, &fid) != nil || fid.ID == "" {
				continue
			}
			var o map[string]json.RawMessage
			_ = json.Unmarshal(declaration(fid.ID), &o)
			o["v1_format_ref"] = objectJSON([]json.RawMessage{raw})
			opts = append(opts, o)
		}
		if len(opts) == 0 {
			return false
		}
		pr["format_options"] = objectJSON(opts)
		return true
	})
}

// editArray applies edit to each object of the top-level array member of
// payload, re-encoding the payload when any changed.
func editArray(payload json.RawMessage, member string, edit func(map[string]json.RawMessage) bool) (json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(payload, &obj); err != nil {
		return nil, errors.New("not a JSON object")
	}
	var items []map[string]json.RawMessage
	if json.Unmarshal(obj[member], &items) != nil {
		return payload, nil
	}
	changed := false
	for _, it := range items {
		if it != nil && edit(it) {
			changed = true
		}
	}
	if !changed {
		return payload, nil
	}
	obj[member] = objectJSON(items)
	return json.Marshal(obj)
}
