package seller

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/validate"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// readRequest checks c.Arguments and decodes them into c.request. It
// returns the answer refusing them, or nil.
func (s *Server) readRequest(c *Call) *Answer {
	switch err := s.parseArguments(c); {
	case errors.Is(err, errTooLarge):
		return s.invalid(fmt.Sprintf("The arguments are %d bytes, more than the %d this agent accepts", len(c.Arguments), s.maxBytes), "", nil)
	case errors.Is(err, errNotObject):
		return s.invalid("The arguments must be a JSON object", "", nil)
	case err != nil:
		return s.decodeRefusal(err)
	}
	args, view := []byte(c.Arguments), c.args
	if c.bridged != nil && c.bridged.shim.Request != nil {
		// A call of another release, bridged to this one's handler (Bridge).
		out, err := c.bridged.shim.Request(c.Arguments)
		if err != nil {
			return s.invalid("The request does not map: "+err.Error(), "", nil)
		}
		if view, err = wire.ParseLenient(out); err != nil || !view.IsObject() {
			return s.invalid("The request does not map: the shim made no JSON object of it", "", nil)
		}
		args = out
	}
	if !s.versionField() && view.Get("adcp_version").Present() {
		// The negotiation's member, which this release's schemas do not
		// declare (see versionField).
		args, _ = view.WithoutMember("adcp_version")
	}
	if s.validator != nil && c.Tool.RequestSchema != "" {
		issues, err := s.validator.Validate(c.Tool.RequestSchema, args)
		if err != nil {
			var pe *validate.PayloadError
			if errors.As(err, &pe) {
				return s.invalid("The arguments cannot be read: "+pe.Reason, "", nil)
			}
			s.log.ErrorContext(c.logContext(), "adcp: request schema", "tool", c.Tool.Name, "schema", c.Tool.RequestSchema, "err", err.Error())
			return ErrorAnswer(s.internalError())
		}
		owned := false
		if len(issues) > 0 && !c.entry.ownsIssues {
			if owned = c.entry.shimOwns(issues); !owned {
				return s.schemaRefusal(c, issues)
			}
		}
		c.issues = issues
		if owned {
			return nil
		}
	}
	if c.entry.decode != nil {
		req, err := c.entry.decode(args)
		if err != nil {
			return s.decodeRefusal(err)
		}
		c.request = req
	}
	return nil
}

// decodeRefusal answers arguments the strict reader refused.
func (s *Server) decodeRefusal(err error) *Answer {
	var de *wire.DecodeError
	if !errors.As(err, &de) {
		return s.invalid("The arguments cannot be read", "", nil)
	}
	msg := "The arguments are malformed: " + de.Error()
	var issues []adcperr.ValidationIssue
	if kw := schemaKeyword(de.Kind); kw != "" {
		if de.Kind == wire.KindMissing && len(de.Missing) > 0 {
			for _, m := range de.Missing {
				issues = append(issues, adcperr.ValidationIssue{Pointer: de.Pointer, Keyword: kw,
					Message: "must have required property '" + m + "'"})
			}
		} else {
			issues = append(issues, adcperr.ValidationIssue{Pointer: de.Pointer, Keyword: kw, Message: de.Message})
		}
	}
	return s.invalid(msg, de.Pointer, issues)
}

// schemaKeyword names the JSON Schema keyword a strict-decoding failure
// stands for, "" when none does (duplicate keys, prototype keys, syntax:
// issues[].keyword takes only schema keywords).
func schemaKeyword(k wire.Kind) string {
	switch k {
	case wire.KindType, wire.KindRange:
		return "type"
	case wire.KindMissing:
		return "required"
	case wire.KindUnknownField:
		return "additionalProperties"
	case wire.KindUnknownEnum:
		return "enum"
	case wire.KindConst:
		return "const"
	case wire.KindUnion:
		return "oneOf"
	}
	return ""
}

// schemaRefusal answers arguments that fail the request schema.
func (s *Server) schemaRefusal(c *Call, issues []validate.Issue) *Answer {
	out := make([]adcperr.ValidationIssue, len(issues))
	for i, is := range issues {
		out[i] = adcperr.ValidationIssue{Pointer: is.Pointer, Message: is.Message, Keyword: is.Keyword}
	}
	first := issues[0]
	where := first.Pointer
	if where == "" {
		where = "(root)"
	}
	msg := fmt.Sprintf("The request does not match the %s request schema: %s: %s", c.Tool.Name, where, first.Message)
	return s.invalid(msg, first.Pointer, out)
}

// invalid is a correctable INVALID_REQUEST. pointer, when set, also fills
// field (JSONPath-lite, as core/error.json requires beside issues). Issues
// are dropped from the end until the error fits the 4096 bytes buyers
// accept.
func (s *Server) invalid(msg, pointer string, issues []adcperr.ValidationIssue) *Answer {
	e := s.newError(s.pickCode("INVALID_REQUEST", "VALIDATION_ERROR"), truncateText(msg, 512))
	if len(issues) > 0 || pointer != "" {
		e.Field = truncateText(jsonPathLite(pointer), 256)
	}
	for i := range issues {
		issues[i].Message = truncateText(issues[i].Message, 256)
	}
	e.Issues = issues
	for len(e.Issues) > 1 {
		if _, err := e.WireJSON(); err == nil {
			break
		}
		e.Issues = e.Issues[:len(e.Issues)-1]
	}
	return ErrorAnswer(e)
}

// jsonPathLite turns an RFC 6901 pointer into the JSONPath-lite form of
// core/error.json's field: "/packages/0/targeting" is "packages[0].targeting".
func jsonPathLite(pointer string) string {
	if pointer == "" {
		return ""
	}
	var b strings.Builder
	for _, tok := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		tok = wire.UnescapePointerToken(tok)
		if isIndex(tok) {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}

func isIndex(tok string) bool {
	if tok == "" || (len(tok) > 1 && tok[0] == '0') {
		return false
	}
	for _, r := range tok {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// truncateText cuts s to at most n bytes on a UTF-8 boundary.
func truncateText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// Refuse is the answer to a call a transport could not make out (an A2A
// message without a DataPart naming a skill, say): a correctable
// INVALID_REQUEST saying why, where err is a *wire.DecodeError.
func (s *Server) Refuse(c *Call, err error) *Answer {
	c.srv = s
	if s.obs == nil {
		return s.refuse(c, err)
	}
	op := s.callOp(c, nil)
	ctx, end := s.obs.Start(context.Background(), op)
	c.ctx = ctx
	a := s.refuse(c, err)
	endCall(op, a)
	end()
	return a
}

func (s *Server) refuse(c *Call, err error) *Answer {
	if c.Release == "" {
		c.Release = s.group.servers[0].Release()
	}
	var de *wire.DecodeError
	if errors.As(err, &de) {
		return s.finish(c, s.decodeRefusal(err))
	}
	return s.finish(c, s.invalid("The request cannot be read: "+err.Error(), "", nil))
}

// shimOwns reports whether the bridge's shim takes every one of issues
// (Shim.OwnsIssues).
func (e *entry) shimOwns(issues []validate.Issue) bool {
	if e.bridge == nil || e.bridge.shim.OwnsIssues == nil {
		return false
	}
	for _, is := range issues {
		if !e.bridge.shim.OwnsIssues(is.Pointer) {
			return false
		}
	}
	return true
}
