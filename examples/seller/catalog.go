package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"example.com/seller/adcp"
	"example.com/seller/adcp31"
	"example.com/seller/adcp32"

	"github.com/adcpgen/adcpgen/runtime/lifecycle"
	"github.com/adcpgen/adcpgen/runtime/productfilter"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// catalogJSON is what the seller sells, as the spec's Product objects. It
// is decoded with the generated strict decoder at start-up, so a product
// that does not match AdCP 3.0.26 stops the program.
//
// test-product with test-pricing (or default) are the ids the compliance
// storyboards send without discovering them first.
var catalogJSON = []string{`{
  "product_id": "ctv_premium",
  "name": "Premium CTV",
  "description": "Connected TV inventory on premium streaming apps, 15 and 30 second spots.",
  "publisher_properties": [{"publisher_domain": "streamer.example", "selection_type": "all"}],
  "channels": ["ctv"],
  "format_ids": [{"agent_url": "https://creative.adcontextprotocol.org", "id": "video_30s"}],
  "delivery_type": "guaranteed",
  "pricing_options": [{"pricing_option_id": "cpm_usd_fixed", "pricing_model": "cpm", "currency": "USD", "fixed_price": 42.5}],
  "reporting_capabilities": {
    "available_reporting_frequencies": ["daily"],
    "expected_delay_minutes": 240,
    "timezone": "UTC",
    "supports_webhooks": false,
    "available_metrics": ["impressions", "spend", "completed_views"],
    "date_range_support": "date_range"
  }
}`, `{
  "product_id": "test-product",
  "name": "Run of network display",
  "description": "Standard display units across the network, sold on a non-guaranteed CPM.",
  "publisher_properties": [{"publisher_domain": "news.example", "selection_type": "all"}],
  "channels": ["display"],
  "format_ids": [{"agent_url": "https://creative.adcontextprotocol.org", "id": "display_300x250"}],
  "delivery_type": "non_guaranteed",
  "pricing_options": [
    {"pricing_option_id": "default", "pricing_model": "cpm", "currency": "USD", "floor_price": 1.0},
    {"pricing_option_id": "test-pricing", "pricing_model": "cpm", "currency": "USD", "floor_price": 1.0}
  ],
  "reporting_capabilities": {
    "available_reporting_frequencies": ["daily"],
    "expected_delay_minutes": 240,
    "timezone": "UTC",
    "supports_webhooks": false,
    "available_metrics": ["impressions", "spend", "clicks"],
    "date_range_support": "date_range"
  }
}`}

// storyboardFixtures are the products compliance storyboards of AdCP 3.0
// buy without seeding them first (governance_conditions buys
// outdoor_ctv_q2, adcontextprotocol/adcp#5281). A sandbox sells them, as
// AdCP's own training agent does; production never does.
var storyboardFixtures = []string{`{
  "product_id": "outdoor_ctv_q2",
  "name": "Outdoor lifestyle CTV, Q2",
  "description": "Connected TV on outdoor lifestyle programming: the compliance storyboards' fixture.",
  "publisher_properties": [{"publisher_domain": "sandbox.example", "selection_type": "all"}],
  "channels": ["ctv"],
  "format_ids": [{"agent_url": "https://creative.adcontextprotocol.org", "id": "video_30s"}],
  "delivery_type": "guaranteed",
  "pricing_options": [{"pricing_option_id": "cpm_standard", "pricing_model": "cpm", "currency": "USD", "fixed_price": 18.0}],
  "reporting_capabilities": {
    "available_reporting_frequencies": ["daily"],
    "expected_delay_minutes": 240,
    "timezone": "UTC",
    "supports_webhooks": false,
    "available_metrics": ["impressions", "spend", "completed_views"],
    "date_range_support": "date_range"
  }
}`}

// catalog holds the products, in catalog order, and the ids of each
// product's pricing options. In a sandbox the compliance runner adds
// products (seed_product, seed_pricing_option), after the catalog's own;
// it is safe for concurrent use.
type catalog struct {
	mu       sync.RWMutex
	products []adcp.Product // what get_products answers
	byID     map[string]int // index into products
	pricing  map[string][]string
	prices   map[string]map[string]price // product → pricing option → price
	seeded   map[string]*seed            // sandbox products, by id
	raw      map[string][]byte           // each product as added (JSON): its form, in its release
	// release is the release of each product's form, when not the
	// handlers' (productforms.go); at is each such product's projection
	// onto the earlier releases (nil where it is not offered).
	release  map[string]string
	at       map[string]map[string][]byte
	schemas  productSchemas // nil: products are checked by no schema
	fixtures fixtureSet     // the latest seeded products (fixtureset.go)
}

// seed is a sandbox product as the runner described it: its members and
// its pricing options (JSON), turned into a Product once it has pricing.
type seed struct {
	members map[string]json.RawMessage
	pricing []json.RawMessage
	ids     []string
}

// loadCatalog decodes the catalog (with the storyboards' fixtures in a
// sandbox); schemas are the Product schemas of the releases served (the
// handlers' first), against which the sandbox checks what it seeds.
func loadCatalog(sandbox bool, schemas productSchemas) (*catalog, error) {
	c := &catalog{byID: map[string]int{}, pricing: map[string][]string{}, prices: map[string]map[string]price{}, seeded: map[string]*seed{},
		raw: map[string][]byte{}, release: map[string]string{}, at: map[string]map[string][]byte{}, schemas: schemas}
	products := catalogJSON
	if sandbox {
		products = append(slices.Clone(products), storyboardFixtures...)
	}
	for i, raw := range products {
		if err := c.add([]byte(raw), ""); err != nil {
			return nil, fmt.Errorf("catalog product %d: %w", i, err)
		}
	}
	return c, nil
}

// add decodes a product (JSON) strictly and puts it in the catalog,
// replacing the one with its id. version is the release raw is a Product
// of, "" for the handlers'; a later release's product is kept as given
// and decoded as its projection onto the handlers' release.
func (c *catalog) add(raw []byte, version string) error {
	typed, at, err := c.project(raw, version)
	if err != nil {
		return err
	}
	var p adcp.Product
	if err := adcp.Decode(typed, &p); err != nil {
		return err
	}
	delete(c.release, p.ProductID)
	delete(c.at, p.ProductID)
	if at != nil {
		c.release[p.ProductID], c.at[p.ProductID] = version, at
	}
	// The product has passed the strict decoder: encoding/json may read
	// the pricing option ids out of it.
	var ids struct {
		PricingOptions []struct {
			ID       string   `json:"pricing_option_id"`
			Model    string   `json:"pricing_model"`
			Currency string   `json:"currency"`
			Fixed    *float64 `json:"fixed_price"`
			Floor    *float64 `json:"floor_price"`
		} `json:"pricing_options"`
	}
	if err := json.Unmarshal(raw, &ids); err != nil {
		return err
	}
	c.raw[p.ProductID] = raw
	c.pricing[p.ProductID] = nil
	c.prices[p.ProductID] = map[string]price{}
	for _, o := range ids.PricingOptions {
		c.pricing[p.ProductID] = append(c.pricing[p.ProductID], o.ID)
		pr := price{model: o.Model, currency: o.Currency}
		switch {
		case o.Fixed != nil:
			pr.rate = *o.Fixed
		case o.Floor != nil:
			pr.rate = *o.Floor
		}
		c.prices[p.ProductID][o.ID] = pr
	}
	if i, ok := c.byID[p.ProductID]; ok {
		c.products[i] = p
		return nil
	}
	c.byID[p.ProductID] = len(c.products)
	c.products = append(c.products, p)
	return nil
}

// project is raw, a Product of release version, as the handlers'
// release's Product, with its projection onto each release before
// version (nil for the handlers' own release, which has no earlier one
// served). A form no pricing option of which the handlers' release can
// express is kept, its projection's pricing_options empty: the handlers
// sell it in the releases that offer it (filtered, formLocked).
func (c *catalog) project(raw []byte, version string) ([]byte, map[string][]byte, error) {
	if version == "" || len(c.schemas) == 0 || version == c.schemas[0].version {
		return raw, nil, nil
	}
	if c.schemas.index(version) < 0 {
		return nil, nil, fmt.Errorf("no Product schema of %s", version)
	}
	at := map[string][]byte{}
	var typed []byte
	for _, r := range c.schemas[:c.schemas.index(version)] {
		p, err := c.schemas.project(raw, version, r.version)
		if err != nil && !errors.Is(err, errNotOffered) {
			if r.version == c.schemas[0].version {
				return nil, nil, err
			}
			p = nil
		}
		if r.version == c.schemas[0].version {
			typed = p
		}
		if err != nil {
			p = nil
		}
		at[r.version] = p
	}
	return typed, at, nil
}

// form is product id as release version's Product: its form when version
// is its release or later, else its projection; nil for a product of the
// handlers' release (the handlers' answer is its form) or one version
// does not offer. base is its projection onto the handlers' release.
func (c *catalog) form(id, version string) (form, base []byte) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if len(c.schemas) > 0 {
		base = c.at[id][c.schemas[0].version]
	}
	return c.formLocked(id, version), base
}

func (c *catalog) formLocked(id, version string) []byte {
	from, ok := c.release[id]
	if !ok {
		return nil
	}
	if p, earlier := c.at[id][version]; earlier {
		return p
	}
	if c.schemas.index(version) >= c.schemas.index(from) {
		return c.raw[id]
	}
	return nil
}

// given is product id as added (its form, in the release it was seeded
// in), nil when the catalog has no such product.
func (c *catalog) given(id string) []byte {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.raw[id]
}

// all returns the products, in catalog order.
func (c *catalog) all() []adcp.Product {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return slices.Clone(c.products)
}

// allowedActions is the allowed_actions[] template of product id (3.1),
// nil when it declares none.
func (c *catalog) allowedActions(id string) []lifecycle.AllowedAction {
	c.mu.RLock()
	raw := c.raw[id]
	c.mu.RUnlock()
	var p struct {
		AllowedActions []lifecycle.AllowedAction `json:"allowed_actions"`
	}
	if json.Unmarshal(raw, &p) != nil {
		return nil
	}
	return p.AllowedActions
}

// filtered returns the products that pass get_products' filters (the
// request's filters object, as the buyer sent it in its release), in
// catalog order, their pricing options pruned to those the pricing filters
// accept (runtime/productfilter). The filters only this seller's
// inventory could answer (availability, budget, geography) are not
// applied: a sandbox catalog sells every date and place.
//
// version is the release the buyer is served in: a product seeded in a
// later release is filtered as that release's Product (its form, or its
// projection onto version), and left out where version does not offer it.
//
// overlay is the request's targeting_overlay (3.2): a product that cannot
// carry its placement_selection is left out (productfilter.PlacementMatch),
// as is one that does not cover required, its required_overlay_support
// (productfilter.OverlaySupported).
func (c *catalog) filtered(filters, overlay, required json.RawMessage, version string) ([]adcp.Product, error) {
	c.mu.RLock()
	raws := make([]json.RawMessage, 0, len(c.products))
	as := map[string]string{} // a later release's product: the release it is filtered as
	for _, p := range c.products {
		raw := c.raw[p.ProductID]
		if from, later := c.release[p.ProductID]; later {
			if raw = c.formLocked(p.ProductID, version); raw == nil {
				continue
			}
			as[p.ProductID] = from
			if c.schemas.index(version) < c.schemas.index(from) {
				as[p.ProductID] = version
			}
		}
		raws = append(raws, raw)
	}
	c.mu.RUnlock()
	kept, err := productfilter.Apply(filters, raws)
	if err != nil {
		return nil, err
	}
	selection := wire.Lenient(overlay).Get("placement_selection").Raw()
	out := make([]adcp.Product, 0, len(kept.Products))
	for _, raw := range kept.Products {
		if !productfilter.PlacementMatch(selection, raw) || !productfilter.OverlaySupported(required, raw) {
			continue
		}
		var id struct {
			ID string `json:"product_id"`
		}
		if err := json.Unmarshal(raw, &id); err != nil {
			return nil, err
		}
		if v, later := as[id.ID]; later {
			if raw, _, err = c.project(raw, v); err != nil {
				return nil, err
			}
		}
		var p adcp.Product
		if err := adcp.Decode(raw, &p); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// product returns the product id.
func (c *catalog) product(id string) (adcp.Product, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	i, ok := c.byID[id]
	if !ok {
		return adcp.Product{}, false
	}
	return c.products[i], true
}

// hasPricing reports whether product offers the pricing option id.
func (c *catalog) hasPricing(product, id string) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return slices.Contains(c.pricing[product], id)
}

// price is what a pricing option charges: its model, currency and rate
// (the fixed price, or the floor of an auction).
type price struct {
	model, currency string
	rate            float64
}

// price returns product's pricing option id.
func (c *catalog) price(product, id string) (price, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	p, ok := c.prices[product][id]
	return p, ok
}

// firstPricing is the id of product's first pricing option.
func (c *catalog) firstPricing(product string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if ids := c.pricing[product]; len(ids) > 0 {
		return ids[0]
	}
	return ""
}

// sandboxDefaults are the members a seeded product gets when the runner's
// fixture leaves them out (the fixtures carry delivery_type, channels and
// format ids, a Product needs more).
var sandboxDefaults = map[string]json.RawMessage{
	"description":          json.RawMessage(`"A sandbox product seeded by the compliance test controller."`),
	"publisher_properties": json.RawMessage(`[{"publisher_domain":"sandbox.example","selection_type":"all"}]`),
	"format_ids":           json.RawMessage(`[]`),
	"delivery_type":        json.RawMessage(`"non_guaranteed"`),
	"reporting_capabilities": json.RawMessage(`{"available_reporting_frequencies":["daily"],"expected_delay_minutes":240,"timezone":"UTC",` +
		`"supports_webhooks":false,"available_metrics":["impressions","spend","clicks"],"date_range_support":"date_range"}`),
}

// defaultFormatAgent is the creative agent of format ids given without one.
const defaultFormatAgent = "https://creative.adcontextprotocol.org"

// renamedChannels are the AdCP 2 channel names the fixtures still use,
// with their AdCP 3 names; other unknown channels are left out.
var renamedChannels = map[string]string{"video": "olv", "audio": "streaming_audio", "retail": "retail_media"}

// seedProduct records the sandbox product id from the runner's fixture
// (seed_product). Seeding an id again replaces its description, keeping
// its pricing options. It joins get_products once it has a pricing option.
// Seeding one of the seller's own ids (the storyboards seed test-product,
// which they also buy unseeded) takes it over with its pricing options,
// so it sells throughout. Pricing options in the fixture replace the
// product's.
//
// version is the release the runner seeds in: the product is checked as
// that release's, and kept as such (add).
func (c *catalog) seedProduct(id, version string, fixture map[string]json.RawMessage) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, own := c.byID[id]; own && c.seeded[id] == nil {
		var p struct {
			PricingOptions []json.RawMessage `json:"pricing_options"`
		}
		if err := json.Unmarshal(c.raw[id], &p); err != nil {
			return err
		}
		c.seeded[id] = &seed{pricing: p.PricingOptions, ids: slices.Clone(c.pricing[id])}
	}
	members := maps.Clone(sandboxDefaults)
	members["name"], _ = json.Marshal(id)
	for k, v := range fixture {
		members[k] = v
	}
	members["product_id"], _ = json.Marshal(id)
	if err := normalizeSeed(members, version); err != nil {
		return err
	}
	sd := c.seeded[id]
	if sd == nil {
		sd = &seed{}
	}
	old, oldPricing, oldIDs := sd.members, sd.pricing, sd.ids
	if raw, ok := members["pricing_options"]; ok {
		// A fixture that carries its pricing options (the 3.1 and 3.2
		// storyboards' do) replaces the product's.
		delete(members, "pricing_options")
		var pricing []json.RawMessage
		if err := json.Unmarshal(raw, &pricing); err != nil {
			return fmt.Errorf("pricing_options: %w", err)
		}
		sd.pricing, sd.ids = nil, nil
		for i, o := range pricing {
			var po struct {
				ID string `json:"pricing_option_id"`
			}
			if err := json.Unmarshal(o, &po); err != nil || po.ID == "" {
				return fmt.Errorf("pricing_options[%d]: a pricing option needs its pricing_option_id", i)
			}
			sd.pricing, sd.ids = append(sd.pricing, o), append(sd.ids, po.ID)
		}
	}
	sd.members = members
	if err := c.publish(id, sd, version); err != nil {
		sd.members, sd.pricing, sd.ids = old, oldPricing, oldIDs
		return err
	}
	c.seeded[id] = sd
	c.noteSeed(id, true)
	return nil
}

// seedPricing adds (or replaces) pricing option id of the sandbox product
// (seed_pricing_option).
func (c *catalog) seedPricing(product, id, version string, fixture map[string]json.RawMessage) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	sd := c.seeded[product]
	if sd == nil {
		return errNoSeed
	}
	members := maps.Clone(fixture)
	members["pricing_option_id"], _ = json.Marshal(id)
	raw, err := json.Marshal(members)
	if err != nil {
		return err
	}
	pricing, ids := slices.Clone(sd.pricing), slices.Clone(sd.ids)
	if i := slices.Index(ids, id); i >= 0 {
		pricing[i] = raw
	} else {
		pricing, ids = append(pricing, raw), append(ids, id)
	}
	oldPricing, oldIDs := sd.pricing, sd.ids
	sd.pricing, sd.ids = pricing, ids
	if err := c.publish(product, sd, version); err != nil {
		sd.pricing, sd.ids = oldPricing, oldIDs
		return err
	}
	c.noteSeed(product, false)
	return nil
}

// errNoSeed is seed_pricing_option for a product the sandbox does not
// hold.
var errNoSeed = errors.New("no sandbox product with this id")

// publish puts a seeded product with pricing options into the catalog,
// checked against the Product schema of version, the release it was
// seeded in; without pricing it waits.
func (c *catalog) publish(id string, sd *seed, version string) error {
	if len(sd.pricing) == 0 {
		return nil
	}
	members := maps.Clone(sd.members)
	members["pricing_options"], _ = json.Marshal(sd.pricing)
	raw, err := json.Marshal(members)
	if err != nil {
		return err
	}
	if len(c.schemas) > 0 {
		if err := c.schemas.check(version, raw); err != nil {
			return err
		}
	}
	return c.add(raw, version)
}

// normalizeSeed makes a fixture's members fit AdCP 3.0: format ids get
// the default creative agent, AdCP 2 channel names their AdCP 3 ones, a
// reporting_capabilities that names only some members (the storyboards'
// measurement windows and metrics) the defaults of the others.
func normalizeSeed(members map[string]json.RawMessage, version string) error {
	if raw, ok := members["reporting_capabilities"]; ok {
		var given, defaults map[string]json.RawMessage
		if err := json.Unmarshal(raw, &given); err != nil {
			return fmt.Errorf("reporting_capabilities: %w", err)
		}
		if err := json.Unmarshal(sandboxDefaults["reporting_capabilities"], &defaults); err != nil {
			return err
		}
		for k, v := range defaults {
			if _, ok := given[k]; !ok {
				given[k] = v
			}
		}
		members["reporting_capabilities"], _ = json.Marshal(given)
	}
	var formats []map[string]json.RawMessage
	if err := json.Unmarshal(members["format_ids"], &formats); err != nil {
		return fmt.Errorf("format_ids: %w", err)
	}
	if len(formats) == 0 {
		if _, canonical := members["format_options"]; !canonical {
			// A fixture that names no format sells the standard one of its
			// first channel: a product must name what it accepts, and
			// buyers' SDKs drop one that names nothing.
			formats = []map[string]json.RawMessage{{"id": objectJSON(defaultFormatFor(members["channels"]))}}
		}
	}
	for _, f := range formats {
		if _, ok := f["agent_url"]; !ok {
			f["agent_url"], _ = json.Marshal(defaultFormatAgent)
		}
	}
	members["format_ids"], _ = json.Marshal(formats)
	if raw, ok := members["channels"]; ok {
		var in, out []string
		if err := json.Unmarshal(raw, &in); err != nil {
			return fmt.Errorf("channels: %w", err)
		}
		for _, ch := range in {
			if to, ok := renamedChannels[ch]; ok {
				ch = to
			}
			if slices.Contains(knownChannels(version), ch) && !slices.Contains(out, ch) {
				out = append(out, ch)
			}
		}
		if len(out) == 0 {
			delete(members, "channels")
		} else {
			members["channels"], _ = json.Marshal(out)
		}
	}
	return nil
}

// knownChannels are the channel values of release version (3.0.26's for
// any other).
func knownChannels(version string) []string {
	var out []string
	switch version {
	case adcp31.SpecVersion:
		for _, ch := range adcp31.KnownMediaChannelValues() {
			out = append(out, string(ch))
		}
	case adcp32.SpecVersion:
		for _, ch := range adcp32.KnownMediaChannelValues() {
			out = append(out, string(ch))
		}
	default:
		for _, ch := range adcp.KnownMediaChannelValues() {
			out = append(out, string(ch))
		}
	}
	return out
}

// defaultFormatFor is the standard format a seeded product of channels
// (JSON) sells when its fixture names none: video for video channels,
// audio for audio ones, else the medium rectangle.
func defaultFormatFor(channels json.RawMessage) string {
	var cs []string
	_ = json.Unmarshal(channels, &cs)
	for _, c := range cs {
		switch c {
		case "olv", "ctv", "video", "linear_tv":
			return "video_30s"
		}
	}
	return "display_300x250"
}
