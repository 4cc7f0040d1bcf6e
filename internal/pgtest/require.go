package pgtest

import (
	"os"
	"testing"
)

// ForTest starts a cluster for t, removed when t ends. Without PostgreSQL
// it skips, saying why, or fails when ADCP_REQUIRE_PG=1 (CI).
func ForTest(t testing.TB) *Cluster {
	t.Helper()
	c, err := Start()
	if err != nil {
		if os.Getenv("ADCP_REQUIRE_PG") == "1" {
			t.Fatalf("ADCP_REQUIRE_PG=1 and no PostgreSQL: %v", err)
		}
		t.Skipf("no PostgreSQL cluster to test against (install initdb and pg_ctl): %v", err)
	}
	t.Cleanup(func() {
		if err := c.Remove(); err != nil {
			t.Errorf("pgtest: remove the cluster: %v", err)
		}
	})
	return c
}
