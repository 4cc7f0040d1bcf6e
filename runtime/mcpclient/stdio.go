package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"syscall"
	"time"

	"github.com/adcpgen/adcpgen/internal/bodytap"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// terminateAfter is how long Close waits for the seller process to exit
// after closing its stdin, and again after SIGTERM, as go-sdk's
// CommandTransport does.
const terminateAfter = 5 * time.Second

// commandTransport runs a seller process like mcp.CommandTransport but
// reads its stdout through a tap, so each response is recorded as the
// process wrote it.
type commandTransport struct {
	cmd *exec.Cmd
	rec *recorder
}

func (t *commandTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	stdout, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := t.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", t.cmd.Path, err)
	}
	tr := &mcp.IOTransport{
		// Closing stdout is the process's business; the connection ends by
		// closing stdin (the MCP stdio shutdown sequence).
		Reader: noClose{bodytap.Tap(io.NopCloser(stdout), bodytap.JSONValues(t.rec.recordStream))},
		Writer: &processStdin{WriteCloser: stdin, cmd: t.cmd},
	}
	return tr.Connect(ctx)
}

type noClose struct{ io.ReadCloser }

func (noClose) Close() error { return nil }

// processStdin closes stdin, then waits for the process, sending SIGTERM
// and then SIGKILL when it does not exit in time.
type processStdin struct {
	io.WriteCloser
	cmd *exec.Cmd
}

func (p *processStdin) Close() error {
	if err := p.WriteCloser.Close(); err != nil {
		return fmt.Errorf("closing stdin: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	wait := func() (error, bool) {
		select {
		case err := <-done:
			return err, true
		case <-time.After(terminateAfter):
			return nil, false
		}
	}
	if err, ok := wait(); ok {
		return err
	}
	if p.cmd.Process.Signal(syscall.SIGTERM) == nil {
		if err, ok := wait(); ok {
			return err
		}
	}
	if err := p.cmd.Process.Kill(); err != nil {
		return err
	}
	if err, ok := wait(); ok {
		return err
	}
	return errors.New("seller process does not exit")
}

// recordStream records one JSON text of a stdio stream: a message, or a
// batch of them.
func (r *recorder) recordStream(text []byte) {
	if len(text) == 0 || text[0] != '[' {
		r.record(text)
		return
	}
	var batch []json.RawMessage
	if json.Unmarshal(text, &batch) != nil {
		return
	}
	for _, m := range batch {
		r.record(m)
	}
}
