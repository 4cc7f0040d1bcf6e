package mcpclient

import (
	"bytes"
	"io"
	"sync"
)

// eventStub reads a text/event-stream body for the SDK: it records the data
// of each event as go-sdk v1.8.0 cuts it (mcp.scanEventsLimited: lines end
// in "\n" with a trailing "\r" dropped; an empty line ends an event; a line
// without ":" is malformed and ends the stream; "data" values are trimmed
// and joined with "\n"; an event at the end of the stream counts without
// its empty line; only events named "message" or unnamed), and passes
// every event through unchanged except the first answer to a claimed
// tools/call, whose data it replaces with a stand-in result (see stub).
// Event names, ids and retry fields stay as sent, so the SDK's resumption
// works as before.
type eventStub struct {
	body io.ReadCloser
	rec  *recorder

	mu     sync.Mutex // Read and Close may race when the SDK closes from another goroutine
	buf    []byte     // read buffer
	in     []byte     // bytes read, not yet cut into lines
	event  [][]byte   // the lines of the current event, each with its "\n"
	out    []byte     // bytes ready for the SDK
	err    error      // the body's error, returned once out is drained
	broken bool       // a malformed line: pass the rest through untouched
	closed bool
}

func (e *eventStub) Read(p []byte) (int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for len(e.out) == 0 && e.err == nil {
		if e.buf == nil {
			e.buf = make([]byte, 32<<10)
		}
		buf := e.buf
		e.mu.Unlock()
		n, err := e.body.Read(buf)
		e.mu.Lock()
		if e.closed {
			return 0, io.ErrClosedPipe
		}
		e.feed(buf[:n], err)
	}
	if len(e.out) > 0 {
		n := copy(p, e.out)
		e.out = e.out[n:]
		return n, nil
	}
	return 0, e.err
}

func (e *eventStub) Close() error {
	e.mu.Lock()
	e.closed = true
	e.mu.Unlock()
	return e.body.Close()
}

// feed takes the next bytes of the body and the error that came with them.
func (e *eventStub) feed(p []byte, err error) {
	if e.broken {
		e.out = append(e.out, p...)
		e.err = err
		return
	}
	e.in = append(e.in, p...)
	for {
		i := bytes.IndexByte(e.in, '\n')
		if i < 0 {
			break
		}
		e.line(e.in[: i+1 : i+1])
		e.in = e.in[i+1:]
		if e.broken {
			e.out = append(e.out, e.in...)
			e.in = nil
			break
		}
	}
	if err != nil {
		if err == io.EOF && !e.broken {
			if len(e.in) > 0 {
				e.line(e.in)
				e.in = nil
			}
			e.flush()
		}
		e.err = err
	}
}

// line takes one line of the stream (with its "\n", except at the end).
func (e *eventStub) line(l []byte) {
	text := bytes.TrimRight(l, "\r\n")
	if len(text) == 0 {
		e.event = append(e.event, bytes.Clone(l))
		e.flush()
		return
	}
	if bytes.IndexByte(text, ':') < 0 {
		// go-sdk ends the stream here; what follows is passed through.
		e.passEvent()
		e.out = append(e.out, l...)
		e.broken = true
		return
	}
	e.event = append(e.event, bytes.Clone(l))
}

// flush ends the current event: records its data and writes it out, its
// data replaced when it answers a claimed call.
func (e *eventStub) flush() {
	if len(e.event) == 0 {
		return
	}
	var name, data []byte
	hasData := false
	for _, l := range e.event {
		key, value, ok := bytes.Cut(bytes.TrimRight(l, "\r\n"), []byte{':'})
		if !ok {
			continue
		}
		switch string(key) {
		case "event":
			name = bytes.TrimSpace(value)
		case "data":
			if hasData {
				data = append(data, '\n')
			}
			data = append(data, bytes.TrimSpace(value)...)
			hasData = true
		}
	}
	var replacement []byte
	if len(data) > 0 && (len(name) == 0 || string(name) == "message") {
		if answered := e.rec.record(data); answered != nil {
			replacement = stub(answered)
		}
	}
	if replacement == nil {
		e.passEvent()
		return
	}
	wrote := false
	for _, l := range e.event {
		key, _, _ := bytes.Cut(l, []byte{':'})
		if string(key) != "data" {
			e.out = append(e.out, l...)
			continue
		}
		if !wrote {
			e.out = append(e.out, "data: "...)
			e.out = append(e.out, replacement...)
			e.out = append(e.out, '\n')
			wrote = true
		}
	}
	e.event = e.event[:0]
}

// passEvent writes the current event out as it came.
func (e *eventStub) passEvent() {
	for _, l := range e.event {
		e.out = append(e.out, l...)
	}
	e.event = e.event[:0]
}
