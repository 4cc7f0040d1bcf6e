package testseller

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
	"github.com/a2aproject/a2a-go/a2asrv/eventqueue"
)

// A2AReply is a skill's canned answer: a task in State with one artifact
// holding a text part and a DataPart whose members are Data's raw values.
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
}

// A2AOptions configure an A2A seller.
type A2AOptions struct {
	// PreferredTransport goes into the agent card; "" leaves it out, as
	// sellers built with the JavaScript SDK do.
	PreferredTransport a2a.TransportProtocol
	// RepeatResult makes a hostile intermediary out of the seller: in every
	// JSON-RPC response, "result":{...} becomes "result":{},"result":{...}.
	RepeatResult bool
}

// A2ASeller is an A2A seller on loopback. Its agent card is at
// /.well-known/agent-card.json and its JSON-RPC endpoint at /a2a.
type A2ASeller struct {
	*httptest.Server
	headerLog
	replies map[string]A2AReply
}

// skillKey marks, in the task the executor builds, the skill whose reply
// the interceptor substitutes.
const skillKey = "testseller.skill"

// NewA2ASeller starts a seller answering each skill of replies. Close it
// when done.
func NewA2ASeller(replies map[string]A2AReply, opts A2AOptions) *A2ASeller {
	s := &A2ASeller{replies: replies}
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
	reply := e.s.replies[skill]
	state := reply.State
	if state == "" {
		state = a2a.TaskStateCompleted
	}
	task := &a2a.Task{
		ID:        rc.TaskID,
		ContextID: rc.ContextID,
		Status:    a2a.TaskStatus{State: state},
		Artifacts: []*a2a.Artifact{{
			ID:       a2a.NewArtifactID(),
			Metadata: reply.ArtifactMetadata,
			Parts: a2a.ContentParts{
				a2a.TextPart{Text: "canned reply for " + skill},
				a2a.DataPart{Data: map[string]any{skillKey: skill}},
			},
		}},
	}
	return q.Write(ctx, task)
}

func (executor) Cancel(ctx context.Context, rc *a2asrv.RequestContext, q eventqueue.Queue) error {
	return nil
}

// interceptor makes a hanging skill hang and puts the raw DataPart values
// into outgoing tasks.
type interceptor struct{ s *A2ASeller }

func (i interceptor) Before(ctx context.Context, _ *a2asrv.CallContext, req *a2asrv.Request) (context.Context, error) {
	if p, ok := req.Payload.(*a2a.MessageSendParams); ok && i.s.replies[skillOf(p.Message)].Hang {
		<-ctx.Done()
		return ctx, ctx.Err()
	}
	return ctx, nil
}

func (i interceptor) After(_ context.Context, _ *a2asrv.CallContext, resp *a2asrv.Response) error {
	switch p := resp.Payload.(type) {
	case *a2a.Task:
		for _, a := range p.Artifacts {
			i.fill(a)
		}
	case *a2a.TaskArtifactUpdateEvent:
		i.fill(p.Artifact)
	}
	return nil
}

func (i interceptor) fill(a *a2a.Artifact) {
	if a == nil {
		return
	}
	for k, part := range a.Parts {
		dp, ok := part.(a2a.DataPart)
		if !ok {
			continue
		}
		skill, ok := dp.Data[skillKey].(string)
		if !ok {
			continue
		}
		data := map[string]any{}
		for name, raw := range i.s.replies[skill].Data {
			data[name] = raw
		}
		a.Parts[k] = a2a.DataPart{Data: data, Metadata: dp.Metadata}
	}
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
			Params struct {
				Message *a2a.Message `json:"message"`
			} `json:"params"`
		}
		if json.Unmarshal(body, &req) == nil && req.ID != nil {
			if reply := s.replies[skillOf(req.Params.Message)]; reply.RPCError != nil {
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
