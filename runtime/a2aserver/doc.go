// Package a2aserver serves a seller (runtime/seller) over A2A on a2a-go's
// JSON-RPC server.
//
// ExampleNewHandler mounts a seller at /a2a with its agent card.
//
// A buyer calls a tool with message/send (or message/stream) whose message
// has a DataPart {"skill": "get_products", "input": {...}} ("parameters" is
// accepted for "input", as older buyers send it). a2a-go decodes the
// request into maps, where duplicate keys and escaped "__proto__" are gone,
// so the handler reads the skill's input from the request body's own
// bytes, which the HTTP layer keeps, and the seller reads those strictly.
//
// The answer is an A2A task as AdCP's A2A extraction reads it: the
// response object in the first part of artifacts[0] (a DataPart), the AdCP
// task id at the artifact metadata "adcp_task_id" and as the task's id,
// interim payloads in status.message too, and AdCP errors as a failed task
// with a DataPart {"adcp_error": ...}. tasks/get reads the seller's
// TaskManager, scoped by principal.
//
// Buyers on the JavaScript SDK 6.11 (and the compliance runner built on it)
// read an AdCP payload only from a completed task: an error in a failed
// one reaches them as "Task failed", losing its code and context, and a
// submitted one loses its task_id. They are also the buyers that send the
// legacy key "parameters". Options.TaskStates chooses: the protocol's
// states (the default), completed tasks always, or TaskStatesFollowDialect,
// the protocol's states for "input" and completed tasks for "parameters",
// so both kinds of buyer read every answer. The artifact is the same in
// every case, and runtime/extract reads the same error and the same
// payload from it.
//
// NewHandler answers message/send itself, after the same gate and with the
// same answer and task, and writes the response a2a-go would write for it,
// byte for byte, without a2a-go's re-encoding of the answer at each layer
// (internal/bench, make bench-load); message/stream, tasks/* and what
// a2a-go refuses go to a2a-go.
//
// The agent card lists every tool as a skill, get_adcp_capabilities
// included: the JavaScript buyer treats an agent without that skill as
// AdCP 2.
package a2aserver
