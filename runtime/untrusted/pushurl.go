package untrusted

import (
	"errors"
	"net/netip"
	"net/url"
	"strings"
)

// Reasons a buyer's push-notification URL is rejected, besides the ones
// CheckSellerURL shares (ErrURLMalformed, ErrURLScheme, ErrURLOpaque,
// ErrURLUserinfo).
var (
	// ErrURLInternal: the URL names, or its host resolves to, an address a
	// seller must never post to: loopback, private, link-local (cloud
	// metadata), unspecified, multicast, shared (CGNAT) or reserved.
	ErrURLInternal = errors.New("host is a loopback, private, link-local or reserved address")
	// ErrURLNoHost: the URL has no host.
	ErrURLNoHost = errors.New("URL has no host")
)

// PushURLPolicy says which push-notification URLs CheckPushURL accepts.
// The zero value is the production policy: https only, public addresses
// only.
type PushURLPolicy struct {
	// AllowLoopback also accepts http and loopback hosts (127.0.0.0/8, ::1,
	// "localhost"), so tests can post to an httptest server. Never set it
	// in production: it lets a buyer point the seller at its own services.
	AllowLoopback bool
}

// CheckPushURL validates the URL of a buyer's push_notification_config
// before a seller posts to it (AdCP webhook URL validation against SSRF):
// https, hierarchical with a host, no userinfo, and a host that is not an
// internal address literal or "localhost". A host name passes here; the
// address it resolves to must be checked again when connecting
// (CheckPushAddr), so DNS cannot rebind it to an internal one.
func CheckPushURL(raw string, p PushURLPolicy) (*url.URL, error) {
	fail := func(reason error) (*url.URL, error) {
		return nil, &URLError{URL: SanitizeTruncate(raw, 256), Reason: reason, what: "push notification URL"}
	}
	u, reason := parseHierarchical(raw, p.AllowLoopback)
	if reason != nil {
		return fail(reason)
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "" {
		return fail(ErrURLNoHost)
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		if p.AllowLoopback {
			return u, nil
		}
		return fail(ErrURLInternal)
	}
	if addr, err := netip.ParseAddr(host); err == nil {
		if err := CheckPushAddr(addr, p); err != nil {
			return fail(err)
		}
	} else if isNumericHost(host) {
		// "2130706433", "0x7f.1", "127.1": forms resolvers read as
		// addresses although netip does not.
		return fail(ErrURLInternal)
	}
	return u, nil
}

// isNumericHost reports a host made of digits, dots and hex markers only,
// which some resolvers turn into an IPv4 address.
func isNumericHost(h string) bool {
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= '0' && c <= '9' || c == '.' || c == 'x' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return strings.ContainsAny(h, "0123456789") && (h[0] >= '0' && h[0] <= '9')
}

// internalPrefixes are the special-purpose ranges (RFC 6890 and its
// updates) netip's predicates do not cover.
var internalPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // shared address space (CGNAT)
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, and broadcast
	netip.MustParsePrefix("100::/64"),        // discard
	netip.MustParsePrefix("2001::/23"),       // IETF protocol assignments
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("fec0::/10"),       // site-local (deprecated)
}

// embeddedIPv4 are IPv6 ranges that carry an IPv4 address in their last
// 32 bits (NAT64, IPv4-compatible); the embedded address is checked too.
var embeddedIPv4 = []netip.Prefix{
	netip.MustParsePrefix("64:ff9b::/96"),
	netip.MustParsePrefix("64:ff9b:1::/48"),
	netip.MustParsePrefix("::/96"),
}

// CheckPushAddr rejects an address a seller must not post webhooks to (see
// ErrURLInternal); with p.AllowLoopback, loopback addresses pass. Dialers
// call it with the address they are about to connect to.
func CheckPushAddr(addr netip.Addr, p PushURLPolicy) error {
	addr = addr.Unmap().WithZone("")
	switch {
	case !addr.IsValid():
		return ErrURLInternal
	case addr.IsLoopback():
		if p.AllowLoopback {
			return nil
		}
		return ErrURLInternal
	case addr.IsPrivate(), addr.IsLinkLocalUnicast(), addr.IsLinkLocalMulticast(),
		addr.IsInterfaceLocalMulticast(), addr.IsMulticast(), addr.IsUnspecified():
		return ErrURLInternal
	}
	for _, pre := range internalPrefixes {
		if pre.Contains(addr) {
			return ErrURLInternal
		}
	}
	if addr.Is6() {
		for _, pre := range embeddedIPv4 {
			if pre.Contains(addr) {
				b := addr.As16()
				if err := CheckPushAddr(netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}), p); err != nil {
					return err
				}
			}
		}
		if b := addr.As16(); b[0] == 0x20 && b[1] == 0x02 { // 6to4: 2002:AABB:CCDD::/48
			if err := CheckPushAddr(netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}), p); err != nil {
				return err
			}
		}
	}
	return nil
}
