package runtime

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// ErrNoManifest: the spec tree has no manifest.json (AdCP before 3.0.26).
var ErrNoManifest = errors.New("no manifest.json (spec versions before 3.0.26 have none)")

// ManifestName is the manifest's path inside a schema tree (a spec.Tree's
// FS); in a protocol bundle it is schemas/manifest.json.
const ManifestName = "manifest.json"

// LoadManifestCodes reads the error-code table of the manifest at the root
// of fsys, such as spec.Tree.FS. source names the tree in messages. A tree
// without a manifest is an error wrapping ErrNoManifest.
func LoadManifestCodes(fsys fs.FS, source string) (*CodeTable, error) {
	data, err := fs.ReadFile(fsys, ManifestName)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", source, ErrNoManifest)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: reading %s: %w", source, ManifestName, err)
	}
	return ParseManifestCodes(data, source+"/"+ManifestName)
}

// ParseManifestCodes builds a code table from a manifest's error_codes
// ({CODE: {"recovery": ...}}) and error_code_policy.default_unknown_recovery.
// name names the file in messages; errors carry a JSON pointer.
func ParseManifestCodes(data []byte, name string) (*CodeTable, error) {
	doc, err := parseDocument(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if !doc.isObject() {
		return nil, fmt.Errorf("%s: the manifest is not a JSON object", name)
	}
	codes := doc.get("error_codes")
	if !codes.isObject() {
		return nil, fmt.Errorf("%s: /error_codes: want an object of error codes", name)
	}
	source := name
	if v, ok := doc.get("adcp_version").str(); ok && v != "" {
		source = "AdCP " + v + " (" + name + ")"
	}
	t := &CodeTable{codes: map[string]Recovery{}, sources: []string{source}}
	codes.members(func(k, entry jval) bool {
		code, _ := k.str()
		ptr := "/error_codes/" + pointerToken(code)
		rec, ok := entry.get("recovery").str()
		switch {
		case !entry.isObject():
			err = fmt.Errorf("%s: %s: want an object with a recovery", name, ptr)
		case !ok:
			err = fmt.Errorf("%s: %s/recovery: want a string", name, ptr)
		case !Recovery(rec).Valid():
			err = fmt.Errorf("%s: %s/recovery: %q is not transient, correctable or terminal", name, ptr, rec)
		case code == "":
			err = fmt.Errorf("%s: /error_codes: empty error code", name)
		}
		if err != nil {
			return false
		}
		t.codes[code] = Recovery(rec)
		return true
	})
	if err != nil {
		return nil, err
	}
	if u := doc.get("error_code_policy").get("default_unknown_recovery"); u.present() {
		s, _ := u.str()
		if !Recovery(s).Valid() {
			return nil, fmt.Errorf("%s: /error_code_policy/default_unknown_recovery: %s is not transient, correctable or terminal", name, string(u))
		}
		t.unknown = Recovery(s)
	}
	return t, nil
}

// pointerToken escapes a JSON pointer reference token (RFC 6901).
func pointerToken(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}
