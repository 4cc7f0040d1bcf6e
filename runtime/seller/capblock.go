package seller

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// SetCapability adds the top-level member name to the automatic
// get_adcp_capabilities answer, with the value block returns when the
// answer is made (nil leaves the member out): how a framework piece
// declares what it serves, such as the test controller's
// compliance_testing block, computed from the hooks registered by then.
// Options.Capabilities wins where it sets the member itself. It panics on
// an empty name or a nil block, and on a name set twice.
func (s *Server) SetCapability(name string, block func() json.RawMessage) {
	if name == "" || block == nil {
		panic("seller: SetCapability needs a name and a block")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.blocks[name]; ok {
		panic(fmt.Sprintf("seller: capability %q set twice", name))
	}
	if s.blocks == nil {
		s.blocks = map[string]func() json.RawMessage{}
	}
	s.blocks[name] = block
}

// addBlocks adds to the capabilities object obj the members SetCapability
// declared that obj lacks, in name order.
func (s *Server) addBlocks(obj []byte) ([]byte, error) {
	type named struct {
		name  string
		block func() json.RawMessage
	}
	s.mu.RLock()
	blocks := make([]named, 0, len(s.blocks))
	for name, b := range s.blocks {
		blocks = append(blocks, named{name, b})
	}
	s.mu.RUnlock()
	// Each is added first: in reverse name order, they end up in name order.
	sort.Slice(blocks, func(i, j int) bool { return blocks[i].name > blocks[j].name })
	for _, b := range blocks {
		if wire.Lenient(obj).Get(b.name).Present() {
			continue
		}
		value := b.block()
		if value == nil {
			continue
		}
		if _, err := wire.ParseLenient(value); err != nil {
			return nil, fmt.Errorf("seller: capability %q: %w", b.name, err)
		}
		var err error
		if obj, err = withMember(obj, b.name, value); err != nil {
			return nil, err
		}
	}
	return obj, nil
}
