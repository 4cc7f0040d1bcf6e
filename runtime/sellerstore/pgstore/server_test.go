//go:build unix

package pgstore_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"time"
)

// server is a throwaway PostgreSQL cluster: initdb into a temporary
// directory, pg_ctl start listening on a unix socket only (no port to
// collide on), durability off, stopped and removed by stop.
type server struct {
	bin  string // directory of initdb, pg_ctl
	dir  string
	cred *syscall.Credential // run as this user when we are root
	dsn  string
}

// findPGBin looks for initdb and pg_ctl on PATH, then in Debian's
// /usr/lib/postgresql/<version>/bin (the newest), where the postgresql
// package puts them off PATH.
func findPGBin() (string, error) {
	if initdb, err := exec.LookPath("initdb"); err == nil {
		dir := filepath.Dir(initdb)
		if _, err := exec.LookPath("pg_ctl"); err == nil {
			return dir, nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int { return pgMajor(b) - pgMajor(a) })
	for _, dir := range dirs {
		if isFile(filepath.Join(dir, "initdb")) && isFile(filepath.Join(dir, "pg_ctl")) {
			return dir, nil
		}
	}
	return "", errors.New("initdb and pg_ctl are neither on PATH nor in /usr/lib/postgresql/*/bin")
}

func pgMajor(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// startServer starts a cluster. initdb refuses to run as root, so as root
// the cluster runs as the "postgres" user (Debian's package creates it).
func startServer() (*server, error) {
	bin, err := findPGBin()
	if err != nil {
		return nil, err
	}
	s := &server{bin: bin}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root and no postgres user to run initdb as: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		s.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	// A short path: a unix socket path must fit in 107 bytes.
	if s.dir, err = os.MkdirTemp("", "adcpgen-pg-"); err != nil {
		return nil, err
	}
	if s.cred != nil {
		if err := os.Chown(s.dir, int(s.cred.Uid), int(s.cred.Gid)); err != nil {
			s.remove()
			return nil, err
		}
	}
	data := filepath.Join(s.dir, "data")
	if err := s.run("initdb", "-D", data, "-U", "adcpgen", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"); err != nil {
		s.remove()
		return nil, err
	}
	opts := fmt.Sprintf("-k %s -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200", s.dir)
	if err := s.run("pg_ctl", "-D", data, "-l", filepath.Join(s.dir, "log"), "-o", opts, "-w", "-t", "60", "start"); err != nil {
		logTail, _ := os.ReadFile(filepath.Join(s.dir, "log"))
		s.remove()
		return nil, fmt.Errorf("%w\nserver log:\n%s", err, logTail)
	}
	s.dsn = fmt.Sprintf("host=%s user=adcpgen dbname=postgres sslmode=disable", s.dir)
	return s, nil
}

func (s *server) run(name string, args ...string) error {
	cmd := exec.Command(filepath.Join(s.bin, name), args...)
	cmd.Dir = s.dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("%s: %w: %s", name, err, bytes.TrimSpace(out.Bytes()))
		}
		return nil
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		return fmt.Errorf("%s: no answer in 2 minutes", name)
	}
}

// stop shuts the cluster down and deletes it.
func (s *server) stop() error {
	err := s.run("pg_ctl", "-D", filepath.Join(s.dir, "data"), "-m", "immediate", "-w", "-t", "60", "stop")
	s.remove()
	return err
}

func (s *server) remove() { _ = os.RemoveAll(s.dir) }
