package sellerstore_test

import (
	"testing"

	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/sellerstore/storetest"
)

func TestMemoryConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, clock sellerstore.Clock) sellerstore.Store {
		return sellerstore.NewMemory(clock)
	})
	storetest.RunShared(t, func(t *testing.T, clock sellerstore.Clock) (a, b sellerstore.Store) {
		m := sellerstore.NewMemory(clock)
		return m, m
	})
}
