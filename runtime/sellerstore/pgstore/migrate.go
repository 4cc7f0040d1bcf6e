package pgstore

import (
	"context"
	"fmt"
)

// migrationLock is the advisory lock Migrate holds, so replicas starting
// together apply each migration once ("adcpgen" in ASCII).
const migrationLock = 0x616463706765_6e

// migrations are applied in order; migrations[i] brings the schema to
// version i+1. Never edit one that shipped: append.
var migrations = []string{
	// 1: idempotency records and tasks. Text compared for order (task ids)
	// uses the C collation, byte order, as Go compares strings.
	`CREATE TABLE adcp_idempotency (
		principal    text NOT NULL,
		tool         text NOT NULL,
		key          text NOT NULL,
		fingerprint  text NOT NULL,
		token        text NOT NULL,
		claimed_at   timestamptz NOT NULL,
		lease_until  timestamptz NOT NULL,
		retention_us bigint NOT NULL CHECK (retention_us > 0),
		completed_at timestamptz,
		expires_at   timestamptz,
		body         bytea,
		status       text,
		task_id      text,
		PRIMARY KEY (principal, tool, key)
	);
	CREATE INDEX adcp_idempotency_expires ON adcp_idempotency (expires_at) WHERE completed_at IS NOT NULL;
	CREATE INDEX adcp_idempotency_lease ON adcp_idempotency (lease_until) WHERE completed_at IS NULL;
	CREATE TABLE adcp_tasks (
		id          text COLLATE "C" PRIMARY KEY,
		principal   text NOT NULL,
		tool        text NOT NULL,
		status      text NOT NULL,
		created_at  timestamptz NOT NULL,
		updated_at  timestamptz NOT NULL,
		push_config bytea,
		progress    bytea,
		result      bytea
	);
	CREATE INDEX adcp_tasks_list ON adcp_tasks (principal, created_at DESC, id DESC);
	CREATE INDEX adcp_tasks_updated ON adcp_tasks (updated_at);`,
	// 2: the arguments of the call that started a task, so that any
	// replica can take the task over.
	`ALTER TABLE adcp_tasks ADD COLUMN request bytea;`,
	// 3: the (keyid, nonce) pairs of accepted request signatures (Nonces).
	// Both are RFC 8941 strings, printable ASCII, compared byte for byte.
	`CREATE TABLE adcp_signature_nonces (
		keyid      text COLLATE "C" NOT NULL,
		nonce      text COLLATE "C" NOT NULL,
		expires_at timestamptz NOT NULL,
		PRIMARY KEY (keyid, nonce)
	);
	CREATE INDEX adcp_signature_nonces_live ON adcp_signature_nonces (keyid, expires_at);`,
	// 4: claims on tasks' work (ClaimTask, ClaimIdle): the token that
	// fences the claim's writes and when the claim lapses.
	`ALTER TABLE adcp_tasks ADD COLUMN claim_token text, ADD COLUMN claim_until timestamptz;
	CREATE INDEX adcp_tasks_open ON adcp_tasks (updated_at, id) WHERE status NOT IN ('completed', 'failed', 'canceled', 'rejected');`,
	// 5: the webhook outbox (Outbox): deliveries owed, until delivered or
	// given up.
	`CREATE TABLE adcp_webhook_outbox (
		id          bigserial PRIMARY KEY,
		task_id     text COLLATE "C" NOT NULL,
		principal   text NOT NULL,
		tool        text NOT NULL,
		status      text NOT NULL,
		push_config bytea NOT NULL,
		body        bytea NOT NULL,
		created_at  timestamptz NOT NULL,
		deadline    timestamptz NOT NULL,
		next_at     timestamptz NOT NULL,
		attempts    integer NOT NULL DEFAULT 0,
		done_at     timestamptz,
		delivered   boolean NOT NULL DEFAULT false,
		last_status integer,
		last_error  text,
		claim_token text,
		claim_until timestamptz
	);
	CREATE INDEX adcp_webhook_outbox_due ON adcp_webhook_outbox (next_at, id) WHERE done_at IS NULL;
	CREATE INDEX adcp_webhook_outbox_task ON adcp_webhook_outbox (task_id, id) WHERE done_at IS NULL;
	CREATE INDEX adcp_webhook_outbox_done ON adcp_webhook_outbox (done_at) WHERE done_at IS NOT NULL;`,
	// 6: the delivery keys a buyer's webhook receivers published (Dedup).
	`CREATE TABLE adcp_webhook_dedup (
		key         text COLLATE "C" PRIMARY KEY,
		fingerprint text NOT NULL,
		expires_at  timestamptz NOT NULL,
		done        boolean NOT NULL DEFAULT false,
		token       text,
		lease_until timestamptz
	);
	CREATE INDEX adcp_webhook_dedup_expires ON adcp_webhook_dedup (expires_at);`,
	// 7: the trace context a delivery's posts continue (Delivery.Trace).
	`ALTER TABLE adcp_webhook_outbox ADD COLUMN trace text NOT NULL DEFAULT '';`,
}

// SchemaVersion is the schema version this package migrates to.
func SchemaVersion() int { return len(migrations) }

// Migrate brings the database schema to SchemaVersion, applying the missing
// migrations in one transaction under an advisory lock. Running it again,
// or from several replicas at once, changes nothing. A database migrated by
// a newer pgstore is refused rather than used.
func (s *Store) Migrate(ctx context.Context) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("pgstore: migrate: %w", err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // a no-op after Commit
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrationLock)); err != nil {
		return fmt.Errorf("pgstore: migrate: lock: %w", err)
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS adcp_store_migrations (
		version    integer PRIMARY KEY,
		applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return fmt.Errorf("pgstore: migrate: %w", err)
	}
	var have int
	if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM adcp_store_migrations`).Scan(&have); err != nil {
		return fmt.Errorf("pgstore: migrate: read version: %w", err)
	}
	if have > len(migrations) {
		return fmt.Errorf("pgstore: migrate: the database schema is at version %d, newer than this store's %d", have, len(migrations))
	}
	for v := have + 1; v <= len(migrations); v++ {
		if _, err := tx.Exec(ctx, migrations[v-1]); err != nil {
			return fmt.Errorf("pgstore: migrate: version %d: %w", v, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO adcp_store_migrations (version) VALUES ($1)`, v); err != nil {
			return fmt.Errorf("pgstore: migrate: record version %d: %w", v, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("pgstore: migrate: commit: %w", err)
	}
	return nil
}
