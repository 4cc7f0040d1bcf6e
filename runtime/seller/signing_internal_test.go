package seller

import "testing"

// identity.brand_json_url is advertised where the version's capabilities
// admit it: from 3.0.5, when 3.0's identity block opened for it.
func TestIdentityHasBrandJSONURL(t *testing.T) {
	for v, want := range map[string]bool{
		"2.5.3": false, "3.0.0": false, "3.0.4": false, "3.0.5": true, "3.0.26": true, "3.0": true,
		"3.1.19": true, "3.2.0-beta.3": true, "3.2.0-beta.5": true, "4.0.0": true, "": false, "v3": false,
	} {
		if got := identityHasBrandJSONURL(v); got != want {
			t.Errorf("%q: %v, want %v", v, got, want)
		}
	}
}
