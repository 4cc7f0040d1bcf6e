package main

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/release"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/validate"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// withPin adds the --adcp-version pin to the request: adcp_major_version
// and adcp_version, each unless the request sets it (a request setting
// another value than an explicit --adcp-version is a usage error);
// adcp_version on a release before 3.1 only where the tool's request
// schema admits a member it does not declare.
func (f *callFlags) withPin(tree *spec.Tree, sp *registry.Spec, req json.RawMessage) (json.RawMessage, error) {
	var pin release.Release
	var err error
	if f.pin == "" {
		if pin, err = release.Of(sp.Version()); err != nil {
			return req, nil // a spec of no release (the core schemas): no pin
		}
	} else if pin, err = release.FromWire(f.pin); err != nil {
		return nil, fmt.Errorf("--adcp-version: %w", err)
	}
	obj, _ := wire.ParseLenient(req)
	if v := obj.Get(release.MemberVersion); v.Present() {
		if s, _ := v.AsString(); f.pin != "" && s != pin.String() {
			return nil, fmt.Errorf("--request sets adcp_version %s, --adcp-version %s", v, pin)
		}
	} else if pin.Compare(release.Release{Major: 3, Minor: 1, Pre: "0"}) >= 0 || admitsUndeclared(tree, sp, f.tool) {
		out, _ := obj.WithMember(release.MemberVersion, wire.AppendQuoted(nil, pin.String()))
		obj = out
	}
	if v := obj.Get(release.MemberMajor); v.Present() {
		if f.pin != "" && string(v) != strconv.Itoa(pin.Major) {
			return nil, fmt.Errorf("--request sets adcp_major_version %s, --adcp-version %s", v, pin)
		}
	} else {
		out, _ := obj.WithMember(release.MemberMajor, []byte(strconv.Itoa(pin.Major)))
		obj = out
	}
	return json.RawMessage(obj), nil
}

// admitsUndeclared reports whether the tool's request schema admits a
// member it does not declare (true when the spec has no schema for it).
func admitsUndeclared(tree *spec.Tree, sp *registry.Spec, tool string) bool {
	t, ok := sp.Tool(tool)
	if !ok || t.RequestSchema == "" {
		return true
	}
	v, err := validate.New(tree, validate.Options{})
	if err != nil {
		return true
	}
	issues, err := v.Validate(t.RequestSchema, []byte(`{"adcp_version_probe":true}`))
	if err != nil {
		return true
	}
	for _, is := range issues {
		if is.Keyword == "additionalProperties" {
			return false
		}
	}
	return true
}
