package a2aclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/a2aproject/a2a-go/a2a"
	sdk "github.com/a2aproject/a2a-go/a2aclient"
	"github.com/a2aproject/a2a-go/a2aclient/agentcard"
	"github.com/adcpgen/adcpgen/runtime/rawrpc"
)

// Conn is a connection to one A2A seller agent: it sends messages and returns the raw responses.
type Conn struct {
	sdk  *sdk.Client
	card *a2a.AgentCard
}

// Dial reads the agent card at baseURL + /.well-known/agent-card.json with
// hc (nil means http.DefaultClient) and connects to it.
func Dial(ctx context.Context, baseURL string, hc *http.Client) (*Conn, error) {
	if hc == nil {
		hc = http.DefaultClient
	}
	card, err := agentcard.NewResolver(hc).Resolve(ctx, baseURL)
	if err != nil {
		return nil, fmt.Errorf("a2aclient: agent card of %s: %w", baseURL, err)
	}
	return NewFromCard(ctx, card, hc)
}

// NewFromCard connects to the JSON-RPC interface the card describes. A card
// or additional interface without a transport means JSON-RPC.
func NewFromCard(ctx context.Context, card *a2a.AgentCard, hc *http.Client) (*Conn, error) {
	if card == nil {
		return nil, errors.New("a2aclient: nil agent card")
	}
	c := *card
	if c.PreferredTransport == "" {
		c.PreferredTransport = a2a.TransportProtocolJSONRPC
	}
	c.AdditionalInterfaces = append([]a2a.AgentInterface(nil), card.AdditionalInterfaces...)
	for i := range c.AdditionalInterfaces {
		if c.AdditionalInterfaces[i].Transport == "" {
			c.AdditionalInterfaces[i].Transport = a2a.TransportProtocolJSONRPC
		}
	}
	client, err := sdk.NewFromCard(ctx, &c, sdk.WithDefaultsDisabled(), sdk.WithJSONRPCTransport(wrapHTTP(hc)))
	if err != nil {
		return nil, fmt.Errorf("a2aclient: %w", err)
	}
	return &Conn{sdk: client, card: &c}, nil
}

// Card is the agent card in use (with the default transport filled in).
func (c *Conn) Card() *a2a.AgentCard { return c.card }

// SDK is the underlying a2a-go client, for what this package does not
// wrap. Responses to calls made on it directly are not recorded.
func (c *Conn) SDK() *sdk.Client { return c.sdk }

// Close releases the connection. The caller's http.Client is left alone.
func (c *Conn) Close() error { return c.sdk.Destroy() }

// AdCPMessage is the message that invokes an AdCP skill: one DataPart
// {"skill": skill, "input": input}. input must be a JSON object; nil means
// {}.
func AdCPMessage(skill string, input json.RawMessage) *a2a.MessageSendParams {
	if input == nil {
		input = json.RawMessage(`{}`)
	}
	return &a2a.MessageSendParams{Message: a2a.NewMessage(a2a.MessageRoleUser,
		a2a.DataPart{Data: map[string]any{"skill": skill, "input": input}})}
}

// SendMessageRaw invokes skill with input (message/send) and returns the
// seller's JSON-RPC response: a Task or Message result, or the error object
// with its data, as sent. The error is non-nil only when no usable response
// arrived: the context ended first (its error is returned), the request
// failed, or the envelope is malformed (rawrpc.ErrMalformed, with the JSON
// pointer).
func (c *Conn) SendMessageRaw(ctx context.Context, skill string, input json.RawMessage) (*rawrpc.Response, error) {
	return c.SendRaw(ctx, AdCPMessage(skill, input))
}

// SendRaw is SendMessageRaw for a message the caller built.
func (c *Conn) SendRaw(ctx context.Context, params *a2a.MessageSendParams) (*rawrpc.Response, error) {
	s := &slot{}
	_, err := c.sdk.SendMessage(withSlot(ctx, s), params)
	return s.single(ctx, "message/send", err)
}

// GetTaskRaw reads a task (tasks/get), for polling an AdCP task.
func (c *Conn) GetTaskRaw(ctx context.Context, taskID string) (*rawrpc.Response, error) {
	s := &slot{}
	_, err := c.sdk.GetTask(withSlot(ctx, s), &a2a.TaskQueryParams{ID: a2a.TaskID(taskID)})
	return s.single(ctx, "tasks/get", err)
}

// StreamMessageRaw invokes skill with message/stream and returns every
// event the seller sent, in order, each a JSON-RPC response as sent. It
// returns when the stream ends; a JSON-RPC error ends the stream and is
// the last response. The error is non-nil when the context ended, the
// request failed, an event is malformed, or a2a-go stopped reading (it
// gives up on an SSE line over 64 KiB, and on an event it cannot decode):
// then the events before are returned with it.
func (c *Conn) StreamMessageRaw(ctx context.Context, skill string, input json.RawMessage) ([]*rawrpc.Response, error) {
	s := &slot{}
	var sdkErr error
	for _, err := range c.sdk.SendStreamingMessage(withSlot(ctx, s), AdCPMessage(skill, input)) {
		if err != nil {
			sdkErr = err
			break
		}
	}
	return s.stream(ctx, "message/stream", sdkErr)
}
