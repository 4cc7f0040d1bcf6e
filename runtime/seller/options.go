package seller

import (
	"errors"
	"fmt"
	"net/url"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// checkOptions refuses, when the server is made, settings that would make
// every get_adcp_capabilities fail at request time.
func checkOptions(cfg Options) error {
	if len(cfg.Capabilities) > 0 {
		v, err := wire.ParseLenient(cfg.Capabilities)
		if err == nil && !v.IsObject() {
			err = errors.New("not a JSON object")
		}
		if err != nil {
			return fmt.Errorf("seller: Options.Capabilities: %w", err)
		}
	}
	if cfg.BrandJSONURL != "" {
		// identity.brand_json_url is "^https://" in every version that
		// has it; buyers fetch the operator's keys from it.
		u, err := url.Parse(cfg.BrandJSONURL)
		if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil || u.Fragment != "" {
			return fmt.Errorf("seller: Options.BrandJSONURL %q: want an absolute https URL without credentials or fragment "+
				"(identity.brand_json_url, where buyers find this agent's keys; leave it empty when the agent is not served over https)", cfg.BrandJSONURL)
		}
	}
	return nil
}
