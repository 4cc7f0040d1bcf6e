package untrusted_test

import (
	"errors"
	"net/netip"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/untrusted"
)

func TestCheckPushURL(t *testing.T) {
	prod := untrusted.PushURLPolicy{}
	test := untrusted.PushURLPolicy{AllowLoopback: true}
	for _, c := range []struct {
		url  string
		p    untrusted.PushURLPolicy
		want error
	}{
		{"https://buyer.example/webhooks/adcp/create_media_buy/op_1", prod, nil},
		{"https://buyer.example:9443/hook?x=1", prod, nil},
		{"https://8.8.8.8/hook", prod, nil},
		{"https://[2606:4700::1111]/hook", prod, nil},
		{"http://buyer.example/hook", prod, untrusted.ErrURLScheme},
		{"ftp://buyer.example/hook", prod, untrusted.ErrURLScheme},
		{"javascript:alert(1)", prod, untrusted.ErrURLScheme},
		{"https:buyer.example/hook", prod, untrusted.ErrURLOpaque},
		{"https://user@buyer.example/hook", prod, untrusted.ErrURLUserinfo},
		{"https://@buyer.example/hook", prod, untrusted.ErrURLUserinfo},
		{"https:///hook", prod, untrusted.ErrURLNoHost},
		{"", prod, untrusted.ErrURLMalformed},
		{"https://localhost/hook", prod, untrusted.ErrURLInternal},
		{"https://LOCALHOST./hook", prod, untrusted.ErrURLInternal},
		{"https://api.localhost/hook", prod, untrusted.ErrURLInternal},
		{"https://127.0.0.1/hook", prod, untrusted.ErrURLInternal},
		{"https://127.1/hook", prod, untrusted.ErrURLInternal},
		{"https://2130706433/hook", prod, untrusted.ErrURLInternal},
		{"https://0x7f000001/hook", prod, untrusted.ErrURLInternal},
		{"https://[::1]/hook", prod, untrusted.ErrURLInternal},
		{"https://[::ffff:127.0.0.1]/hook", prod, untrusted.ErrURLInternal},
		{"https://10.1.2.3/hook", prod, untrusted.ErrURLInternal},
		{"https://172.16.0.1/hook", prod, untrusted.ErrURLInternal},
		{"https://192.168.1.1/hook", prod, untrusted.ErrURLInternal},
		{"https://169.254.169.254/latest/meta-data", prod, untrusted.ErrURLInternal},
		{"https://100.64.0.1/hook", prod, untrusted.ErrURLInternal},
		{"https://0.0.0.0/hook", prod, untrusted.ErrURLInternal},
		{"https://255.255.255.255/hook", prod, untrusted.ErrURLInternal},
		{"https://224.0.0.1/hook", prod, untrusted.ErrURLInternal},
		{"https://[fd00::1]/hook", prod, untrusted.ErrURLInternal},
		{"https://[fe80::1%25eth0]/hook", prod, untrusted.ErrURLInternal},
		{"https://[64:ff9b::a9fe:a9fe]/hook", prod, untrusted.ErrURLInternal}, // NAT64 of 169.254.169.254
		{"https://[2002:7f00:1::]/hook", prod, untrusted.ErrURLInternal},      // 6to4 of 127.0.0.1
		{"http://127.0.0.1:8080/hook", test, nil},
		{"http://localhost:8080/hook", test, nil},
		{"http://[::1]:8080/hook", test, nil},
		{"http://10.0.0.1/hook", test, untrusted.ErrURLInternal},
		{"http://169.254.169.254/hook", test, untrusted.ErrURLInternal},
		{"file:///etc/passwd", test, untrusted.ErrURLScheme},
	} {
		_, err := untrusted.CheckPushURL(c.url, c.p)
		if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
			t.Errorf("CheckPushURL(%q, loopback=%v) = %v, want %v", c.url, c.p.AllowLoopback, err, c.want)
		}
		var ue *untrusted.URLError
		if err != nil && !errors.As(err, &ue) {
			t.Errorf("CheckPushURL(%q): %T is not a *URLError", c.url, err)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "push notification URL ") {
			t.Errorf("CheckPushURL(%q) = %q: the message names another kind of URL", c.url, err)
		}
	}
}

func TestCheckPushAddr(t *testing.T) {
	for _, c := range []struct {
		addr     string
		loopback bool
		want     error
	}{
		{"93.184.216.34", false, nil},
		{"2606:4700::1111", false, nil},
		{"::8.8.8.8", false, nil},
		{"127.0.0.53", false, untrusted.ErrURLInternal},
		{"127.0.0.53", true, nil},
		{"::1", true, nil},
		{"::", true, untrusted.ErrURLInternal},
		{"192.168.0.10", true, untrusted.ErrURLInternal},
		{"198.18.0.1", false, untrusted.ErrURLInternal},
		{"::ffff:10.0.0.1", false, untrusted.ErrURLInternal},
	} {
		err := untrusted.CheckPushAddr(netip.MustParseAddr(c.addr), untrusted.PushURLPolicy{AllowLoopback: c.loopback})
		if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
			t.Errorf("CheckPushAddr(%s, loopback=%v) = %v, want %v", c.addr, c.loopback, err, c.want)
		}
	}
	if err := untrusted.CheckPushAddr(netip.Addr{}, untrusted.PushURLPolicy{}); !errors.Is(err, untrusted.ErrURLInternal) {
		t.Errorf("zero address: %v", err)
	}
}

func FuzzCheckPushURL(f *testing.F) {
	f.Add("https://buyer.example/hook")
	f.Add("https://[::ffff:127.0.0.1]/x")
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := untrusted.CheckPushURL(raw, untrusted.PushURLPolicy{})
		if err == nil && (u == nil || u.Scheme == "" || u.Host == "") {
			t.Fatalf("accepted %q without a scheme and host", raw)
		}
	})
}
