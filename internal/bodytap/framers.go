package bodytap

import (
	"bytes"
)

// WholeBody collects the body and passes it to emit at the end: an
// application/json response.
func WholeBody(emit func([]byte)) Framer { return &whole{emit: emit} }

type whole struct {
	buf  bytes.Buffer
	emit func([]byte)
}

func (w *whole) Write(p []byte) { w.buf.Write(p) }
func (w *whole) End()           { w.emit(bytes.Clone(w.buf.Bytes())) }

// lines splits a stream into lines ending in "\n" (the last one may lack
// it) and hands each, without the newline, to line.
type lines struct {
	pending []byte
	line    func(l []byte, last bool)
}

func (s *lines) Write(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			s.pending = append(s.pending, p...)
			return
		}
		s.pending = append(s.pending, p[:i]...)
		s.line(s.pending, false)
		s.pending = s.pending[:0]
		p = p[i+1:]
	}
}

func (s *lines) End() {
	s.line(s.pending, true)
	s.pending = nil
}

// DataLines cuts a text/event-stream body the way a2a-go v0.3.3 reads it
// (sse.ParseDataStream): every line starting with "data: " is one message,
// the rest of the line; other lines are ignored. a2a-go reads lines with a
// bufio.Scanner, which drops a trailing "\r" and gives up on lines longer
// than 64 KiB; such a stream fails in the SDK, so what is emitted here past
// that point is never delivered.
func DataLines(emit func([]byte)) Framer {
	d := &dataLines{emit: emit}
	d.lines.line = d.line
	return d
}

type dataLines struct {
	lines
	emit func([]byte)
}

func (d *dataLines) line(l []byte, last bool) {
	l = bytes.TrimSuffix(l, []byte{'\r'})
	if rest, ok := bytes.CutPrefix(l, []byte("data: ")); ok {
		d.emit(bytes.Clone(rest))
	}
}

// JSONValues cuts a stream of JSON texts (newline-delimited, as MCP's stdio
// transport sends them; go-sdk reads them with a json.Decoder, so a text
// may span lines) into its top-level objects and arrays. Anything else at
// the top level ends the cutting: go-sdk fails such a stream.
func JSONValues(emit func([]byte)) Framer { return &jsonValues{emit: emit} }

type jsonValues struct {
	emit     func([]byte)
	buf      []byte
	depth    int
	inString bool
	escaped  bool
	broken   bool
}

func (j *jsonValues) Write(p []byte) {
	for _, b := range p {
		if j.broken {
			return
		}
		if j.depth == 0 {
			switch b {
			case ' ', '\t', '\r', '\n':
				continue
			case '{', '[':
			default:
				j.broken = true
				continue
			}
		}
		j.buf = append(j.buf, b)
		switch {
		case j.inString && j.escaped:
			j.escaped = false
		case j.inString && b == '\\':
			j.escaped = true
		case j.inString && b == '"':
			j.inString = false
		case j.inString:
		case b == '"':
			j.inString = true
		case b == '{' || b == '[':
			j.depth++
		case b == '}' || b == ']':
			j.depth--
			if j.depth == 0 {
				j.emit(bytes.Clone(j.buf))
				j.buf = j.buf[:0]
			}
		}
	}
}

func (j *jsonValues) End() {}
