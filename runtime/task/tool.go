package task

// Tool describes one AdCP tool of one spec version by the Go types it
// exchanges: the request Q, the response R, and the interim payloads S
// (submitted), W (working) and I (input-required). An interim status for
// which the spec gives the tool no payload schema has the type None.
//
// Generated packages declare one per tool (adcp.Tools.GetProducts); there
// is no need to build one by hand.
type Tool[Q, R, S, W, I any] struct {
	name    string
	version string
}

// NewTool returns the descriptor of the tool named name in spec version
// version. Generated code calls it.
func NewTool[Q, R, S, W, I any](name, version string) Tool[Q, R, S, W, I] {
	return Tool[Q, R, S, W, I]{name: name, version: version}
}

// Name is the tool's name on the wire ("get_products").
func (t Tool[Q, R, S, W, I]) Name() string { return t.name }

// Version is the spec version of the package that declared the tool; the
// buyer and the seller refuse a descriptor of another version than their
// Spec's.
func (t Tool[Q, R, S, W, I]) Version() string { return t.version }
