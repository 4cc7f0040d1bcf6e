package webhook_test

import (
	"fmt"
	"time"

	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/webhook"
)

// Webhooks: verify the legacy signature over the raw body, then extract.
func ExampleHMAC() {
	h, err := webhook.NewHMAC([]byte("use-a-random-32-byte-secret-from-your-kms"))
	if err != nil {
		fmt.Println(err)
		return
	}
	body := []byte(`{"task_id":"task_001","status":"completed","result":{"media_buy_id":"mb_1"}}`)
	sig, _ := h.Sign(1700000000, body) // what the seller sends

	h.Now = func() time.Time { return time.Unix(1700000030, 0) } // the buyer's clock
	if err := h.Verify("1700000000", body, sig); err != nil {
		fmt.Println("reject:", err)
		return
	}
	r := extract.New(nil).Webhook(body) // extract.New(yourpkg.Spec()) in real code
	fmt.Println(r.Form, r.State, string(r.Data))
	// Output:
	// mcp_webhook completed {"media_buy_id":"mb_1"}
}
