//go:build unix

package pgtest

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

// Cluster is a throwaway PostgreSQL cluster.
type Cluster struct {
	bin  string // directory of initdb, pg_ctl
	dir  string
	cred *syscall.Credential // run as this user when we are root
	dsn  string
}

// findBin looks for initdb and pg_ctl on PATH, then in Debian's
// /usr/lib/postgresql/<version>/bin (the newest).
func findBin() (string, error) {
	if initdb, err := exec.LookPath("initdb"); err == nil {
		dir := filepath.Dir(initdb)
		if _, err := exec.LookPath("pg_ctl"); err == nil {
			return dir, nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int { return major(b) - major(a) })
	for _, dir := range dirs {
		if isFile(filepath.Join(dir, "initdb")) && isFile(filepath.Join(dir, "pg_ctl")) {
			return dir, nil
		}
	}
	return "", errors.New("initdb and pg_ctl are neither on PATH nor in /usr/lib/postgresql/*/bin")
}

func major(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// Start creates a cluster and starts it. Remove it when done.
func Start() (*Cluster, error) {
	bin, err := findBin()
	if err != nil {
		return nil, err
	}
	c := &Cluster{bin: bin}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root and no postgres user to run initdb as: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	// A short path: a unix socket path must fit in 107 bytes.
	if c.dir, err = os.MkdirTemp("", "adcpgen-pg-"); err != nil {
		return nil, err
	}
	if c.cred != nil {
		if err := os.Chown(c.dir, int(c.cred.Uid), int(c.cred.Gid)); err != nil {
			c.delete()
			return nil, err
		}
	}
	if err := c.run("initdb", "-D", c.data(), "-U", "adcpgen", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"); err != nil {
		c.delete()
		return nil, err
	}
	c.dsn = fmt.Sprintf("host=%s user=adcpgen dbname=postgres sslmode=disable", c.dir)
	if err := c.Start(); err != nil {
		c.delete()
		return nil, err
	}
	return c, nil
}

// DSN is the cluster's maintenance database (postgres) as user adcpgen,
// a superuser.
func (c *Cluster) DSN() string { return c.dsn }

func (c *Cluster) data() string { return filepath.Join(c.dir, "data") }

// Start starts the cluster again after Stop, with its data.
func (c *Cluster) Start() error {
	opts := fmt.Sprintf("-k %s -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200", c.dir)
	if err := c.run("pg_ctl", "-D", c.data(), "-l", filepath.Join(c.dir, "log"), "-o", opts, "-w", "-t", "60", "start"); err != nil {
		logTail, _ := os.ReadFile(filepath.Join(c.dir, "log"))
		if len(logTail) > 4096 {
			logTail = logTail[len(logTail)-4096:]
		}
		return fmt.Errorf("%w\nserver log:\n%s", err, logTail)
	}
	return nil
}

// Stop stops the cluster, keeping its data: mode is pg_ctl's shutdown mode
// ("fast" disconnects every session and shuts down cleanly, "immediate"
// aborts as a crash would).
func (c *Cluster) Stop(mode string) error {
	return c.run("pg_ctl", "-D", c.data(), "-m", mode, "-w", "-t", "60", "stop")
}

// Restart stops the cluster in mode and starts it again.
func (c *Cluster) Restart(mode string) error {
	if err := c.Stop(mode); err != nil {
		return err
	}
	return c.Start()
}

// Remove stops the cluster (when it runs) and deletes it.
func (c *Cluster) Remove() error {
	var err error
	if isFile(filepath.Join(c.data(), "postmaster.pid")) {
		err = c.Stop("immediate")
	}
	c.delete()
	return err
}

func (c *Cluster) delete() { _ = os.RemoveAll(c.dir) }

func (c *Cluster) run(name string, args ...string) error {
	cmd := exec.Command(filepath.Join(c.bin, name), args...)
	cmd.Dir = c.dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if c.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
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
