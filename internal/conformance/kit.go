package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The official compliance runner comes as a kit (../shared/conformance,
// read-only in CI): a folder adcp-sdk-N holding @adcp/sdk packed with
// `npm pack` (the compliance caches of the bundles it grades inside) and
// a package.json and package-lock.json that install it. installKit copies
// it into the module's git-ignored cache and runs `npm ci` there once;
// an unchanged kit is never installed again.

// kit is an installed runner.
type kit struct {
	// Dir holds node_modules/@adcp/sdk; the runner runs there.
	Dir string
	// Node is the node executable.
	Node string
	// Version is the runner's version ("14.0.0-beta.7").
	Version string
	// Bundles are the compliance bundles it carries, oldest first
	// ("3.0.25", "3.1.18", "3.2.0-beta.5").
	Bundles []string
	// Source is the kit folder it was installed from.
	Source string
	// Scripts is where this program's node scripts are (its source
	// folder): runnerclock.mjs.
	Scripts string
	// ExtraCA is a PEM certificate the runner trusts beside the system's
	// (NODE_EXTRA_CA_CERTS): the one the sellers serve HTTPS with.
	ExtraCA string
}

// errNoKit says the kit folder is missing.
var errNoKit = errors.New("the official compliance runner kit is missing")

// minNodeMajor is the oldest Node.js the runner supports.
const minNodeMajor = 20

// kitSource finds the kit folder: dir itself when it holds a package.json,
// else its newest adcp-sdk-* folder.
func kitSource(dir string) (string, error) {
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err == nil {
		return dir, nil
	}
	found, _ := filepath.Glob(filepath.Join(dir, "adcp-sdk-*", "package.json"))
	if len(found) == 0 {
		return "", fmt.Errorf("%w: no adcp-sdk-*/package.json in %s (set ADCP_CONFORMANCE_DIR or -kit)", errNoKit, dir)
	}
	slices.SortFunc(found, func(a, b string) int { return compareNatural(filepath.Dir(a), filepath.Dir(b)) })
	return filepath.Dir(found[len(found)-1]), nil
}

// installKit installs the kit at src into cache (once per content) and
// describes it. The install goes to a temporary folder renamed into place,
// so a concurrent or interrupted install never leaves half a runner.
func installKit(ctx context.Context, src, cache string, logf func(string, ...any)) (*kit, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("node is not on PATH: the compliance runner needs Node.js %d+", minNodeMajor)
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return nil, fmt.Errorf("npm is not on PATH: installing the compliance runner needs it")
	}
	if err := checkNode(ctx, node); err != nil {
		return nil, err
	}
	sum, files, err := kitDigest(src)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(cache, filepath.Base(src)+"-"+sum[:12])
	stamp := filepath.Join(dir, ".adcpgen-installed")
	if _, err := os.Stat(stamp); err != nil {
		if err := os.MkdirAll(cache, 0o755); err != nil {
			return nil, err
		}
		tmp := dir + ".tmp-" + randomHex(4)
		defer os.RemoveAll(tmp)
		logf("conformance: installing the compliance runner from %s (npm ci) into %s", src, dir)
		start := time.Now()
		if err := os.MkdirAll(tmp, 0o755); err != nil {
			return nil, err
		}
		for _, f := range files {
			if err := copyFile(filepath.Join(src, f), filepath.Join(tmp, f)); err != nil {
				return nil, err
			}
		}
		cmd := exec.CommandContext(ctx, npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline")
		cmd.Dir = tmp
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("npm ci of the compliance runner kit %s: %w\n%s", src, err, out.Bytes())
		}
		if err := os.WriteFile(filepath.Join(tmp, ".adcpgen-installed"), []byte(sum+"\n"), 0o644); err != nil {
			return nil, err
		}
		if err := os.Rename(tmp, dir); err != nil {
			if _, serr := os.Stat(stamp); serr != nil { // not installed by someone else meanwhile
				return nil, err
			}
		}
		logf("conformance: installed in %s", time.Since(start).Round(time.Second))
		removeOtherInstalls(cache, filepath.Base(src), filepath.Base(dir))
	}
	k := &kit{Dir: dir, Node: node, Source: src}
	var pkg struct {
		Version string `json:"version"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "node_modules", "@adcp", "sdk", "package.json"))
	if err == nil {
		err = json.Unmarshal(data, &pkg)
	}
	if err != nil || pkg.Version == "" {
		return nil, fmt.Errorf("the installed runner in %s: no @adcp/sdk version (%v)", dir, err)
	}
	k.Version = pkg.Version
	entries, err := os.ReadDir(filepath.Join(dir, "node_modules", "@adcp", "sdk", "compliance", "cache"))
	if err != nil {
		return nil, fmt.Errorf("the installed runner has no compliance caches: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() && e.Name() != "latest" {
			k.Bundles = append(k.Bundles, e.Name())
		}
	}
	slices.SortFunc(k.Bundles, compareNatural)
	return k, nil
}

// kitDigest hashes the kit's files (package.json, package-lock.json and
// the packed tarballs): the install is named by it.
func kitDigest(src string) (sum string, files []string, err error) {
	entries, err := os.ReadDir(src)
	if err != nil {
		return "", nil, fmt.Errorf("%w: %w", errNoKit, err)
	}
	h := sha256.New()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !(name == "package.json" || name == "package-lock.json" || strings.HasSuffix(name, ".tgz")) {
			continue
		}
		f, err := os.Open(filepath.Join(src, name))
		if err != nil {
			return "", nil, err
		}
		fmt.Fprintf(h, "%s\x00", name)
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", nil, err
		}
		files = append(files, name)
	}
	if !slices.Contains(files, "package-lock.json") {
		return "", nil, fmt.Errorf("%w: %s has no package-lock.json", errNoKit, src)
	}
	return hex.EncodeToString(h.Sum(nil)), files, nil
}

// removeOtherInstalls deletes earlier installs of the same kit folder.
func removeOtherInstalls(cache, base, keep string) {
	entries, _ := os.ReadDir(cache)
	for _, e := range entries {
		if n := e.Name(); n != keep && strings.HasPrefix(n, base+"-") && !strings.Contains(n, ".tmp-") {
			os.RemoveAll(filepath.Join(cache, n))
		}
	}
}

// copyFile copies a file, writable by its owner (the kit is read-only).
func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// checkNode refuses a node older than minNodeMajor.
func checkNode(ctx context.Context, node string) error {
	out, err := exec.CommandContext(ctx, node, "--version").Output()
	if err != nil {
		return fmt.Errorf("node --version: %w", err)
	}
	v := strings.TrimSpace(string(out))
	major, err := strconv.Atoi(strings.SplitN(strings.TrimPrefix(v, "v"), ".", 2)[0])
	if err != nil || major < minNodeMajor {
		return fmt.Errorf("node %s is older than v%d, which the compliance runner needs", v, minNodeMajor)
	}
	return nil
}

// cacheDir is where bundle's compliance cache is.
func (k *kit) cacheDir(bundle string) string {
	return filepath.Join(k.Dir, "node_modules", "@adcp", "sdk", "compliance", "cache", bundle)
}

// writeTestKit writes the test kit a run loads (--test-kit): the API key
// the security and controller-gate probes send, and the protected,
// read-only probe task.
func writeTestKit(path, apiKey string) error {
	var b strings.Builder
	b.WriteString("# The test kit of adcpgen's conformance runs (internal/conformance):\n")
	b.WriteString("# security_baseline's API-key probes and comply_controller_mode_gate\n")
	b.WriteString("# send auth.api_key, a live-mode buyer's.\n")
	b.WriteString("id: adcpgen_conformance\nname: adcpgen conformance\n")
	fmt.Fprintf(&b, "auth:\n  api_key: %q\n  probe_task: list_creatives\n", apiKey)
	return os.WriteFile(path, []byte(b.String()), 0o600)
}

// compareNatural orders version-like names by their numbers: 3.1.18
// before 3.2.0-beta.5, beta.5 before beta.10.
func compareNatural(a, b string) int {
	for a != "" && b != "" {
		na, ra := leadingNumber(a)
		nb, rb := leadingNumber(b)
		switch {
		case na >= 0 && nb >= 0:
			if na != nb {
				return na - nb
			}
			a, b = ra, rb
		case a[0] != b[0]:
			return int(a[0]) - int(b[0])
		default:
			a, b = a[1:], b[1:]
		}
	}
	return len(a) - len(b)
}

// leadingNumber splits the decimal number s starts with (-1 for none).
func leadingNumber(s string) (int, string) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return -1, s
	}
	n, err := strconv.Atoi(s[:i])
	if err != nil {
		return -1, s
	}
	return n, s[i:]
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
