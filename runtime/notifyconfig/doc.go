// Package notifyconfig keeps the webhook subscribers buyers register with
// notification_configs[]: account-level ones, in sync_accounts (AdCP 3.1
// and later), whose events outlive any one media buy (creative.*,
// product.*, signal.*, wholesale_feed.bulk_change, and from 3.2
// account.status_changed ...), and agent-level ones, in
// sync_agent_notification_configs (3.2), for capabilities.changed.
//
// The rules every seller follows (core/notification-config.json,
// security.mdx "Webhook URL validation"):
//
//   - subscriber_id is the key of an entry within its owner's set: two
//     entries with one key in a request are refused, the second's
//     subscriber_id named;
//   - an event type of another surface is refused, the entry's
//     event_types[i] named, rather than dropped: media-buy-anchored types
//     (scheduled, final, delayed, adjusted, window_update, impairment)
//     belong on a push_notification_config, capabilities.changed on the
//     agent-level surface, and account-anchored types off it;
//   - the URL is checked at write time whether the entry is active or
//     paused (https, a public address: runtime/untrusted);
//   - a request's array replaces the owner's set (declaratively, by
//     subscriber_id; [] clears it); a paused entry (active: false) is
//     kept and echoed, never fired at;
//   - a new or changed active entry is activated only once its endpoint
//     proves control (Options.Prove; Challenger posts the RFC 9421-signed
//     webhook.challenge and wants its value echoed);
//   - credentials in an entry's authentication are write-only: Echo leaves
//     them out.
//
// Read reads and checks a request's array, Keeper applies it to an
// owner's set (an account, or a caller principal for agent-level sets) in
// a Storage, and answers which subscribers an event goes to.
package notifyconfig
