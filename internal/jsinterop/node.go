package jsinterop

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// ErrNoNode says node or npm is not installed (or too old).
var ErrNoNode = errors.New("node and npm are needed to run the JavaScript SDK")

// minNodeMajor is the oldest Node.js the pinned SDK and our scripts run on.
const minNodeMajor = 20

// stampFile, in node_modules, holds the hash of the package-lock.json that
// was installed, so an unchanged install is never touched again.
const stampFile = ".adcpgen-installed"

// Env is a ready Node project: the pinned SDK installed in Dir/node_modules.
type Env struct {
	// Dir is this package's directory, holding package.json, the scripts
	// and node_modules.
	Dir string
	// Node and NPM are the executables' paths.
	Node, NPM string
	// NodeVersion is what `node --version` printed ("v20.20.2").
	NodeVersion string
}

// Setup finds node and npm, and installs the pinned packages of
// package-lock.json with `npm ci --ignore-scripts` unless they are already
// installed (then it runs nothing, so it needs no network). A file lock
// keeps concurrent callers (parallel test binaries) from installing at
// once. logf reports an install; nil discards it.
func Setup(ctx context.Context, logf func(format string, args ...any)) (*Env, error) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	dir, err := projectDir()
	if err != nil {
		return nil, err
	}
	env := &Env{Dir: dir}
	if env.Node, err = exec.LookPath("node"); err != nil {
		return nil, fmt.Errorf("%w: node is not on PATH", ErrNoNode)
	}
	if env.NPM, err = exec.LookPath("npm"); err != nil {
		return nil, fmt.Errorf("%w: npm is not on PATH", ErrNoNode)
	}
	out, err := exec.CommandContext(ctx, env.Node, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("%w: node --version: %w", ErrNoNode, err)
	}
	env.NodeVersion = strings.TrimSpace(string(out))
	major, err := strconv.Atoi(strings.SplitN(strings.TrimPrefix(env.NodeVersion, "v"), ".", 2)[0])
	if err != nil || major < minNodeMajor {
		return nil, fmt.Errorf("%w: node %s is older than v%d", ErrNoNode, env.NodeVersion, minNodeMajor)
	}
	if err := install(ctx, env, logf); err != nil {
		return nil, err
	}
	return env, nil
}

// projectDir finds this package's directory by walking up from the working
// directory to the module root (tests run in their package's directory,
// make in the root).
func projectDir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		p := filepath.Join(d, "internal", "jsinterop")
		if _, err := os.Stat(filepath.Join(p, "package-lock.json")); err == nil {
			return p, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("jsinterop: internal/jsinterop/package-lock.json not found above %s", wd)
		}
	}
}

// install runs npm ci when node_modules does not hold exactly what
// package-lock.json pins.
func install(ctx context.Context, env *Env, logf func(string, ...any)) error {
	lock, err := os.ReadFile(filepath.Join(env.Dir, "package-lock.json"))
	if err != nil {
		return fmt.Errorf("jsinterop: %w", err)
	}
	sum := sha256.Sum256(lock)
	want := hex.EncodeToString(sum[:])
	stamp := filepath.Join(env.Dir, "node_modules", stampFile)
	installed := func() bool {
		got, err := os.ReadFile(stamp)
		return err == nil && strings.TrimSpace(string(got)) == want
	}
	if installed() {
		return nil
	}
	unlock, err := lockFile(ctx, filepath.Join(env.Dir, ".install.lock"))
	if err != nil {
		return fmt.Errorf("jsinterop: locking the install: %w", err)
	}
	defer unlock()
	if installed() { // another process installed it while we waited
		return nil
	}
	logf("jsinterop: installing the pinned JavaScript SDK (npm ci) in %s", env.Dir)
	start := time.Now()
	cmd := exec.CommandContext(ctx, env.NPM, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline")
	cmd.Dir = env.Dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("jsinterop: npm ci in %s: %w\n%s", env.Dir, err, out.Bytes())
	}
	if err := os.WriteFile(stamp, []byte(want+"\n"), 0o644); err != nil {
		return fmt.Errorf("jsinterop: %w", err)
	}
	logf("jsinterop: installed in %s", time.Since(start).Round(time.Millisecond))
	return nil
}

var (
	setupOnce sync.Once
	setupEnv  *Env
	setupErr  error
)

// Require returns the Node project for a test, installing it on first use.
// Without node or npm it skips the test with a message saying so; with
// ADCP_REQUIRE_NODE=1 (set by CI) it fails it instead. Any other setup
// failure (npm ci failing) fails the test.
func Require(t testing.TB) *Env {
	t.Helper()
	setupOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		setupEnv, setupErr = Setup(ctx, func(format string, args ...any) {
			fmt.Fprintf(os.Stderr, format+"\n", args...)
		})
	})
	switch {
	case errors.Is(setupErr, ErrNoNode):
		msg := setupErr.Error() + "; install Node.js " + strconv.Itoa(minNodeMajor) + "+ to run the JavaScript interoperability tests"
		if os.Getenv("ADCP_REQUIRE_NODE") == "1" {
			t.Fatal(msg + " (ADCP_REQUIRE_NODE=1)")
		}
		t.Skip(msg)
	case setupErr != nil:
		t.Fatal(setupErr)
	}
	return setupEnv
}
