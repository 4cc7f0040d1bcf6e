package seller_test

import (
	"testing"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
)

func TestTerseText(t *testing.T) {
	for _, c := range []struct {
		e    *adcperr.Error
		want string
	}{
		{&adcperr.Error{Code: "SERVICE_UNAVAILABLE", Recovery: registry.Transient}, "SERVICE_UNAVAILABLE: temporary failure, retry later."},
		{&adcperr.Error{Code: "BUDGET_TOO_LOW", Recovery: registry.Correctable}, "BUDGET_TOO_LOW: the request needs a change."},
		{&adcperr.Error{Code: "X_A1_B2", Recovery: registry.Terminal}, "X_A1_B2: needs human attention."},
		{&adcperr.Error{Code: "X_A1_B2"}, "X_A1_B2."},
	} {
		if got := seller.TerseText(c.e); got != c.want {
			t.Errorf("TerseText = %q, want %q", got, c.want)
		}
	}
}
