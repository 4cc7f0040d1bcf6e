package buyer

import (
	"sync"

	"github.com/adcpgen/adcpgen/runtime/task"
)

// Conversation carries the seller's context id from one call to the next,
// as AdCP's context management asks: on MCP the client must resend the
// context_id the seller answered with (in the request's arguments, where
// the tool's request schema admits it); on A2A it is the message's
// contextId. When the seller asks for input, the next call of the
// conversation answers that task (A2A: the message's taskId).
//
// The zero value is a new conversation. It is safe for concurrent use, but
// a conversation is a sequence: calls in one should not overlap.
type Conversation struct {
	mu        sync.Mutex
	contextID string
	// inputTask is the A2A task that asked for input, answered by the
	// next call.
	inputTask string
}

// ContextID is the seller's context id, "" before the seller gave one.
func (v *Conversation) ContextID() string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.contextID
}

// Resume continues a conversation whose context id was kept elsewhere.
func (v *Conversation) Resume(contextID string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.contextID, v.inputTask = contextID, ""
}

// Reset starts over, as after the seller reports that the context expired.
func (v *Conversation) Reset() { v.Resume("") }

func (v *Conversation) state() (contextID, inputTask string) {
	if v == nil {
		return "", ""
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.contextID, v.inputTask
}

// observe records what an answer says about the conversation.
func (v *Conversation) observe(o *Reply) {
	if v == nil || o == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if o.ContextID != "" {
		v.contextID = o.ContextID
	}
	v.inputTask = ""
	if o.Status == task.InputRequired || o.Status == task.AuthRequired {
		v.inputTask = o.remoteTaskID
	}
}
