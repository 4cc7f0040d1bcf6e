package notifyconfig_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/adcpgen/adcpgen/runtime/notifyconfig"
)

// A sync_accounts handler applies an account's notification_configs[]:
// refusals answer the account entry (action failed), else the keeper
// replaces the account's set and the answer echoes it.
func ExampleKeeper_Sync() {
	keeper := notifyconfig.New(notifyconfig.Options{}) // Prove: a Challenger's, in production
	array := json.RawMessage(`[{"subscriber_id":"buyer-primary","url":"https://buyer.example/hooks/adcp",
		"event_types":["creative.status_changed"],"active":false}]`)
	set, refusals := notifyconfig.Read(array, notifyconfig.ReadOptions{Scope: notifyconfig.AccountLevel})
	if len(refusals) > 0 {
		fmt.Println("refused:", refusals[0].Field, refusals[0].Message)
		return
	}
	change, applied, err := keeper.Sync(context.Background(), "acct_123", set, false)
	if err != nil {
		fmt.Println(err)
		return
	}
	echo, _ := notifyconfig.Echo(applied)
	fmt.Println(change, len(echo) > 0)

	_, refusals = notifyconfig.Read(json.RawMessage(`[{"subscriber_id":"reports","url":"https://buyer.example/r","event_types":["scheduled"]}]`),
		notifyconfig.ReadOptions{Scope: notifyconfig.AccountLevel})
	fmt.Println(refusals[0].Code, refusals[0].Field)
	// Output:
	// updated true
	// VALIDATION_ERROR notification_configs[0].event_types[0]
}
