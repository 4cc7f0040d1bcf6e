// Package bodytap copies an HTTP response body as an SDK reads it and cuts
// the copy into JSON-RPC messages the way that SDK does: the whole body,
// each "data: " line of an event stream (a2a-go's rules), or each JSON text
// of a stdio stream. The copy is cut in the reader's goroutine, before the
// SDK sees the bytes, so a message is recorded before the SDK delivers its
// decoded form. (go-sdk's event streams are cut by runtime/mcpclient, which
// also rewrites them.)
package bodytap
