package a2aclient

import (
	"context"
	"errors"
	"fmt"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/rawrpc"
)

// A Conn is a buyer.Transport: the typed client (runtime/buyer) calls
// skills through it and reads the seller's exact bytes.
var (
	_ buyer.Transport  = (*Conn)(nil)
	_ buyer.ToolLister = (*Conn)(nil)
)

// Protocol is buyer.A2A.
func (c *Conn) Protocol() buyer.Protocol { return buyer.A2A }

// CallTool invokes the skill call.Tool with call.Args (message/send with
// one DataPart {"skill", "input"}), in the conversation call.ContextID and
// the task call.TaskID when set, and returns the seller's JSON-RPC
// response as it arrived. A call that got no response fails with a
// *buyer.TransportError saying whether the request may have reached the
// seller and the HTTP status seen; the context's end and a malformed
// envelope are returned as they are.
func (c *Conn) CallTool(ctx context.Context, call buyer.ToolCall) (*buyer.Exchange, error) {
	params := AdCPMessage(call.Tool, call.Args)
	params.Message.ContextID = call.ContextID
	params.Message.TaskID = a2a.TaskID(call.TaskID)
	s := &slot{trace: call.Trace}
	_, sdkErr := c.sdk.SendMessage(withSlot(ctx, s), params)
	resp, err := s.single(ctx, "message/send", sdkErr)
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, rawrpc.ErrMalformed) {
			return nil, err
		}
		sent, status := s.delivery()
		return nil, &buyer.TransportError{Op: fmt.Sprintf("message/send %q", call.Tool), StatusCode: status, Sent: sent, Err: err}
	}
	return &buyer.Exchange{Protocol: buyer.A2A, Envelope: resp.Message, Exact: resp.Exact}, nil
}

// ToolNames lists the skills of the seller's agent card, by id.
func (c *Conn) ToolNames(context.Context) ([]string, error) {
	names := make([]string, len(c.card.Skills))
	for i, s := range c.card.Skills {
		names[i] = s.ID
	}
	return names, nil
}
