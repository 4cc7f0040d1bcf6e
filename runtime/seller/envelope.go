package seller

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/release"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// The protocol envelope is the framework's. Every AdCP response carries
// the envelope's members (core/protocol-envelope.json: the task's status,
// its task_id, the message, the conversation's context_id, replayed)
// beside the payload's: from 3.1 every response schema includes the
// envelope and requires status; before, some payload schemas declare a
// few of its members themselves. The Spec says, per payload schema, which
// members are the envelope's (registry.Envelope), and the server writes
// them into the encoded body from the task and the Result:
//
//   - a member the envelope owns takes the framework's value; a handler
//     that left it empty (the zero value a generated required field
//     encodes to, "status":"" or "task_id":"") gets it filled, and one
//     that set another value gets its answer refused (EnvelopeError,
//     logged; the buyer gets SERVICE_UNAVAILABLE): the documented way to
//     send a message or a context id is Result.Message and
//     Result.ContextID;
//   - a member the framework has no value for (no message, no task) is
//     the handler's to set, or to leave out;
//   - a member the schema declares with a meaning of its own (3.0's
//     create_media_buy status, the media buy's) is the payload's;
//   - a member the schema does not declare goes beside the payload when
//     the payload has none of that name, as AdCP's MCP serialisation puts
//     the envelope beside the payload, unless the schema is closed.
//
// The body so completed is what goes on every transport, is validated
// (Options.ValidateResponses), stored for idempotent replay and in the task
// store, and posted to webhooks: one response object, byte for byte the
// same everywhere.

// envelopeValues are the framework's values of the envelope members for
// one answer; "" (false) is none.
type envelopeValues struct {
	status, taskID, message, contextID string
	replayed                           bool
	// version is the release served ("3.1"), echoed as adcp_version;
	// "" for none.
	version string
}

// value is the JSON of member's value, nil when there is none.
func (v envelopeValues) value(member string) []byte {
	str := func(s string) []byte {
		if s == "" {
			return nil
		}
		return wire.AppendQuoted(nil, s)
	}
	switch member {
	case registry.MemberStatus:
		return str(v.status)
	case registry.MemberTaskID:
		return str(v.taskID)
	case registry.MemberMessage:
		return str(v.message)
	case registry.MemberContextID:
		return str(v.contextID)
	case registry.MemberReplayed:
		if v.replayed {
			return []byte("true")
		}
	}
	return nil
}

// EnvelopeError is a handler's payload that set a member of the protocol
// envelope to another value than the task's: it is never sent.
type EnvelopeError struct {
	Tool   string
	Member string
	// Got is the handler's value, Want the framework's (JSON).
	Got, Want string
	// Shared reports a payload member of the same name that the schema
	// deprecates in favour of another (3.1's create_media_buy status).
	Shared bool
}

func (e *EnvelopeError) Error() string {
	msg := fmt.Sprintf("%s: the payload's %s %s is the protocol envelope's, which is %s for this answer: leave it empty, the framework sends it",
		e.Tool, e.Member, untrusted.SanitizeTruncate(e.Got, 64), e.Want)
	if e.Member == registry.MemberStatus {
		msg += " (the task status; Result.Status sets it)"
		if e.Shared {
			msg += "; the schema's own status of that name is deprecated: send that value in its own member (media_buy_status, say)"
		}
	}
	if e.Member == memberVersion {
		msg += " (the release the call is served in)"
	}
	if e.Member == registry.MemberMessage || e.Member == registry.MemberContextID {
		msg += " (Result." + map[string]string{registry.MemberMessage: "Message", registry.MemberContextID: "ContextID"}[e.Member] + " sets it)"
	}
	return msg
}

// fillEnvelope writes the envelope's members into body, a JSON object, as
// env says (see above), then the release served (echoVersion's rule), then
// echoes ctxObj (the request's context object, nil for none) as its
// context member: one pass over body and one copy, whatever its size. It
// also returns the message the completed body carries (messageOf).
// strict: body is a handler's payload, and a member the envelope owns that
// it set to another value is an *EnvelopeError.
func fillEnvelope(tool string, body []byte, env registry.Envelope, v envelopeValues, strict bool, ctxObj []byte) ([]byte, string, error) {
	out, _, message, err := fillEnvelopeAt(tool, body, nil, env, v, strict, ctxObj)
	return out, message, err
}

// fillEnvelopeAt is fillEnvelope for a body whose members lie where spans
// says (the encoder's, wire.AppendSpans; nil to read them from body), also
// returning where the completed body's members lie (nil without spans).
func fillEnvelopeAt(tool string, body []byte, spans []wire.Span, env registry.Envelope, v envelopeValues, strict bool, ctxObj []byte) ([]byte, []wire.Span, string, error) {
	var message wire.Lenient
	edit := func(got []wire.Lenient) ([][]byte, error) {
		values := make([][]byte, len(fillNames))
		// Added members go first, each before the last: reversed, the
		// envelope reads in its own order.
		for i, m := range fillNames[:len(envelopeMembers)] {
			want := v.value(m)
			switch g := got[i]; {
			case env.Owns(m, v.status):
				switch {
				case want == nil:
					continue // the handler's, if it set one
				case !emptyMember(g):
					if jsonEqual(g, want) || !strict {
						continue
					}
					return nil, &EnvelopeError{Tool: tool, Member: m, Got: string(g.AppendCompact(nil)), Want: string(want),
						Shared: slices.Contains(env.Payload, m)}
				}
			case env.Declares(m) || env.Closed || g.Present() || want == nil:
				continue // the payload's, or nowhere to put it
			}
			values[i] = want
		}
		if message = got[fillMessage]; values[fillMessage] != nil {
			message = values[fillMessage]
		}
		version, err := echoVersion(tool, got[fillVersion], env, v.version, strict)
		if err != nil {
			return nil, err
		}
		values[fillVersion], values[fillContext] = version, ctxObj
		return values, nil
	}
	var (
		out []byte
		err error
	)
	if spans != nil {
		out, spans, err = wire.Lenient(body).EditMembersAt(spans, fillNames, edit)
	} else {
		out, err = wire.Lenient(body).EditMembers(fillNames, edit)
	}
	if err != nil {
		if ee, ok := errors.AsType[*EnvelopeError](err); ok {
			return nil, nil, "", ee
		}
		return nil, nil, "", fmt.Errorf("%s: the payload is not a JSON object", tool)
	}
	return out, spans, messageOf(message, env), nil
}

// fillNames are the members fillEnvelope writes, in the order it writes
// them: the envelope's in reverse (fillEnvelope), adcp_version, context.
var (
	envelopeMembers = registry.EnvelopeMembers()
	fillNames       = append(reversed(envelopeMembers), memberVersion, "context")
	fillMessage     = slices.Index(fillNames, registry.MemberMessage)
	fillVersion     = len(envelopeMembers)
	fillContext     = len(envelopeMembers) + 1
)

func reversed(s []string) []string {
	out := slices.Clone(s)
	slices.Reverse(out)
	return out
}

// echoVersion is the adcp_version member to write, nil for none, given the
// body's (got): the release served (core/version-envelope.json: "the
// release the seller actually served"), as every answer carries it from
// 3.1, and beside a 3.0 payload, whose schemas admit members they do not
// declare; a closed schema gets none, unless the handler set it. strict: a
// handler's payload, whose other value is an *EnvelopeError.
func echoVersion(tool string, got wire.Lenient, env registry.Envelope, version string, strict bool) ([]byte, error) {
	if version == "" {
		return nil, nil
	}
	want := wire.AppendQuoted(nil, version)
	switch {
	case !emptyMember(got):
		if jsonEqual(got, want) {
			return nil, nil
		}
		if strict {
			return nil, &EnvelopeError{Tool: tool, Member: memberVersion, Got: string(got.AppendCompact(nil)), Want: string(want)}
		}
	case env.Closed:
		return nil, nil
	}
	return want, nil
}

// memberVersion is the echo's member (release.MemberVersion).
const memberVersion = release.MemberVersion

// emptyMember reports an absent member, or one holding "" or null: what a
// generated required field encodes to when the handler left it unset.
func emptyMember(v wire.Lenient) bool {
	if !v.Present() || v.IsNull() {
		return true
	}
	s, ok := v.AsString()
	return ok && s == ""
}

// jsonEqual compares two JSON scalars by value ("\u0061" is "a").
func jsonEqual(got wire.Lenient, want []byte) bool {
	w := wire.Lenient(want)
	if gs, ok := got.AsString(); ok {
		ws, ok := w.AsString()
		return ok && gs == ws
	}
	return string(got.AppendCompact(nil)) == string(w.AppendCompact(nil))
}

// messageOf is the message a body carries as the envelope's (or beside
// the payload), for an answer that has none of its own (a replay, a
// handler that set it in the payload): the body's message member.
func messageOf(member wire.Lenient, env registry.Envelope) string {
	if slices.Contains(env.Payload, registry.MemberMessage) && !slices.Contains(env.Members, registry.MemberMessage) {
		return ""
	}
	s, _ := member.AsString()
	return s
}

// emptyIDs lists the top-level members of body whose name ends in "_id"
// and whose value is the empty string (as JSON pointers): an identifier a
// buyer would act on (task_id, media_buy_id), sent empty. AdCP's id
// schemas rarely set a minLength, so the schema alone lets these through.
func emptyIDs(body []byte) []string {
	var out []string
	wire.Lenient(body).Members(func(k, v wire.Lenient) bool {
		name, _ := k.AsString()
		if s, ok := v.AsString(); ok && s == "" && strings.HasSuffix(name, "_id") {
			out = append(out, "/"+strings.NewReplacer("~", "~0", "/", "~1").Replace(name))
		}
		return true
	})
	return out
}
