//go:build !unix

package pgtest

import "errors"

// Cluster is a throwaway PostgreSQL cluster; this system cannot start one.
type Cluster struct{}

// Start fails: starting a throwaway cluster needs a unix system.
func Start() (*Cluster, error) {
	return nil, errors.New("starting a throwaway PostgreSQL needs a unix system; set ADCPGEN_TEST_PG")
}

// DSN is empty.
func (c *Cluster) DSN() string { return "" }

// Start does nothing.
func (c *Cluster) Start() error { return nil }

// Stop does nothing.
func (c *Cluster) Stop(string) error { return nil }

// Restart does nothing.
func (c *Cluster) Restart(string) error { return nil }

// Remove does nothing.
func (c *Cluster) Remove() error { return nil }
