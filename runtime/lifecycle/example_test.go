package lifecycle_test

import (
	"fmt"

	"github.com/adcpgen/adcpgen/runtime/lifecycle"
)

// update_media_buy's pause, resume and cancel on one buy, then on the
// canceled buy: the errors are the AdCP ones the buyer gets.
func Example() {
	status := lifecycle.MediaBuyActive
	for _, step := range []struct {
		name string
		do   func(string) (string, error)
	}{
		{"pause", lifecycle.Pause},
		{"resume", lifecycle.Resume},
		{"cancel", lifecycle.Cancel},
		{"pause", lifecycle.Pause},
		{"cancel", lifecycle.Cancel},
	} {
		next, err := step.do(status)
		if err != nil {
			fmt.Printf("%s: %v\n", step.name, err)
			continue
		}
		status = next
		fmt.Printf("%s: %s, valid actions %v\n", step.name, status, lifecycle.ValidActions(status))
	}
	// Output:
	// pause: paused, valid actions [resume cancel update_budget update_dates update_packages sync_creatives]
	// resume: active, valid actions [pause cancel update_budget update_dates update_packages sync_creatives]
	// cancel: canceled, valid actions []
	// pause: adcp error INVALID_STATE: The media buy is canceled and cannot be paused
	// cancel: adcp error NOT_CANCELLABLE: The media buy is canceled; it can no longer be canceled
}
