package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/productfilter"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Targeting-aware discovery (3.2). A get_products request that carries
// concrete targeting (targeting_overlay values, or hard targeting the
// brief states in prose) is answered with request-specific configured
// products: each has an id of its own, bound (in memory, to the
// principal) to the effective targeting, is_custom, expires_at (which 3.2
// requires of every product issued through targeting-aware discovery,
// even an exact acceptance that discloses no targeting_resolution) and a
// forecast. Hard targeting read from the brief is confirmed once, in the
// response's targeting_resolution.brief_targeting (which a seller MUST
// return when it changes eligibility, pricing or forecasts), without
// repeating what the overlay states; a product that cannot execute it is
// left out. An overlay that only restates a fixed product's included
// placements binds nothing: that product is answered as it is.
//
// create_media_buy of a configured product books its catalog product
// with the bound targeting (the offer's acceptance), PRODUCT_EXPIRED once
// it lapses, PRODUCT_NOT_FOUND to another principal (resolveOffers).

// offerTTL is how long a configured offer stands: a sandbox choice.
const offerTTL = 24 * time.Hour

// maxOffers is how many offers the book holds before it sweeps lapsed ones.
const maxOffers = 4096

// sandboxForecastImpressions is the sandbox's available inventory for one
// configured offer, whatever its targeting: it has no inventory model.
const sandboxForecastImpressions = 1_000_000

// configuredOffers completes a 3.2 get_products answer (after
// catalogForms) with the request's configured offers.
func configuredOffers(s *sales) func(*seller.Call, task.Status, json.RawMessage) (json.RawMessage, error) {
	return func(call *seller.Call, status task.Status, p json.RawMessage) (json.RawMessage, error) {
		if status != task.Completed {
			return p, nil
		}
		overlay := call.Member("targeting_overlay")
		var overlayMembers map[string]json.RawMessage
		_ = json.Unmarshal(overlay, &overlayMembers)
		var inferred map[string]any
		if wire.Lenient(call.Member("buying_mode")).StringIs("brief") {
			brief, _ := wire.Lenient(call.Member("brief")).AsString()
			inferred = briefTargeting(brief)
			for k := range overlayMembers {
				delete(inferred, k) // the overlay's values are not repeated
			}
		}
		if len(overlayMembers) == 0 && len(inferred) == 0 {
			return p, nil
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(p, &obj); err != nil {
			return nil, errors.New("the get_products answer is not a JSON object")
		}
		var products []map[string]json.RawMessage
		if err := json.Unmarshal(obj["products"], &products); err != nil {
			return p, nil
		}
		expiresAt := s.now().Add(offerTTL).UTC()
		expires, _ := json.Marshal(expiresAt.Format(time.RFC3339))
		kept := make([]map[string]json.RawMessage, 0, len(products))
		for _, prod := range products {
			if prod == nil {
				continue
			}
			if _, age := inferred["demographics"]; age && !executesAge(prod) {
				continue
			}
			if string(prod["is_custom"]) == "true" || (len(inferred) == 0 && inherent(overlayMembers, prod)) {
				kept = append(kept, prod)
				continue
			}
			effective := map[string]json.RawMessage{}
			for k, v := range overlayMembers {
				effective[k] = v
			}
			for k, v := range inferred {
				b, _ := json.Marshal(v)
				effective[k] = b
			}
			mods, ok := modifications(effective, prod)
			if !ok {
				continue // nothing of the targeting is executable
			}
			if len(mods) > 0 {
				prod["targeting_resolution"], _ = json.Marshal(map[string]any{"modifications": mods})
			}
			bound, _ := json.Marshal(effective)
			var base string
			_ = json.Unmarshal(prod["product_id"], &base)
			id := offerID(call.Principal.ID, base, bound)
			s.offers.put(id, offer{base: base, principal: call.Principal.ID, overlay: bound, expires: expiresAt})
			prod["product_id"], _ = json.Marshal(id)
			prod["is_custom"], prod["expires_at"] = json.RawMessage("true"), expires
			if _, ok := prod["forecast"]; !ok {
				if f := forecast(prod); f != nil {
					prod["forecast"] = f
				}
			}
			kept = append(kept, prod)
		}
		obj["products"] = objectJSON(kept)
		if len(inferred) > 0 {
			res, err := json.Marshal(map[string]any{"brief_targeting": inferred})
			if err != nil {
				return nil, err
			}
			obj["targeting_resolution"] = res
		}
		return json.Marshal(obj)
	}
}

// modifications are the sandbox's sparse changes to effective (a
// targeting overlay, which it applies) that product needs to execute it,
// in order (core/targeting-modification.json): an age range its
// enumerated intervals cannot build exactly is replaced by the widest run
// of its intervals inside it; browsers it has no inventory for
// (browser_inventory.unavailable_families, unless excluded anyway) are
// removed. ok is false when nothing executable is left.
func modifications(effective map[string]json.RawMessage, product map[string]json.RawMessage) (mods []map[string]any, ok bool) {
	if age := wire.Lenient(effective["demographics"]).Get("age"); age.IsObject() {
		if ids, lo, hi, exact, found := ageIntervals(age, product); found && !exact {
			if len(ids) == 0 {
				return nil, false
			}
			applied := map[string]any{"min": lo, "max": hi, "include_unknown": false}
			mods = append(mods, map[string]any{"operation": "replace", "path": "/demographics/age", "applied": applied,
				"reason": "This product builds ages from its enumerated intervals; the widest run of them inside the requested range is offered."})
			var demo map[string]json.RawMessage
			_ = json.Unmarshal(effective["demographics"], &demo)
			demo["age"], _ = json.Marshal(applied)
			effective["demographics"], _ = json.Marshal(demo)
		}
	}
	inventory := wire.Lenient(product["browser_inventory"])
	if browsers := wire.Lenient(effective["browser"]); browsers.IsArray() && inventory.IsObject() {
		unavailable := strsOf(inventory.Get("unavailable_families"))
		excluded := strsOf(wire.Lenient(effective["browser_exclude"]))
		var kept, removed []string
		for _, b := range strsOf(browsers) {
			if slices.Contains(unavailable, b) && !slices.Contains(excluded, b) {
				removed = append(removed, b)
			} else {
				kept = append(kept, b)
			}
		}
		if len(removed) > 0 {
			if len(kept) == 0 {
				return nil, false
			}
			mods = append(mods, map[string]any{"operation": "remove_values", "path": "/browser", "values": removed,
				"reason": "No forecastable inventory for these browser families in the discovery window."})
			effective["browser"], _ = json.Marshal(kept)
		}
	}
	return mods, true
}

// ageIntervals reads product's enumerated age intervals against age (a
// canonical age range): the ids and span of the intervals inside it,
// whether they build it exactly, and whether the product executes age by
// enumerated intervals at all.
func ageIntervals(age wire.Lenient, product map[string]json.RawMessage) (ids []string, lo, hi int, exact, found bool) {
	dt := wire.Lenient(product["demographic_targeting"]).Get("age")
	if !slices.Contains(strsOf(dt.Get("execution_modes")), "enumerated_intervals") {
		return nil, 0, 0, false, false
	}
	rmin, hasMin := age.Get("min").Number()
	rmax, hasMax := age.Get("max").Number()
	if !hasMin {
		rmin = 0
	}
	if !hasMax {
		rmax = 150
	}
	unknown := string(age.Get("include_unknown").Raw()) == "true"
	lo, hi = -1, -1
	dt.Get("intervals").Elems(func(iv wire.Lenient) bool {
		a := iv.Get("age")
		imin, ok1 := a.Get("min").Number()
		imax, ok2 := a.Get("max").Number()
		if !ok1 || !ok2 || imin < rmin || imax > rmax || (string(a.Get("include_unknown").Raw()) == "true") != unknown {
			return true
		}
		ids = append(ids, str(iv.Get("interval_id")))
		if lo < 0 || int(imin) < lo {
			lo = int(imin)
		}
		if int(imax) > hi {
			hi = int(imax)
		}
		return true
	})
	return ids, lo, hi, len(ids) > 0 && float64(lo) == rmin && float64(hi) == rmax, true
}

func strsOf(v wire.Lenient) []string {
	var out []string
	v.Elems(func(e wire.Lenient) bool {
		out = append(out, str(e))
		return true
	})
	return out
}

// inherent reports whether overlay only restates what product inherently
// is: a placement selection equal to its complete included set, which
// binds nothing a catalog product does not (the catalog product is
// answered as it is).
func inherent(overlay map[string]json.RawMessage, product map[string]json.RawMessage) bool {
	if len(overlay) != 1 || overlay["placement_selection"] == nil {
		return false
	}
	included := false
	wire.Lenient(product["placements"]).Elems(func(p wire.Lenient) bool {
		included = included || p.Get("mode").StringIs("included")
		return !included
	})
	return included
}

// executesAge reports whether product declares age targeting (its
// demographic_targeting or its overlay_support).
func executesAge(product map[string]json.RawMessage) bool {
	if wire.Lenient(product["demographic_targeting"]).Get("age").Raw() != nil {
		return true
	}
	return string(wire.Lenient(product["overlay_support"]).Get("demographics").Get("age").Raw()) == "true"
}

// forecast is the sandbox's availability forecast of product at the
// request's targeting, priced at its first pricing option's floor (or
// fixed price); nil when that option names no currency.
func forecast(product map[string]json.RawMessage) json.RawMessage {
	po := wire.Lenient(product["pricing_options"]).Index(0)
	currency, _ := po.Get("currency").AsString()
	if currency == "" {
		return nil
	}
	metrics := map[string]any{"impressions": map[string]float64{"mid": sandboxForecastImpressions}}
	cpm, ok := po.Get("fixed_price").Number()
	if !ok {
		cpm, ok = po.Get("floor_price").Number()
	}
	if ok {
		metrics["spend"] = map[string]float64{"mid": math.Round(sandboxForecastImpressions*cpm/1000*100) / 100}
	}
	out, _ := json.Marshal(map[string]any{
		"method": "estimate", "currency": currency,
		"points": []map[string]any{{"metrics": metrics}},
	})
	return out
}

var (
	// briefCountry is a brief's "only in the US" (a country's ISO code or
	// one of briefCountries' names).
	briefCountry = regexp.MustCompile(`(?i)\bonly in (?:the )?([A-Za-z][A-Za-z ]*?)(?:[,.;]| and\b|$)`)
	// briefAges is a brief's "ages 18 through 44" (to, -, –).
	briefAges      = regexp.MustCompile(`(?i)\bages? (\d{1,3}) ?(?:through|to|-|–) ?(\d{1,3})\b`)
	briefCountries = map[string]string{"us": "US", "usa": "US", "united states": "US", "uk": "GB", "united kingdom": "GB", "canada": "CA"}
)

// briefTargeting is the hard targeting a brief states in prose, as a
// targeting overlay: a country it restricts delivery to ("only in the US")
// and an age range ("ages 18 through 44") when the brief says it is a
// requirement ("only", "must", "hard requirement"). nil for none: a
// sandbox reading of the commonest phrasings, not a language model.
func briefTargeting(brief string) map[string]any {
	lower := strings.ToLower(brief)
	if !strings.Contains(lower, "only") && !strings.Contains(lower, "must") && !strings.Contains(lower, "hard requirement") {
		return nil
	}
	out := map[string]any{}
	if m := briefCountry.FindStringSubmatch(brief); m != nil {
		if code, ok := briefCountries[strings.ToLower(strings.TrimSpace(m[1]))]; ok {
			out["geo_countries"] = []string{code}
		}
	}
	if m := briefAges.FindStringSubmatch(brief); m != nil {
		lo, _ := strconv.Atoi(m[1])
		hi, _ := strconv.Atoi(m[2])
		if lo <= hi && hi <= 150 {
			out["demographics"] = map[string]any{"age": map[string]any{"min": lo, "max": hi, "include_unknown": false}}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// offer is a configured product issued by get_products: its catalog
// product, the principal it was issued to, its effective targeting and
// when it lapses.
type offer struct {
	base, principal string
	overlay         json.RawMessage
	expires         time.Time
}

// offerBook keeps the configured products issued (in memory: an offer
// outlives no restart, and a buyer rediscovers).
type offerBook struct {
	mu sync.Mutex
	m  map[string]offer
}

func (b *offerBook) put(id string, o offer) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m == nil {
		b.m = map[string]offer{}
	}
	if len(b.m) >= maxOffers {
		// Offers lapsed a TTL ago go: their tombstones (PRODUCT_EXPIRED)
		// need not be kept for ever.
		for k, v := range b.m {
			if v.expires.Add(offerTTL).Before(o.expires.Add(-offerTTL)) {
				delete(b.m, k)
			}
		}
	}
	b.m[id] = o
}

func (b *offerBook) get(id string) (offer, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	o, ok := b.m[id]
	return o, ok
}

// offerID names the configured product of base at overlay for principal:
// the same discovery issues the same id.
func offerID(principal, base string, overlay []byte) string {
	h := sha256.Sum256([]byte(principal + "\x00" + base + "\x00" + string(overlay)))
	return base + "_cfg_" + hex.EncodeToString(h[:6])
}

// resolveOffers turns the packages of req that buy a configured product
// into packages of its catalog product with its bound targeting (unless
// the package restates its own): the offer's acceptance. An offer issued
// to another principal is not found (its existence is not disclosed); a
// lapsed one, or a seeded configured product past its expires_at, is
// PRODUCT_EXPIRED. It then checks every package's targeting against its
// product (packageTargeting).
func (s *sales) resolveOffers(principal string, req *adcp.CreateMediaBuyRequest) error {
	for i := range req.Packages {
		pk := &req.Packages[i]
		field := fmt.Sprintf("packages[%d]", i)
		if o, ok := s.offers.get(pk.ProductID); ok {
			switch {
			case o.principal != principal:
				return refuse("PRODUCT_NOT_FOUND", "No product "+strconv.Quote(pk.ProductID)+" in this catalog", field+".product_id")
			case !s.now().Before(o.expires):
				return refuse("PRODUCT_EXPIRED", "Configured product "+strconv.Quote(pk.ProductID)+" has expired: run get_products again", field+".product_id")
			}
			pk.ProductID = o.base
			if pk.TargetingOverlay == nil {
				var t adcp.TargetingOverlay
				if err := adcp.Decode(o.overlay, &t); err != nil {
					return fmt.Errorf("configured product %s: its targeting: %w", pk.ProductID, err)
				}
				pk.TargetingOverlay = &t
			}
		} else if g := wire.Lenient(s.catalog.given(pk.ProductID)); string(g.Get("is_custom").Raw()) == "true" {
			if at, err := time.Parse(time.RFC3339, str(g.Get("expires_at"))); err == nil && !s.now().Before(at) {
				return refuse("PRODUCT_EXPIRED", "Configured product "+strconv.Quote(pk.ProductID)+" expired at "+at.Format(time.RFC3339)+": run get_products again", field+".product_id")
			}
		}
		if err := s.packageTargeting(pk.ProductID, pk.TargetingOverlay, field); err != nil {
			return err
		}
	}
	return nil
}

// packageTargeting refuses targeting a package of product cannot carry
// (productfilter.Unfit, then the sandbox's browser and platform
// compatibility), pointing at field.targeting_overlay.
func (s *sales) packageTargeting(product string, t *adcp.TargetingOverlay, field string) error {
	if t == nil {
		return nil
	}
	overlay, err := json.Marshal(t)
	if err != nil {
		return err
	}
	given := s.catalog.given(product)
	if code, at := productfilter.Unfit(overlay, given); code != "" {
		return refuse(code, "Product "+strconv.Quote(product)+" cannot carry this "+at+" targeting", field+".targeting_overlay."+at)
	}
	// 3.2 books an age range only as exactly the set requested.
	if age := wire.Lenient(overlay).Get("demographics").Get("age"); age.IsObject() {
		var p map[string]json.RawMessage
		if json.Unmarshal(given, &p) == nil {
			if _, _, _, exact, found := ageIntervals(age, p); found && !exact {
				return refuse("UNSUPPORTED_FEATURE", "Product "+strconv.Quote(product)+" builds ages from its enumerated intervals, which do not make up this range exactly: "+
					"run get_products with it for the nearest configured offer", field+".targeting_overlay.demographics.age")
			}
		}
	}
	// browser_inventory (the sandbox's fixture) names the platforms a
	// browser runs on: a browser and platforms none of which it runs on
	// cannot be enforced together.
	o := wire.Lenient(overlay)
	platforms := o.Get("device_platform")
	if !platforms.IsArray() {
		return nil
	}
	compat := wire.Lenient(given).Get("browser_inventory").Get("platform_compatibility")
	var bad string
	o.Get("browser").Elems(func(b wire.Lenient) bool {
		on := compat.Get(str(b))
		if !on.IsArray() {
			return true
		}
		runs := false
		platforms.Elems(func(p wire.Lenient) bool {
			on.Elems(func(q wire.Lenient) bool {
				runs = runs || str(p) == str(q)
				return !runs
			})
			return !runs
		})
		if !runs {
			bad = str(b)
			return false
		}
		return true
	})
	if bad != "" {
		return refuse("UNSUPPORTED_FEATURE", "Browser "+strconv.Quote(bad)+" does not run on any of the targeted device platforms", field+".targeting_overlay.browser")
	}
	return nil
}

// edge32 is the 3.2 server's middleware: libraryEdge, and
// demographicResolutions.
func edge32(s *sales) seller.Middleware {
	lib, demo := libraryEdge(s), demographicResolutions(s)
	return func(next seller.Dispatch) seller.Dispatch { return lib(demo(next)) }
}

// demographicResolutions gives each package of a completed
// create_media_buy, update_media_buy or get_media_buys answer whose
// targeting holds an age range its product builds from enumerated
// intervals the package's targeting_resolution.demographics, which 3.2
// requires whenever demographic targeting was requested or applied: the
// requested and applied predicates (the same set: packageTargeting
// refuses any other) and the intervals executing it.
func demographicResolutions(s *sales) seller.Middleware {
	members := map[string][]string{"create_media_buy": {"packages"}, "update_media_buy": {"affected_packages"}, "get_media_buys": {"media_buys", "packages"}}
	return func(next seller.Dispatch) seller.Dispatch {
		return func(ctx context.Context, c *seller.Call) *seller.Answer {
			a := next(ctx, c)
			path, ok := members[c.Tool.Name]
			if !ok || a == nil || a.Error != nil || a.Status != task.Completed || len(a.Body) == 0 {
				return a
			}
			resolve := func(m map[string]json.RawMessage) bool {
				demo := wire.Lenient(m["targeting_overlay"]).Get("demographics")
				var product map[string]json.RawMessage
				if !demo.Get("age").IsObject() || json.Unmarshal(s.catalog.given(str(wire.Lenient(m["product_id"]))), &product) != nil {
					return false
				}
				ids, _, _, exact, found := ageIntervals(demo.Get("age"), product)
				if !found || !exact {
					return false
				}
				m["targeting_resolution"], _ = json.Marshal(map[string]any{"demographics": map[string]any{
					"requested": demo.Raw(), "applied": map[string]json.RawMessage{"age": demo.Get("age").Raw()}, "equivalent": true,
					"execution": map[string]any{"type": "enumerated_intervals", "interval_ids": ids},
				}})
				return true
			}
			var body json.RawMessage
			var err error
			if len(path) == 1 {
				body, err = editArray(a.Body, path[0], resolve)
			} else {
				body, err = editArray(a.Body, path[0], func(buy map[string]json.RawMessage) bool {
					edited, err := editArray(objectJSON(buy), path[1], resolve)
					if err != nil || bytes.Equal(edited, objectJSON(buy)) {
						return false
					}
					var m map[string]json.RawMessage
					if json.Unmarshal(edited, &m) != nil {
						return false
					}
					buy[path[1]] = m[path[1]]
					return true
				})
			}
			if err == nil {
				a.Body = body
			}
			return a
		}
	}
}
