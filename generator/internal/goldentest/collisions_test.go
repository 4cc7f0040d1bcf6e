package goldentest

import (
	"testing"

	"github.com/adcpgen/adcpgen/generator/testdata/golden/collisions"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Payment's arm card_refund and PaymentCard's arm refund both want the
// constructor NewPaymentCardRefund: the naming pass gives the second a
// name of its own, which the emitter declares (a second declaration of
// one name would not compile). Each constructor builds its own union.
func TestArmConstructorCollision(t *testing.T) {
	p := collisions.NewPaymentCardRefund(collisions.CorePaymentCardRefund{Amount: 5})
	c := collisions.NewPaymentCardRefund2(collisions.PaymentCardRefund{Reference: "r1"})
	for _, tc := range []struct {
		v    wire.Value
		want string
	}{
		{&p, `{"kind":"card_refund","amount":5}`},
		{&c, `{"kind":"refund","reference":"r1"}`},
	} {
		out, err := wire.Marshal(tc.v)
		if err != nil || string(out) != tc.want {
			t.Errorf("%T: %s, %v; want %s", tc.v, out, err, tc.want)
		}
	}
	if p.Kind() != collisions.PaymentKindCardRefund || c.Kind() != collisions.PaymentCardKindRefund {
		t.Errorf("kinds %v %v", p.Kind(), c.Kind())
	}
}
