package untrusted

import (
	"errors"
	"syscall"
	"testing"
)

// The client's dialer checks the address a host name resolved to, so DNS
// cannot rebind a public name to an internal address.
func TestDialControlChecksResolvedAddresses(t *testing.T) {
	prod := dialControl(PushURLPolicy{})
	test := dialControl(PushURLPolicy{AllowLoopback: true})
	for _, c := range []struct {
		address string
		control func(string, string, syscall.RawConn) error
		want    error
	}{
		{"93.184.216.34:443", prod, nil},
		{"127.0.0.1:443", prod, ErrURLInternal},
		{"[::1]:443", prod, ErrURLInternal},
		{"169.254.169.254:80", prod, ErrURLInternal},
		{"10.0.0.7:443", test, ErrURLInternal},
		{"127.0.0.1:8080", test, nil},
	} {
		err := c.control("tcp", c.address, nil)
		if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
			t.Errorf("dial %s: %v, want %v", c.address, err, c.want)
		}
	}
	if err := prod("tcp", "no-port", nil); err == nil {
		t.Error("an address without a port was accepted")
	}
}
