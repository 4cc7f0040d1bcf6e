package testcontroller

import (
	"fmt"
	"io/fs"

	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// version is what the controller reads from the version's schemas. A nil
// set admits any name.
type version struct {
	// scenarios is the request schema's scenario enum (AdCP 3.0); later
	// versions leave the name open.
	scenarios map[string]bool
	// listable is the enum of ListScenariosSuccess's scenarios (3.0).
	listable map[string]bool
	// capable is the enum of compliance_testing.scenarios in
	// get_adcp_capabilities (3.0: the force_*_status and simulate_*
	// scenarios only).
	capable map[string]bool
}

// readVersion reads the enums from tree; without a tree every set is nil.
func readVersion(tree *spec.Tree, request, response, capabilities string) (version, error) {
	var v version
	if tree == nil {
		return v, nil
	}
	doc := func(path string) (wire.Lenient, error) {
		if path == "" {
			return nil, nil
		}
		data, err := fs.ReadFile(tree.FS, path)
		if err != nil {
			return nil, fmt.Errorf("testcontroller: %s: %w", path, err)
		}
		l, err := wire.ParseLenient(data)
		if err != nil {
			return nil, fmt.Errorf("testcontroller: %s: %w", path, err)
		}
		return l, nil
	}
	req, err := doc(request)
	if err != nil {
		return v, err
	}
	v.scenarios = enum(req.Get("properties").Get("scenario"))
	resp, err := doc(response)
	if err != nil {
		return v, err
	}
	resp.Get("oneOf").Elems(func(arm wire.Lenient) bool {
		if arm.Get("title").StringIs("ListScenariosSuccess") {
			v.listable = enum(arm.Get("properties").Get("scenarios").Get("items"))
			return false
		}
		return true
	})
	caps, err := doc(capabilities)
	if err != nil {
		return v, err
	}
	v.capable = enum(caps.Get("properties").Get("compliance_testing").Get("properties").Get("scenarios").Get("items"))
	return v, nil
}

// enum is the string enum of schema s, nil when it has none.
func enum(s wire.Lenient) map[string]bool {
	e := s.Get("enum")
	if !e.IsArray() {
		return nil
	}
	out := map[string]bool{}
	e.Elems(func(x wire.Lenient) bool {
		if name, ok := x.AsString(); ok {
			out[name] = true
		}
		return true
	})
	return out
}

// admits reports whether set (nil: any) holds name.
func admits(set map[string]bool, name string) bool { return set == nil || set[name] }
