// Package docs checks that what the markdown of this repository shows is
// real: each Go block is woven from a compiled file, each command names a
// make target or an adcpgen command that exists. See README.md here.
package docs

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the markdown's Go blocks from their source files")

// root is the repository, one directory up.
const root = ".."

// markdown lists the repository's markdown files, as git tracks them (and
// this branch's new ones, which git may not track yet).
func markdown(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard", "*.md").Output()
	if err != nil {
		t.Skipf("git ls-files: %v (the markdown is listed from git)", err)
	}
	var files []string
	for _, f := range strings.Fields(string(out)) {
		if _, err := os.Stat(filepath.Join(root, f)); err == nil {
			files = append(files, f)
		}
	}
	if !slices.Contains(files, "README.md") {
		t.Fatalf("README.md is not among the markdown files %v", files)
	}
	return files
}

// block is one fenced code block of a markdown file.
type block struct {
	lang       string
	start, end int    // lines of the body: [start, end)
	marker     string // the "<!-- snippet: FILE NAME -->" line before the fence, if any
	line       int    // the fence's line, 1-based, for messages
	body       string
}

func blocks(lines []string) []block {
	var out []block
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(l, "```") {
			continue
		}
		b := block{lang: strings.TrimPrefix(l, "```"), start: i + 1, line: i + 1}
		for j := i - 1; j >= 0; j-- {
			if p := strings.TrimSpace(lines[j]); p != "" {
				if strings.HasPrefix(p, "<!-- snippet:") {
					b.marker = p
				}
				break
			}
		}
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) != "```" {
			j++
		}
		b.end = j
		b.body = strings.Join(lines[b.start:b.end], "\n")
		out = append(out, b)
		i = j
	}
	return out
}

var markerRE = regexp.MustCompile(`^<!-- snippet: (\S+) (\S+) -->$`)

// snippet is the region NAME of file (repository-relative): the lines
// between "// snippet: NAME" and "// end snippet", their common
// indentation removed.
func snippet(file, name string) (string, error) {
	src, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		return "", err
	}
	var region []string
	in, found := false, false
	for _, l := range strings.Split(string(src), "\n") {
		switch t := strings.TrimSpace(l); {
		case t == "// snippet: "+name:
			in, found = true, true
		case in && t == "// end snippet":
			in = false
		case in:
			region = append(region, l)
		}
	}
	if !found || in {
		return "", fmt.Errorf("%s: no region \"// snippet: %s\" ... \"// end snippet\"", file, name)
	}
	indent := ""
	for i, l := range region {
		if strings.TrimSpace(l) == "" {
			continue
		}
		lead := l[:len(l)-len(strings.TrimLeft(l, "\t"))]
		if i == 0 || len(lead) < len(indent) {
			indent = lead
		}
	}
	for i, l := range region {
		region[i] = strings.TrimPrefix(l, indent)
	}
	return strings.Join(region, "\n"), nil
}

// Every Go block in the markdown is a region of a compiled file, named by
// the "<!-- snippet: FILE NAME -->" line above it, shown as it is there.
// go test ./docs -update rewrites the blocks from their files.
func TestGoBlocksAreWoven(t *testing.T) {
	woven := 0
	for _, md := range markdown(t) {
		path := filepath.Join(root, md)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(src), "\n")
		changed := false
		bs := blocks(lines)
		for k := len(bs) - 1; k >= 0; k-- { // from the end, so rewrites keep earlier line numbers
			b := bs[k]
			if b.lang != "go" {
				continue
			}
			m := markerRE.FindStringSubmatch(b.marker)
			if m == nil {
				t.Errorf("%s:%d: a Go block without a <!-- snippet: FILE NAME --> line above it: write it in a compiled file (docs/examples) and weave it", md, b.line)
				continue
			}
			want, err := snippet(m[1], m[2])
			if err != nil {
				t.Errorf("%s:%d: %v", md, b.line, err)
				continue
			}
			woven++
			if b.body == want {
				continue
			}
			if !*update {
				t.Errorf("%s:%d: the block differs from %s's snippet %q (go test ./docs -update rewrites it):\n--- markdown\n%s\n--- %s\n%s", md, b.line, m[1], m[2], b.body, m[1], want)
				continue
			}
			lines = slices.Concat(lines[:b.start], strings.Split(want, "\n"), lines[b.end:])
			changed = true
		}
		if changed {
			if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if woven < 2 {
		t.Fatalf("only %d woven Go blocks: the README's buyer and seller are missing", woven)
	}
}

// Each command a shell block shows exists: "make T" names a target of the
// Makefile or mk/*.mk, "adcpgen C" (also as go tool adcpgen, bin/adcpgen)
// a command of cmd/adcpgen.
func TestCommandsExist(t *testing.T) {
	targets := makeTargets(t)
	cmds := adcpgenCommands(t)
	makeRE := regexp.MustCompile(`(?:^|[;&|(]\s*|\$ )make\s+([A-Za-z][\w.-]*)`)
	toolRE := regexp.MustCompile(`(?:^|[\s;&|(]|\$ |bin/)adcpgen\s+([^\s|;&)]+)`)
	checked := 0
	for _, md := range markdown(t) {
		src, err := os.ReadFile(filepath.Join(root, md))
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range blocks(strings.Split(string(src), "\n")) {
			switch b.lang {
			case "", "sh", "bash", "shell", "console":
			default:
				continue
			}
			for i, l := range strings.Split(b.body, "\n") {
				if c := strings.Index(l, "#"); c >= 0 {
					l = l[:c] // a comment says what a command does
				}
				for _, m := range makeRE.FindAllStringSubmatch(l, -1) {
					checked++
					if !targets[m[1]] {
						t.Errorf("%s:%d: make %s: no such target in Makefile or mk/*.mk", md, b.start+i+1, m[1])
					}
				}
				for _, m := range toolRE.FindAllStringSubmatch(l, -1) {
					if strings.HasPrefix(m[1], "-") || m[1] == "help" || strings.HasSuffix(m[1], ":") {
						continue // --help; help; a message adcpgen printed
					}
					checked++
					if !cmds[m[1]] {
						t.Errorf("%s:%d: adcpgen %s: no such command in cmd/adcpgen", md, b.start+i+1, m[1])
					}
				}
			}
		}
	}
	if checked < 5 {
		t.Fatalf("only %d commands checked", checked)
	}
}

func makeTargets(t *testing.T) map[string]bool {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(root, "mk", "*.mk"))
	files = append(files, filepath.Join(root, "Makefile"))
	re := regexp.MustCompile(`(?m)^([A-Za-z][\w.-]*(?:[ \t]+[A-Za-z][\w.-]*)*)[ \t]*:([^=]|$)`)
	targets := map[string]bool{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllSubmatch(src, -1) {
			for _, name := range bytes.Fields(m[1]) {
				targets[string(name)] = true
			}
		}
	}
	if !targets["test"] || !targets["run"] {
		t.Fatalf("make targets %v lack test and run", targets)
	}
	return targets
}

// adcpgenCommands reads the keys of cmd/adcpgen's commands table.
func adcpgenCommands(t *testing.T) map[string]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, "cmd", "adcpgen", "main.go"), nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	cmds := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || vs.Names[0].Name != "commands" || len(vs.Values) != 1 {
			return true
		}
		for _, e := range vs.Values[0].(*ast.CompositeLit).Elts {
			if k, ok := e.(*ast.KeyValueExpr).Key.(*ast.BasicLit); ok {
				if name, err := strconv.Unquote(k.Value); err == nil {
					cmds[name] = true
				}
			}
		}
		return false
	})
	if !cmds["generate"] {
		t.Fatalf("cmd/adcpgen/main.go: no commands table found (%v)", cmds)
	}
	return cmds
}

// Every relative link of the markdown points at a file or directory that
// exists (moving a page or a package breaks no link silently).
func TestLinksResolve(t *testing.T) {
	linkRE := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	codeSpanRE := regexp.MustCompile("`[^`]*`")
	checked := 0
	for _, md := range markdown(t) {
		src, err := os.ReadFile(filepath.Join(root, md))
		if err != nil {
			t.Fatal(err)
		}
		fenced := false
		for i, l := range strings.Split(string(src), "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "```") {
				fenced = !fenced
			}
			if fenced {
				continue
			}
			l = codeSpanRE.ReplaceAllString(l, "")
			for _, m := range linkRE.FindAllStringSubmatch(l, -1) {
				target, _, _ := strings.Cut(m[1], "#")
				if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				checked++
				if _, err := os.Stat(filepath.Join(root, filepath.Dir(md), target)); err != nil {
					t.Errorf("%s:%d: link to %s: %v", md, i+1, m[1], err)
				}
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d links checked", checked)
	}
}
