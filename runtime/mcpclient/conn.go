package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/adcpgen/adcpgen/runtime/rawrpc"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connTransport wraps a transport whose byte stream this package cannot
// reach; it records responses from the SDK's decoded messages, whose result
// and error.data are still the peer's bytes.
type connTransport struct {
	inner mcp.Transport
	rec   *recorder
}

func (t *connTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &recordingConn{Connection: c, rec: t.rec}, nil
}

type recordingConn struct {
	mcp.Connection
	rec *recorder
}

func (c *recordingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		if cl := claimFor(ctx, c.rec); cl != nil {
			if key, _, ok := idOf(req.ID); ok {
				c.rec.register(cl, key)
			}
			c.rec.attempted(cl, true, 0)
		}
	}
	return c.Connection.Write(ctx, msg)
}

func (c *recordingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok && err == nil {
		if key, raw, ok := idOf(resp.ID); ok {
			if r := rebuild(raw, resp); r != nil {
				c.rec.recordResponse(key, r)
			}
		}
	}
	return msg, err
}

// idOf is the key and JSON form of an SDK id.
func idOf(id jsonrpc.ID) (string, []byte, bool) {
	switch v := id.Raw().(type) {
	case int64:
		return "n:" + strconv.FormatInt(v, 10), strconv.AppendInt(nil, v, 10), true
	case string:
		b, _ := json.Marshal(v)
		return "s:" + v, b, true
	}
	return "", nil, false
}

// rebuild writes the response object around the SDK's undecoded bytes. An
// error the SDK made up itself (not a wire error) is not a response.
func rebuild(id []byte, resp *jsonrpc.Response) *rawrpc.Response {
	msg := []byte(`{"jsonrpc":"2.0","id":`)
	msg = append(msg, id...)
	var member []byte
	if resp.Error != nil {
		var we *jsonrpc.Error
		if !errors.As(resp.Error, &we) {
			return nil
		}
		member = []byte(`{"code":`)
		member = strconv.AppendInt(member, we.Code, 10)
		text, _ := json.Marshal(we.Message)
		member = append(append(member, `,"message":`...), text...)
		if we.Data != nil {
			member = append(append(member, `,"data":`...), we.Data...)
		}
		member = append(member, '}')
		msg = append(msg, `,"error":`...)
	} else {
		if resp.Result == nil {
			return nil
		}
		member = resp.Result
		msg = append(msg, `,"result":`...)
	}
	start := len(msg)
	msg = append(msg, member...)
	end := len(msg)
	msg = append(msg, '}')
	r := &rawrpc.Response{Message: msg, ID: msg[len(`{"jsonrpc":"2.0","id":`) : len(`{"jsonrpc":"2.0","id":`)+len(id)]}
	if resp.Error != nil {
		r.Error = msg[start:end:end]
	} else {
		r.Result = msg[start:end:end]
	}
	return r
}
