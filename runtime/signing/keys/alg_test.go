package keys

import "testing"

func TestP1363(t *testing.T) {
	if _, err := p1363([]byte{0x30, 0x01}); err == nil {
		t.Fatal("garbage accepted")
	}
	rs := make([]byte, 64)
	rs[0] = 0x30 // r‖s that starts like DER
	if got, err := p1363(rs); err != nil || string(got) != string(rs) {
		t.Fatal("r‖s starting with 0x30 was not kept")
	}
}
