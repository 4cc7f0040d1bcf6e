package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"strconv"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/productfilter"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/validate"
)

// A product seeded in a later release (the test controller takes a 3.2
// fixture at 3.2) may use members the 3.0.26 handlers' Product cannot
// hold: 3.2's placements, a revenue_share pricing option. The catalog
// keeps such a product as seeded, in the release it came in (its form),
// checked against that release's Product schema, and projects the form
// onto each earlier release: the members that release's Product declares
// differently or not at all (but the form's release declares) leave, and
// so do the pricing options it cannot express. A release where no pricing
// option is left does not offer the product. The handlers work on the
// projection onto 3.0.26; a later release's get_products answers the form
// projected onto it (catalogForms), so a 3.2 buyer reads the product as
// seeded and a 3.1 buyer without 3.2's members.

// productSchema is one release's Product schema.
type productSchema struct {
	version  string          // the release ("3.2.0-beta.5")
	declared map[string]bool // the members core/product.json declares
	validate func(product []byte) ([]validate.Issue, error)
}

// productSchemas are the Product schemas of the releases the seller
// serves, oldest first (3.0.26 first: the handlers').
type productSchemas []productSchema

// newProductSchema reads tree's Product schema, validated with v.
func newProductSchema(tree *spec.Tree, v *validate.Validator) (productSchema, error) {
	raw, err := fs.ReadFile(tree.FS, "core/product.json")
	if err != nil {
		return productSchema{}, fmt.Errorf("the %s Product schema: %w", tree.Version, err)
	}
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return productSchema{}, fmt.Errorf("the %s Product schema: %w", tree.Version, err)
	}
	declared := map[string]bool{}
	for k := range s.Properties {
		declared[k] = true
	}
	return productSchema{version: tree.Version, declared: declared, validate: func(p []byte) ([]validate.Issue, error) {
		return v.Validate("core/product.json", p)
	}}, nil
}

// index is the position of version among s, -1 when absent.
func (s productSchemas) index(version string) int {
	for i, r := range s {
		if r.version == version {
			return i
		}
	}
	return -1
}

// check validates product against the Product schema of version.
func (s productSchemas) check(version string, product []byte) error {
	i := s.index(version)
	if i < 0 {
		return fmt.Errorf("no Product schema of %s", version)
	}
	issues, err := s[i].validate(product)
	if err == nil && len(issues) > 0 {
		err = errors.New(issues[0].String())
	}
	return err
}

// errNotOffered is a product with no pricing option a release can
// express.
var errNotOffered = errors.New("no pricing option of this product exists in this release")

// project is form (a Product valid in release from) as release to's
// Product: the members to's schema does not declare but from's does
// leave, then each member or pricing option to's schema rejects, until the
// rest is valid. errNotOffered (with the projection, its pricing_options
// empty) when no pricing option is left; another error when a member
// every Product has is rejected.
func (s productSchemas) project(form []byte, from, to string) ([]byte, error) {
	fi, ti := s.index(from), s.index(to)
	if fi < 0 || ti < 0 {
		return nil, fmt.Errorf("no Product schema of %s or %s", from, to)
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(form, &members); err != nil {
		return nil, err
	}
	for k := range members {
		if s[fi].declared[k] && !s[ti].declared[k] {
			delete(members, k)
		}
	}
	var pricing []json.RawMessage
	if err := json.Unmarshal(members["pricing_options"], &pricing); err != nil {
		return nil, fmt.Errorf("pricing_options: %w", err)
	}
	// Each round takes out what the first issue points at: a member or a
	// pricing option, never more than there are.
	for range len(members) + len(pricing) + 1 {
		members["pricing_options"], _ = json.Marshal(pricing)
		out, err := json.Marshal(members)
		if err != nil {
			return nil, err
		}
		if len(pricing) == 0 {
			return out, errNotOffered
		}
		issues, err := s[ti].validate(out)
		if err != nil || len(issues) == 0 {
			return out, err
		}
		tokens := strings.Split(issues[0].Pointer, "/")
		switch {
		case len(tokens) < 2 || tokens[1] == "product_id" || tokens[1] == "pricing_options" && len(tokens) < 3:
			return nil, fmt.Errorf("as %s: %s", to, issues[0])
		case tokens[1] == "pricing_options":
			i, err := strconv.Atoi(tokens[2])
			if err != nil || i >= len(pricing) {
				return nil, fmt.Errorf("as %s: %s", to, issues[0])
			}
			pricing = append(pricing[:i:i], pricing[i+1:]...)
		default:
			if _, ok := members[tokens[1]]; !ok {
				return nil, fmt.Errorf("as %s: %s", to, issues[0])
			}
			delete(members, tokens[1])
		}
	}
	return nil, fmt.Errorf("as %s: the projection does not settle", to)
}

// servedProductSchemas are the Product schemas of the handlers' release
// (tree, validated with v) and of each later release served.
func servedProductSchemas(tree *spec.Tree, v *validate.Validator) (productSchemas, error) {
	base, err := newProductSchema(tree, v)
	if err != nil {
		return nil, err
	}
	out := productSchemas{base}
	for _, sp := range laterSpecs() {
		t, err := openTree(sp.Version())
		if err != nil {
			return nil, err
		}
		lv, err := validate.New(t, validate.Options{})
		if err != nil {
			return nil, err
		}
		s, err := newProductSchema(t, lv)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// withCatalogForms is shims with get_products completed, in release
// version, by catalogForms.
func withCatalogForms(shims map[string]seller.Shim, c *catalog, version string) map[string]seller.Shim {
	out := maps.Clone(shims)
	if out == nil {
		out = map[string]seller.Shim{}
	}
	sh := out["get_products"]
	sh.Complete = catalogForms(c, version)
	out["get_products"] = sh
	return out
}

// catalogForms completes a get_products answer in release version: each
// product seeded in a later release than the handlers' gets from
// version's Product (its form, or its projection onto version) what its
// projection onto the handlers' release could not hold: the members it
// left out or changed, and the pricing options the request's filters keep
// (runtime/productfilter on the filters as the buyer sent them); the
// members the handlers' release holds as they are stay as the handlers
// made them. The release's Response shims then see the
// completed products (a canonical-only product's empty format_ids
// leaves, divergent declarations are flagged).
func catalogForms(c *catalog, version string) func(*seller.Call, task.Status, json.RawMessage) (json.RawMessage, error) {
	return func(call *seller.Call, status task.Status, p json.RawMessage) (json.RawMessage, error) {
		if status != task.Completed {
			return p, nil
		}
		var failed error
		out, err := editArray(p, "products", func(m map[string]json.RawMessage) bool {
			var id string
			if json.Unmarshal(m["product_id"], &id) != nil {
				return false
			}
			form, base := c.form(id, version)
			if form == nil {
				return false
			}
			var held map[string]json.RawMessage
			_ = json.Unmarshal(base, &held)
			kept, err := productfilter.Apply(call.Member("filters"), []json.RawMessage{form})
			if err == nil && len(kept.Products) != 1 {
				err = fmt.Errorf("product %s: the request's filters keep no form of it", id)
			}
			var members map[string]json.RawMessage
			if err == nil {
				err = json.Unmarshal(kept.Products[0], &members)
			}
			if err != nil {
				failed = err
				return false
			}
			for k, v := range members {
				if h, ok := held[k]; !ok || k == "pricing_options" || !bytes.Equal(h, v) {
					m[k] = v
				}
			}
			return true
		})
		if failed != nil {
			return nil, failed
		}
		return out, err
	}
}
