package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/registry"
)

const extractSynopsis = "adcpgen extract --transport mcp|a2a|jsonrpc|webhook [--jsonl] [--spec SOURCE]... [FILE|-]"

const extractDescription = `
Extract AdCP success data and errors from transport envelopes, the way an
AdCP client must. Reads one JSON envelope from FILE (or stdin when FILE is
absent or "-"), or with --jsonl one envelope per line (blank lines are
skipped), and prints one compact JSON object per envelope with exactly these
keys:

  data         the extracted success data, as sent, or null
  error        the extracted adcp_error object, as sent (after validation), or null
  action       retry, surface_to_caller, escalate_to_human, generic_error, or null
  retry_after  whole seconds (rounded up, clamped to 1..3600) when action is
               retry and the seller sent a usable retry_after, else null
  problem      null, wrapper_detected, invalid_json or too_large

Transports:
  mcp      an MCP CallToolResult. data: structuredContent, else the first
           content[] text item that parses to an object (1 MiB caps); error:
           structuredContent.adcp_error, else a text item's, only when isError
           is truthy. action: with isError, the error's or generic_error;
           without it, generic_error when the only object found was an
           adcp_error (an error response missing its flag).
  jsonrpc  the same as mcp, which also reads a whole JSON-RPC response (a
           "jsonrpc" member, or "result" or "error" without CallToolResult
           members): a truthy "error" gives data null and the error from
           error.data.adcp_error; otherwise "result" is read as above.
  a2a      an A2A Task or event, after unwrapping one stream envelope
           ({task}, {statusUpdate}, {message}, {artifactUpdate}), or a
           JSON-RPC response holding one (its error is read as for mcp).
           data: by task state; a {"response": {...}} wrapper in a final
           state is problem wrapper_detected. error: the first adcp_error in
           any artifact DataPart, then in status.message. action: the
           error's, else generic_error for failed and rejected tasks.
  webhook  an MCP webhook (task_id truthy and status a string: data is
           "result") or else an A2A task. error: the adcp_error inside data.
           action: the error's, else generic_error when status or state is
           failed or rejected.

Presence checks follow JavaScript truthiness (isError: "false" is an error,
adcp_error: 0 is absent). An error must be an object whose code is a string
of 1-64 characters, at most 4096 bytes of compact JSON. too_large means
nothing was extracted and something was skipped for exceeding a size cap.

Recovery comes from the error's recovery field; when it is absent, from the
error-code table of the spec adcpgen embeds (its core package, which lists
every standard code), joined with the error_codes of the manifests of
  - every --spec SOURCE given (a schema directory or a .tgz bundle), else
  - $ADCP_SPEC when set, else
  - every protocol/*.tgz and schemas/*/manifest.json under $ADCP_SPEC_DIR
    when set.
A manifest's class wins over the embedded one; manifests must agree with
each other. Versions before 3.0.26 have no manifest and add nothing. Codes
no table lists are escalated whatever a manifest's default_unknown_recovery
says, as the conformance vectors require; --unknown-recovery changes that.

Exit status: 0 whenever an envelope was read (whatever it held), 2 for
unreadable input, an unusable --spec or bad usage.`

func runExtract(e *env, args []string) int {
	flags := newFlagSet("extract", extractSynopsis, extractDescription)
	transport := flags.String("transport", "", "envelope format: mcp, a2a, jsonrpc or webhook (required)")
	jsonl := flags.Bool("jsonl", false, "read one envelope per line; blank lines are skipped")
	var specs stringList
	flags.Var(&specs, "spec", "spec `SOURCE` whose manifest's error codes classify errors sent without\nrecovery: a schema directory or a .tgz bundle (repeatable)")
	unknown := flags.String("unknown-recovery", "terminal",
		"class of codes no table lists: terminal, transient, correctable, or manifest\n(the manifests' error_code_policy.default_unknown_recovery)")

	pos, done, code := parseArgs(e, "extract", flags, args)
	if done {
		return code
	}
	extractFn := map[string]func(*extract.Extractor, []byte) *extract.Result{
		"mcp": (*extract.Extractor).MCP, "jsonrpc": (*extract.Extractor).MCP,
		"a2a": (*extract.Extractor).A2A, "webhook": (*extract.Extractor).Webhook,
	}[*transport]
	switch {
	case extractFn != nil:
	case *transport == "":
		return usageError(e, "extract", "missing --transport (mcp, a2a, jsonrpc or webhook)")
	default:
		return usageError(e, "extract", "unknown transport %q (want mcp, a2a, jsonrpc or webhook)", *transport)
	}
	if len(pos) > 1 {
		return usageError(e, "extract", "want at most one FILE, got %d: %s", len(pos), strings.Join(pos, " "))
	}

	sp, err := extractSpec(e, specs)
	if err != nil {
		fmt.Fprintf(e.stderr, "adcpgen extract: %v\n", err)
		return exitUsage
	}
	var opt extract.Option
	switch *unknown {
	case "terminal", "transient", "correctable":
		opt = extract.WithUnknownRecovery(registry.Recovery(*unknown))
	case "manifest":
		if sp.UnknownRecovery() == "" {
			return usageError(e, "extract", "--unknown-recovery manifest: no manifest in use gives a default_unknown_recovery")
		}
		opt = extract.WithSpecUnknownRecovery()
	default:
		return usageError(e, "extract", "unknown --unknown-recovery %q (want terminal, transient, correctable or manifest)", *unknown)
	}

	name, in := "stdin", e.stdin
	if len(pos) == 1 && pos[0] != "-" {
		name = pos[0]
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(e.stderr, "adcpgen extract: %v\n", err)
			return exitUsage
		}
		defer f.Close()
		in = f
	}

	out := bufio.NewWriter(e.stdout)
	defer out.Flush()
	x := extract.New(sp, opt)
	if !*jsonl {
		data, err := io.ReadAll(in)
		if err != nil {
			fmt.Fprintf(e.stderr, "adcpgen extract: reading %s: %v\n", name, err)
			return exitUsage
		}
		r := extractFn(x, data)
		out.Write(extractLine(r))
		return exitOK
	}
	br := bufio.NewReader(in)
	for lineNo := 1; ; lineNo++ {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			r := extractFn(x, line)
			out.Write(extractLine(r))
		}
		if err == io.EOF {
			return exitOK
		}
		if err != nil {
			out.Flush()
			fmt.Fprintf(e.stderr, "adcpgen extract: reading %s line %d: %v\n", name, lineNo, err)
			return exitUsage
		}
	}
}

// extractLine renders a result as the command's one-line JSON object.
func extractLine(r *extract.Result) []byte {
	var b bytes.Buffer
	b.WriteString(`{"data":`)
	extractRaw(&b, r.Data)
	b.WriteString(`,"error":`)
	if r.Error != nil {
		extractRaw(&b, r.Error.Raw)
	} else {
		b.WriteString("null")
	}
	b.WriteString(`,"action":`)
	extractString(&b, string(r.Action))
	b.WriteString(`,"retry_after":`)
	if r.Action == adcperr.ActionRetry && r.Error != nil && r.Error.RetryAfter > 0 {
		b.WriteString(strconv.FormatInt(int64(r.Error.RetryAfter.Seconds()), 10))
	} else {
		b.WriteString("null")
	}
	b.WriteString(`,"problem":`)
	var p extract.Problem
	errors.As(r.Problem, &p)
	extractString(&b, string(p))
	b.WriteString("}\n")
	return b.Bytes()
}

func extractRaw(b *bytes.Buffer, raw json.RawMessage) {
	if raw == nil || json.Compact(b, raw) != nil {
		b.WriteString("null")
	}
}

func extractString(b *bytes.Buffer, s string) {
	if s == "" {
		b.WriteString("null")
		return
	}
	q, _ := json.Marshal(s)
	b.Write(q)
}
