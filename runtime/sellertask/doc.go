// Package sellertask is the async side of an AdCP seller: a
// seller.TaskManager on a sellerstore.TaskStore. A handler that answers
// submitted starts a task (seller.StartTask) and reports on it through its
// seller.TaskHandle; the Manager records each answer in the store, serves
// the version's status tools from it (get_task_status and list_tasks in
// AdCP 3.1 and later; tasks/get, which buyers on the JavaScript SDK poll
// in every version, and tasks/list in 3.0), and posts every update to the
// webhook of the request's push_notification_config (runtime/webhook's
// Sender): signed with RFC 9421 under the seller's key
// (SenderOptions.Signer), or with the legacy HMAC-SHA256 scheme when the
// buyer's push_notification_config carries authentication. Tasks are
// scoped by the authenticated principal: another buyer's task answers
// exactly like a missing one.
//
// Replicas sharing one store (sellerstore/pgstore) share their tasks: the
// store keeps each task's request, so whichever replica learns a task's
// work is done reports it with seller.OpenTask, and Options.Refresh,
// which runs on the replica a buyer's poll reaches, is a place to do it.
//
// The work that finishes a task (a buy) runs once however many replicas
// race to do it: seller.WorkOnTask claims it in the store (ClaimTask) for
// Options.Lease, renewed while it runs, and fences the task's updates by
// the claim, so the final one is a compare-and-set that only the claim's
// holder wins; with pgstore the seller's own writes (InTx) commit with it.
// A worker whose replica died is taken over once its lease lapses: by the
// next WorkOnTask (a buyer's poll through Refresh), or by the Manager
// itself when Options.Work is set, which runs each open task's work in the
// background on whichever replica is alive (ExampleOptions_work).
//
// Webhooks are never lost: each update's notification is written to the
// store's outbox (sellerstore.Outbox) with the update, in one unit of work,
// and posted by the dispatcher of whichever replica claims it, one attempt
// at a time on the Sender's schedule (webhook.Sender.NextAttempt: a
// receiver away for minutes or hours gets every notification, in order,
// once it is back) until delivered, refused for good, or past the Sender's
// Horizon (24 h by default, advertised from 3.2 as
// delivery_retry_horizon_seconds). Its body, and so its idempotency_key,
// is built once: every attempt, on every replica, posts the same bytes. A
// replica killed mid-post leaves the delivery to another once the post's
// claim (three leases) lapses. A store without an outbox gets an in-memory
// one: the same contract, for one process.
//
// ExampleNew wires a Manager into a seller, serves the status tools and
// completes a task a buyer then reads; Close it after the HTTP server's
// Shutdown, so deliveries end or are cancelled.
package sellertask
