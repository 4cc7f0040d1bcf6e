// Command adcpgen generates Go bindings from AdCP JSON Schemas, validates
// payloads against a spec version, extracts AdCP data from transport
// envelopes, fetches spec releases, compares versions and calls a live
// agent's tools.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// env is the process surroundings a command sees, so tests can run commands
// in-process.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
}

type command struct {
	summary string
	run     func(e *env, args []string) int
}

// Exit codes shared by every command.
const (
	exitOK      = 0
	exitFailure = 1 // the command ran and found a problem (invalid payload, breaking diff, broken schema)
	exitUsage   = 2 // bad usage or unreadable input
)

var commands = map[string]command{
	"generate": {"generate Go types from AdCP JSON Schemas", runGenerate},
	"validate": {"validate JSON payloads against a spec version", runValidate},
	"extract":  {"extract AdCP data and errors from MCP, A2A, JSON-RPC and webhook envelopes", runExtract},
	"fetch":    {"download a protocol bundle, verify it and cache it", runFetch},
	"diff":     {"compare the Go API two spec versions generate", runDiff},
	"call":     {"call one tool of a live agent over MCP or A2A and print its answer", runCall},
	"keygen":   {"generate an RFC 9421 signing key pair: the private JWK and the JWKS to publish", runKeygen},
}

func main() {
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}
	os.Exit(run(e, os.Args[1:]))
}

func run(e *env, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(e.stderr, "adcpgen: missing command (see adcpgen --help)")
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		printUsage(e.stdout)
		return exitOK
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "adcpgen: unknown command %q (see adcpgen --help)\n", args[0])
		return exitUsage
	}
	return cmd.run(e, args[1:])
}

func printUsage(w io.Writer) {
	fmt.Fprint(w, `adcpgen: Go bindings and tools for the Ad Context Protocol (AdCP)

Usage:
  adcpgen <command> [flags] [arguments]

Commands:
`)
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(w, "  %-9s %s\n", name, commands[name].summary)
	}
	fmt.Fprint(w, `
Run "adcpgen <command> --help" for a command's flags.

Exit status: 0 success, 1 the command found a problem, 2 bad usage or
unreadable input.
`)
}

// usageError prints a one-line reason and returns exitUsage.
func usageError(e *env, cmd, format string, args ...any) int {
	msg := fmt.Sprintf(format, args...)
	msg = strings.ReplaceAll(msg, "\n", " ")
	fmt.Fprintf(e.stderr, "adcpgen %s: %s (see adcpgen %s --help)\n", cmd, msg, cmd)
	return exitUsage
}
