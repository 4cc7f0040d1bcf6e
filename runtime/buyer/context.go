package buyer

import (
	"errors"

	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// contextMember is where an MCP request carries the conversation's
// context id.
const contextMember = "context_id"

// contextAllowed reports whether a tool's request may carry context_id:
// AdCP's request schemas do not declare it, so it goes in only where the
// schema admits members it does not declare. The request type's strict
// decoder says so: it refuses an undeclared member exactly where the
// schema has additionalProperties: false. A tool the spec does not type
// gets it, as AdCP's MCP guide sends it.
func (c *Client) contextAllowed(info registry.Tool) bool {
	if info.NewRequest == nil {
		return true
	}
	if ok, cached := c.contextOK.Load(info.Name); cached {
		return ok.(bool)
	}
	ok := true
	var de *wire.DecodeError
	if err := wire.Unmarshal([]byte(`{"context_id":"x"}`), info.NewRequest()); errors.As(err, &de) && de.Kind == wire.KindUnknownField {
		ok = false
	}
	c.contextOK.Store(info.Name, ok)
	return ok
}
