package signing

import "testing"

// FuzzParseCapability: reading a seller's capabilities never panics, and a
// capability it accepts writes, for every version that can advertise it, a
// block that reads back the same; CallOf never panics.
func FuzzParseCapability(f *testing.F) {
	f.Add([]byte(`{"request_signing":{"supported":true,"covers_content_digest":"required","required_for":["create_media_buy"],"supported_for":["create_media_buy"],"protocol_methods_supported_for":["tasks/cancel"]}}`))
	f.Add([]byte(`{"request_signing":{"supported":true,"supported":false}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"message/send","params":{"message":{"parts":[{"kind":"data","data":{"skill":"sync_creatives"}}]}}}`))
	f.Fuzz(func(t *testing.T, caps []byte) {
		_ = CallOf(caps)
		c, err := ParseCapability(caps)
		if err != nil {
			return
		}
		_ = c.Lists(Invocation{Operation: "create_media_buy"})
		for _, v := range []string{"3.0.26", "3.1.19", "3.2.0-beta.5"} {
			b, err := c.Block(v)
			if err != nil {
				continue
			}
			back, err := ParseCapability(append(append([]byte(`{"request_signing":`), b...), '}'))
			if err != nil || back.Supported != c.Supported || len(back.Policy.SupportedFor) != len(c.Policy.SupportedFor) ||
				len(back.Policy.ProtocolMethodsRequiredFor) != len(c.Policy.ProtocolMethodsRequiredFor) {
				t.Fatalf("%s: %s read back as %+v (%v), was %+v", v, b, back, err, c)
			}
		}
	})
}
