package bodytap

import (
	"errors"
	"io"
	"sync"
)

// Framer receives a body's bytes in order, then End once.
type Framer interface {
	Write(p []byte)
	End()
}

// Tap returns a body that passes body's bytes through unchanged and feeds
// them to f. End is called at the first error (io.EOF included) or at
// Close, whichever comes first.
func Tap(body io.ReadCloser, f Framer) io.ReadCloser {
	return &tap{body: body, f: f}
}

type tap struct {
	body io.ReadCloser
	f    Framer
	mu   sync.Mutex // Read and Close may race when the SDK closes from another goroutine
	done bool
}

func (t *tap) Read(p []byte) (int, error) {
	n, err := t.body.Read(p)
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.done {
		if n > 0 {
			t.f.Write(p[:n])
		}
		if errors.Is(err, io.EOF) {
			t.done = true
			t.f.End()
		} else if err != nil {
			t.done = true // a cut body yields nothing more
		}
	}
	return n, err
}

func (t *tap) Close() error {
	t.mu.Lock()
	t.done = true
	t.mu.Unlock()
	return t.body.Close()
}
