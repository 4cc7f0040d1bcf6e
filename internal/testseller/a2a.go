package testseller

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
	"github.com/a2aproject/a2a-go/a2asrv/eventqueue"
)

// A2AReply is a skill's canned answer: a task in State with one artifact
// holding a text part and, when Data is set, a DataPart whose members are
// Data's raw values.
type A2AReply struct {
	State a2a.TaskState // "" means completed
	// Data holds the DataPart's members, each value sent as is.
	Data map[string]json.RawMessage
	// ArtifactMetadata is the artifact's metadata (adcp_task_id, say).
	ArtifactMetadata map[string]any
	// RPCError, when set, is the whole JSON-RPC error object (code,
	// message, data) answered instead of a task, ahead of the SDK.
	RPCError json.RawMessage
	// RPCErrorStatus is the HTTP status sent with RPCError; 0 means 200.
	RPCErrorStatus int
	// Hang makes the seller never answer: the call waits until the buyer
	// gives up.
	Hang bool
	// StatusData, when set, is a DataPart in the task's status message
	// (where interim payloads go), members sent as is; StatusText a text
	// part beside it. A reply in an interim state (submitted, working,
	// input-required) has an artifact only when Data is set.
	StatusData map[string]json.RawMessage
	StatusText string
}

// A2ACall is one message/send (or message/stream) the seller received.
type A2ACall struct {
	Skill string
	// Input is the DataPart's input as the buyer sent it.
	Input json.RawMessage
	// ContextID and TaskID are the message's, "" when absent.
	ContextID, TaskID string
	// N counts the calls of this skill, from 1.
	N int
}

// A2AOptions configure an A2A seller.
type A2AOptions struct {
	// PreferredTransport goes into the agent card; "" leaves it out, as
	// sellers built with the JavaScript SDK do.
	PreferredTransport a2a.TransportProtocol
	// RepeatResult makes a hostile intermediary out of the seller: in every
	// JSON-RPC response, "result":{...} becomes "result":{},"result":{...}.
	RepeatResult bool
	// Script, when set, answers every call instead of the canned replies
	// (whose keys still list the card's skills): a reply per call.
	Script func(A2ACall) A2AReply
}

// A2ASeller is an A2A seller on loopback. Its agent card is at
// /.well-known/agent-card.json and its JSON-RPC endpoint at /a2a.
type A2ASeller struct {
	*httptest.Server
	headerLog
	replies map[string]A2AReply
	script  func(A2ACall) A2AReply

	mu    sync.Mutex
	calls []A2ACall
	// byMessage holds the reply chosen for a message (by message id) until
	// the executor takes it; byTask the reply of a task, for the
	// interceptor that writes its raw bytes.
	byMessage map[string]A2AReply
	byTask    map[a2a.TaskID]A2AReply
}

// skillKey marks, in the task the executor builds, the skill whose reply
// the interceptor substitutes.
const skillKey = "testseller.skill"

// NewA2ASeller starts a seller answering each skill of replies. Close it
// when done.
func NewA2ASeller(replies map[string]A2AReply, opts A2AOptions) *A2ASeller {
	s := &A2ASeller{replies: replies, script: opts.Script, byMessage: map[string]A2AReply{}, byTask: map[a2a.TaskID]A2AReply{}}
	handler := a2asrv.NewHandler(executor{s}, a2asrv.WithCallInterceptor(interceptor{s}))
	mux := http.NewServeMux()
	var rpc http.Handler = a2asrv.NewJSONRPCHandler(handler)
	if opts.RepeatResult {
		rpc = repeatResult(rpc)
	}
	mux.Handle("/a2a", s.rpcErrors(rpc))
	s.Server = httptest.NewUnstartedServer(s.wrap(mux))
	s.Start()
	card := &a2a.AgentCard{
		Name:               "testseller",
		Description:        "AdCP test seller",
		URL:                s.URL + "/a2a",
		PreferredTransport: opts.PreferredTransport,
		ProtocolVersion:    "0.3.0",
		Version:            "0",
		DefaultInputModes:  []string{"application/json"},
		DefaultOutputModes: []string{"application/json"},
		Capabilities:       a2a.AgentCapabilities{Streaming: true},
	}
	for skill := range replies {
		card.Skills = append(card.Skills, a2a.AgentSkill{ID: skill, Name: skill, Description: skill, Tags: []string{"adcp"}})
	}
	mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewStaticAgentCardHandler(card))
	return s
}

// skillOf reads the AdCP skill from a message's DataParts.
func skillOf(m *a2a.Message) string {
	if m == nil {
		return ""
	}
	for _, p := range m.Parts {
		if dp, ok := p.(a2a.DataPart); ok {
			if s, ok := dp.Data["skill"].(string); ok {
				return s
			}
		}
	}
	return ""
}

type executor struct{ s *A2ASeller }

func (e executor) Execute(ctx context.Context, rc *a2asrv.RequestContext, q eventqueue.Queue) error {
	skill := skillOf(rc.Message)
	reply := e.s.take(rc.Message, skill)
	e.s.mu.Lock()
	e.s.byTask[rc.TaskID] = reply
	e.s.mu.Unlock()
	state := reply.State
	if state == "" {
		state = a2a.TaskStateCompleted
	}
	task := &a2a.Task{
		ID:        rc.TaskID,
		ContextID: rc.ContextID,
		Status:    a2a.TaskStatus{State: state},
	}
	if reply.StatusData != nil || reply.StatusText != "" {
		var parts a2a.ContentParts
		if reply.StatusText != "" {
			parts = append(parts, a2a.TextPart{Text: reply.StatusText})
		}
		if reply.StatusData != nil {
			parts = append(parts, a2a.DataPart{Data: map[string]any{skillKey: skill}})
		}
		task.Status.Message = a2a.NewMessageForTask(a2a.MessageRoleAgent, rc, parts...)
	}
	final := state.Terminal() || state == a2a.TaskStateInputRequired
	if final || reply.Data != nil {
		parts := a2a.ContentParts{a2a.TextPart{Text: "canned reply for " + skill}}
		if reply.Data != nil {
			parts = append(parts, a2a.DataPart{Data: map[string]any{skillKey: skill}})
		}
		task.Artifacts = []*a2a.Artifact{{ID: a2a.NewArtifactID(), Metadata: reply.ArtifactMetadata, Parts: parts}}
	}
	if err := q.Write(ctx, task); err != nil {
		return err
	}
	if final {
		return nil
	}
	// A submitted or working task is the answer of this call: a final
	// status event ends the blocking message/send with it.
	return q.Write(ctx, &a2a.TaskStatusUpdateEvent{TaskID: rc.TaskID, ContextID: rc.ContextID, Status: task.Status, Final: true})
}

// take returns the reply chosen for a message (by the script, in
// rpcErrors), else the canned reply of its skill.
func (s *A2ASeller) take(m *a2a.Message, skill string) A2AReply {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m != nil {
		if r, ok := s.byMessage[m.ID]; ok {
			delete(s.byMessage, m.ID)
			return r
		}
	}
	return s.replies[skill]
}

// Calls returns every message received so far, in order.
func (s *A2ASeller) Calls() []A2ACall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]A2ACall(nil), s.calls...)
}

func (executor) Cancel(ctx context.Context, rc *a2asrv.RequestContext, q eventqueue.Queue) error {
	return nil
}

// interceptor makes a hanging skill hang and puts the raw DataPart values
// into outgoing tasks.
type interceptor struct{ s *A2ASeller }

func (i interceptor) Before(ctx context.Context, _ *a2asrv.CallContext, req *a2asrv.Request) (context.Context, error) {
	if p, ok := req.Payload.(*a2a.MessageSendParams); ok && i.s.peek(p.Message).Hang {
		<-ctx.Done()
		return ctx, ctx.Err()
	}
	return ctx, nil
}

// peek is the reply a message will get, without taking it.
func (s *A2ASeller) peek(m *a2a.Message) A2AReply {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m != nil {
		if r, ok := s.byMessage[m.ID]; ok {
			return r
		}
	}
	return s.replies[skillOf(m)]
}

func (i interceptor) After(_ context.Context, _ *a2asrv.CallContext, resp *a2asrv.Response) error {
	switch p := resp.Payload.(type) {
	case *a2a.Task:
		reply := i.s.replyOf(p.ID)
		for _, a := range p.Artifacts {
			fill(a.Parts, reply.Data)
		}
		if p.Status.Message != nil {
			fill(p.Status.Message.Parts, reply.StatusData)
		}
	case *a2a.TaskArtifactUpdateEvent:
		if p.Artifact != nil {
			fill(p.Artifact.Parts, i.s.replyOf(p.TaskID).Data)
		}
	case *a2a.TaskStatusUpdateEvent:
		if p.Status.Message != nil {
			fill(p.Status.Message.Parts, i.s.replyOf(p.TaskID).StatusData)
		}
	}
	return nil
}

func (s *A2ASeller) replyOf(id a2a.TaskID) A2AReply {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byTask[id]
}

// fill replaces the marked DataParts of parts with data's raw members.
func fill(parts a2a.ContentParts, data map[string]json.RawMessage) {
	for k, part := range parts {
		dp, ok := part.(a2a.DataPart)
		if !ok {
			continue
		}
		if _, ok := dp.Data[skillKey].(string); !ok {
			continue
		}
		out := map[string]any{}
		for name, raw := range data {
			out[name] = raw
		}
		parts[k] = a2a.DataPart{Data: out, Metadata: dp.Metadata}
	}
}

// record logs a message and, with a script, chooses its reply.
func (s *A2ASeller) record(m *a2a.Message, body []byte, canned A2AReply) A2AReply {
	call := A2ACall{Skill: skillOf(m), Input: rawInput(body), ContextID: m.ContextID, TaskID: string(m.TaskID)}
	s.mu.Lock()
	defer s.mu.Unlock()
	call.N = 1
	for _, c := range s.calls {
		if c.Skill == call.Skill {
			call.N++
		}
	}
	s.calls = append(s.calls, call)
	if s.script == nil {
		return canned
	}
	reply := s.script(call)
	s.byMessage[m.ID] = reply
	return reply
}

// rawInput is the input of the request's AdCP DataPart, as sent.
func rawInput(body []byte) json.RawMessage {
	var req struct {
		Params struct {
			Message struct {
				Parts []struct {
					Data struct {
						Input json.RawMessage `json:"input"`
					} `json:"data"`
				} `json:"parts"`
			} `json:"message"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &req) != nil {
		return nil
	}
	for _, p := range req.Params.Message.Parts {
		if p.Data.Input != nil {
			return p.Data.Input
		}
	}
	return nil
}

// rpcErrors answers calls of skills with an RPCError before the SDK sees
// them, echoing the request id.
func (s *A2ASeller) rpcErrors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Message *a2a.Message `json:"message"`
			} `json:"params"`
		}
		if json.Unmarshal(body, &req) == nil && req.ID != nil {
			reply := s.replies[skillOf(req.Params.Message)]
			if m := req.Params.Message; m != nil && strings.HasPrefix(req.Method, "message/") {
				reply = s.record(m, body, reply)
			}
			if reply.RPCError != nil {
				rpcErr := reply.RPCError
				w.Header().Set("Content-Type", "application/json")
				if reply.RPCErrorStatus != 0 {
					w.WriteHeader(reply.RPCErrorStatus)
				}
				out := append([]byte(`{"jsonrpc":"2.0","id":`), req.ID...)
				out = append(append(append(out, `,"error":`...), rpcErr...), '}')
				w.Write(out)
				return
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}
