package wire

import (
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/wireimpl"
)

// PickArm and PickArms apply the same presence rules.
func TestPresencePicking(t *testing.T) {
	u := &wireimpl.Union{Name: "R", Strategy: wireimpl.ByPresence, Exclusive: true, Keys: []string{"a", "b", "status"},
		Arms: []wireimpl.UnionArm{
			{Name: "A", Required: []int{0}, Forbidden: []int{1}},
			{Name: "B", Required: []int{1}},
			{Name: "S", Fixed: []wireimpl.KeyLit{{Key: 2, Lit: `"submitted"`}}},
		}}
	pick := func(in string) (int, error) { return NewDecoder([]byte(in), DecodeOptions{}).pickArm(u) }
	if arm, err := pick(`{"a":1}`); err != nil || arm != 0 {
		t.Fatalf("a: %d %v", arm, err)
	}
	if arm, err := pick(`{"a":1,"b":2}`); err != nil || arm != 1 {
		t.Fatalf("A forbids b, so only B matches: %d %v", arm, err)
	}
	if _, err := pick(`{"b":1, "status": "submitted"}`); err == nil || !strings.Contains(err.Error(), "several arms (B, S)") {
		t.Fatalf("several: %v", err)
	}
	_, err := pick(`{"status":"working","c":1}`)
	if err == nil || !strings.Contains(err.Error(), `A: missing "a"`) || !strings.Contains(err.Error(), `S: "status" is not "submitted"`) {
		t.Fatalf("none: %v", err)
	}
	set, err := NewDecoder([]byte(`{"b":1,"status":"submitted"}`), DecodeOptions{}).pickArms(u)
	if err != nil || set != 0b110 {
		t.Fatalf("PickArms: %b %v", set, err)
	}
}
