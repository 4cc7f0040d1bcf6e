package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// replica is one examples/seller process on a loopback port of its own,
// which it keeps across restarts so buyers find it again.
type replica struct {
	name, bin, dsn, key, logDir string
	flags                       []string

	mu   sync.Mutex
	addr string // host:port, fixed by the first start
	cmd  *exec.Cmd
	done chan struct{}
	runs int
}

// hostPort is the replica's address.
func (r *replica) hostPort() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.addr
}

// base is the replica's URL.
func (r *replica) base() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return "http://" + r.addr
}

// start starts the process and waits for its "listening" line (bounded).
func (r *replica) start(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	addr := r.addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	r.runs++
	logf, err := os.Create(filepath.Join(r.logDir, fmt.Sprintf("%s-%d.log", r.name, r.runs)))
	if err != nil {
		return err
	}
	args := append([]string{"-addr", addr, "-api-key", r.key, "-postgres", r.dsn, "-webhook-loopback", "only"}, r.flags...)
	cmd := exec.Command(r.bin, args...)
	cmd.Stderr = logf
	out, err := cmd.StdoutPipe()
	if err != nil {
		logf.Close()
		return err
	}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return fmt.Errorf("replica %s: %w", r.name, err)
	}
	done := make(chan struct{})
	lines := make(chan string, 4)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default:
			}
		}
		_ = cmd.Wait()
		logf.Close()
		close(done)
	}()
	wait := time.NewTimer(30 * time.Second)
	defer wait.Stop()
	for {
		select {
		case line := <-lines:
			if base, ok := strings.CutPrefix(line, "listening http://"); ok {
				r.addr, r.cmd, r.done = base, cmd, done
				return nil
			}
		case <-done:
			return fmt.Errorf("replica %s exited at start (log %s)", r.name, logf.Name())
		case <-wait.C:
			_ = cmd.Process.Kill()
			return fmt.Errorf("replica %s printed no address in 30 s", r.name)
		case <-ctx.Done():
			_ = cmd.Process.Kill()
			return ctx.Err()
		}
	}
}

// kill sends SIGKILL (kill -9) and waits for the process to be gone.
func (r *replica) kill() error {
	return r.signal(syscall.SIGKILL)
}

// stop ends the process with SIGTERM (the seller shuts down gracefully),
// SIGKILL after 20 s.
func (r *replica) stop() error {
	err := r.signal(syscall.SIGTERM)
	if errors.Is(err, errSlowExit) {
		return r.signal(syscall.SIGKILL)
	}
	return err
}

var errSlowExit = errors.New("the process did not exit in 20 s")

func (r *replica) signal(sig syscall.Signal) error {
	r.mu.Lock()
	cmd, done := r.cmd, r.done
	r.mu.Unlock()
	if cmd == nil {
		return nil
	}
	_ = cmd.Process.Signal(sig)
	select {
	case <-done:
		r.mu.Lock()
		r.cmd = nil
		r.mu.Unlock()
		return nil
	case <-time.After(20 * time.Second):
		return errSlowExit
	}
}

// restart starts the replica again on its address after a kill; the
// port may take a moment to be free.
func (r *replica) restart(ctx context.Context) error {
	var err error
	for range 20 {
		if err = r.start(ctx); err == nil {
			return nil
		}
		select {
		case <-time.After(250 * time.Millisecond):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return err
}
