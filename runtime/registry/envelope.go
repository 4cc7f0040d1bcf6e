package registry

import "slices"

// The members of AdCP's protocol envelope (core/protocol-envelope.json)
// that the protocol layer sets: the seller framework fills them from the
// task, never the handler, and the buyer reads them as the task's.
const (
	MemberStatus    = "status"
	MemberTaskID    = "task_id"
	MemberMessage   = "message"
	MemberContextID = "context_id"
	MemberReplayed  = "replayed"
)

// EnvelopeMembers lists the members the protocol layer sets, in the order a
// seller writes them.
func EnvelopeMembers() []string {
	return []string{MemberStatus, MemberTaskID, MemberMessage, MemberContextID, MemberReplayed}
}

// Envelope is what one payload schema (a tool's response, or an interim
// payload) says about the members of the protocol envelope: which of them
// it declares as the envelope's, which it declares with a meaning of its
// own, and whether anything may go beside what it declares. From 3.1 every
// response schema includes core/protocol-envelope.json, so its status,
// task_id, message, context_id and replayed are the envelope's; before,
// a schema declares some of them itself (a submitted payload's status
// const "submitted" and task_id), and some declare a member of that name
// that is not the envelope's (3.0's create_media_buy success status, a
// MediaBuyStatus).
//
// The zero Envelope says nothing: the members go beside the payload
// where it has none of that name, as AdCP's MCP serialisation puts the
// envelope's fields beside the payload's.
type Envelope struct {
	// Members are the EnvelopeMembers the schema declares as the
	// envelope's: through core/protocol-envelope.json, which it includes,
	// or as properties of its own holding the envelope's value (a task
	// status, a task id).
	Members []string
	// Statuses narrows the envelope's status to these task statuses where
	// the schema fixes them (a submitted payload's const "submitted"); nil
	// when any task status may be sent.
	Statuses []string
	// Payload are envelope member names the schema declares with a meaning
	// of its own (AdCP 3.0's create_media_buy status, the media buy's):
	// the handler's to set, never the envelope's, except where Members
	// has them too and the value is one Statuses admits.
	Payload []string
	// Closed reports a schema (or one of its arms) that admits no member
	// it does not declare: nothing is added beside the payload.
	Closed bool
}

// IsZero reports an Envelope that says nothing.
func (e Envelope) IsZero() bool {
	return len(e.Members) == 0 && len(e.Statuses) == 0 && len(e.Payload) == 0 && !e.Closed
}

// Owns reports whether member, with the value value (a status, for
// MemberStatus; ignored otherwise), is the envelope's in a payload of this
// schema: declared as the envelope's, and for status one Statuses admits.
func (e Envelope) Owns(member, value string) bool {
	if !slices.Contains(e.Members, member) {
		return false
	}
	return member != MemberStatus || e.Statuses == nil || slices.Contains(e.Statuses, value)
}

// Declares reports a member the schema declares in any way: as the
// envelope's (for any value) or as its own.
func (e Envelope) Declares(member string) bool {
	return slices.Contains(e.Members, member) || slices.Contains(e.Payload, member)
}

// Beside reports whether member may be added beside a payload of this
// schema that lacks it: the schema does not declare it and is not closed.
func (e Envelope) Beside(member string) bool {
	return !e.Closed && !e.Declares(member)
}

// EnvelopeFor returns the Envelope of the payload a tool answers with
// status: the async schema's for an interim status the spec gives one,
// else the response schema's.
func (t Tool) EnvelopeFor(status string) Envelope {
	if a, ok := t.AsyncFor(status); ok {
		return a.Envelope
	}
	return t.Envelope
}

// StatusIsTask reports whether a payload of this tool whose status member
// holds value says the task's status (the envelope's) rather than a status
// of its own: true where a schema of the tool owns status with that value,
// false where a schema declares a status of its own, and true when the
// tables say nothing (packages generated before they did).
func (t Tool) StatusIsTask(value string) bool {
	envs := append([]Envelope{t.Envelope}, make([]Envelope, 0, len(t.Async))...)
	for _, a := range t.Async {
		envs = append(envs, a.Envelope)
	}
	for _, e := range envs {
		if e.Owns(MemberStatus, value) {
			return true
		}
	}
	for _, e := range envs {
		if slices.Contains(e.Payload, MemberStatus) {
			return false
		}
	}
	return true
}
