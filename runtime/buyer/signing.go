package buyer

import (
	"context"
	"fmt"
	"sync"

	"github.com/adcpgen/adcpgen/runtime/signing"
)

// capabilitiesTool is the protocol-level discovery call.
const capabilitiesTool = "get_adcp_capabilities"

// WithRequestSigning signs the client's calls as the seller asks: before
// the first call, the client reads the seller's request_signing capability
// (get_adcp_capabilities, itself unsigned) and hands it to cs, whose
// Transport must be under the HTTP client the Transport of this Client
// uses (mcpclient.ConnectHTTP, a2aclient.Dial). From then on cs signs the
// operations the seller lists, and calls registering a webhook
// authentication block, with the digest and encoding it asks for; the
// rest go unsigned. A seller whose capabilities cannot be read fails the
// call.
func WithRequestSigning(cs *signing.CallSigner) ClientOption {
	return func(c *Client) { c.signer = &callSigning{cs: cs} }
}

type callSigning struct {
	cs *signing.CallSigner
	mu sync.Mutex // one capabilities read at a time
}

// signingReady gives the CallSigner the seller's capability before the
// first call that is not the capabilities call itself.
func (c *Client) signingReady(ctx context.Context, tool string) error {
	sg := c.signer
	if sg == nil || tool == capabilitiesTool || sg.cs.Ready() {
		return nil
	}
	sg.mu.Lock()
	defer sg.mu.Unlock()
	if sg.cs.Ready() {
		return nil
	}
	caps, err := c.GetAdCPCapabilities(ctx, "")
	if err != nil {
		return fmt.Errorf("buyer: request signing: %w", err)
	}
	capab, err := signing.ParseCapability(caps)
	if err != nil {
		return fmt.Errorf("buyer: request signing: %w", err)
	}
	if err := sg.cs.Use(capab); err != nil {
		return fmt.Errorf("buyer: request signing: %w", err)
	}
	return nil
}

// GetAdCPCapabilities calls get_adcp_capabilities on the seller this client
// is connected to and returns the answer's payload object (an AdCP error
// the seller answers is an *adcperr.Error). It makes the
// client a discovery.Capabilities for that seller (the first step of
// finding its signing keys from its URL: a buyer's webhook receiver
// verifying the seller's webhooks); agentURL names the seller and must be
// the one the client's Transport was connected to: the client does not dial
// it.
func (c *Client) GetAdCPCapabilities(ctx context.Context, agentURL string) ([]byte, error) {
	out, err := c.Invoke(ctx, capabilitiesTool, nil)
	if err != nil {
		return nil, err
	}
	if out.Data == nil {
		return nil, fmt.Errorf("buyer: %s: the answer carries no payload", capabilitiesTool)
	}
	return out.Data, nil
}
