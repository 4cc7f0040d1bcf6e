package notifyconfig

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/validate"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Scope is the surface a notification_configs[] array belongs to.
type Scope uint8

const (
	// AccountLevel is sync_accounts' accounts[].notification_configs[].
	AccountLevel Scope = iota + 1
	// AgentLevel is sync_agent_notification_configs'
	// notification_configs[].
	AgentLevel
)

// Event types anchored elsewhere than an account, refused on the account
// surface; every release names them alike.
var (
	mediaBuyEvents = []string{"scheduled", "final", "delayed", "adjusted", "window_update", "impairment"}
	agentEvents    = []string{"capabilities.changed"}
)

// Config is one subscriber.
type Config struct {
	SubscriberID string
	URL          string
	EventTypes   []string
	// Active is false for a paused subscriber, kept but never fired at.
	Active bool
	// Entry is the entry as the buyer sent it, credentials included (a
	// delivery needs them; Echo leaves them out).
	Entry json.RawMessage
}

// ReadOptions say how an array is read.
type ReadOptions struct {
	// Scope is the array's surface.
	Scope Scope
	// URLs is the webhook URL policy (the zero value: https, public
	// addresses only).
	URLs untrusted.PushURLPolicy
	// Issues are the request schema's issues within the array, their
	// pointers relative to it ("/1/event_types/0"): an entry with one is
	// refused with it (a seller answers such entries per account, not by
	// refusing the call; runtime/seller's RawTool.OwnsSchemaIssues).
	Issues []validate.Issue
	// Field names the array in refusals' fields: "notification_configs"
	// when empty.
	Field string
}

// Read reads a notification_configs[] array: the subscribers it
// registers, in order, and the refusals of the entries that break a rule
// (VALIDATION_ERROR, correctable, the offending field named from the
// array, "notification_configs[1].subscriber_id"). A request is applied
// only without refusals. raw that is not an array is one refusal.
func Read(raw json.RawMessage, o ReadOptions) ([]Config, []*adcperr.Error) {
	field := o.Field
	if field == "" {
		field = "notification_configs"
	}
	v, err := wire.ParseLenient(raw)
	if err != nil || !v.IsArray() {
		return nil, []*adcperr.Error{refusal(field, "notification_configs must be an array")}
	}
	var (
		out      []Config
		refusals []*adcperr.Error
		seen     = map[string]int{}
	)
	for i, e := range elements(v) {
		at := field + "[" + strconv.Itoa(i) + "]"
		if is, ok := issueAt(o.Issues, i); ok {
			refusals = append(refusals, refusal(at+issueField(is.Pointer, i), "The entry does not match the schema: "+is.Message))
			continue
		}
		c, r := parseEntry(e, at, o)
		if r != nil {
			refusals = append(refusals, r)
			continue
		}
		if j, dup := seen[c.SubscriberID]; dup {
			refusals = append(refusals, refusal(at+".subscriber_id", fmt.Sprintf("subscriber_id %q is also entry %d's: each subscriber is named once", c.SubscriberID, j)))
			continue
		}
		seen[c.SubscriberID] = i
		out = append(out, c)
	}
	return out, refusals
}

// parseEntry reads one entry at field at.
func parseEntry(e wire.Lenient, at string, o ReadOptions) (Config, *adcperr.Error) {
	if !e.IsObject() {
		return Config{}, refusal(at, "A notification config must be an object")
	}
	c := Config{Active: true, Entry: e.Raw()}
	var ok bool
	if c.SubscriberID, ok = e.Get("subscriber_id").AsString(); !ok || c.SubscriberID == "" {
		return Config{}, refusal(at+".subscriber_id", "subscriber_id is required")
	}
	if c.URL, ok = e.Get("url").AsString(); !ok || c.URL == "" {
		return Config{}, refusal(at+".url", "url is required")
	}
	if _, err := untrusted.CheckPushURL(c.URL, o.URLs); err != nil {
		return Config{}, refusal(at+".url", "The webhook URL is refused: "+err.Error())
	}
	if a := e.Get("active"); a.Present() {
		c.Active = string(a) != "false"
	}
	types := e.Get("event_types")
	if !types.IsArray() || len(elements(types)) == 0 {
		return Config{}, refusal(at+".event_types", "event_types must name at least one event type")
	}
	for j, t := range elements(types) {
		et, _ := t.AsString()
		if why := outOfScope(et, o.Scope); why != "" {
			return Config{}, refusal(at+".event_types["+strconv.Itoa(j)+"]", fmt.Sprintf("%q %s", et, why))
		}
		if slices.Contains(c.EventTypes, et) {
			return Config{}, refusal(at+".event_types["+strconv.Itoa(j)+"]", fmt.Sprintf("%q is named twice", et))
		}
		c.EventTypes = append(c.EventTypes, et)
	}
	return c, nil
}

// outOfScope says why an event type cannot be registered on scope's
// surface, "" when it may.
func outOfScope(et string, scope Scope) string {
	switch {
	case et == "":
		return "is not an event type"
	case scope == AccountLevel && slices.Contains(mediaBuyEvents, et):
		return "is anchored at a media buy: register it with the buy's push_notification_config"
	case scope == AccountLevel && slices.Contains(agentEvents, et):
		return "is anchored at the agent: register it with sync_agent_notification_configs"
	case scope == AgentLevel && !slices.Contains(agentEvents, et):
		return "is not an agent-level event: register it on an account's notification_configs or a buy's push_notification_config"
	}
	return ""
}

// issueAt returns the first issue within entry i.
func issueAt(issues []validate.Issue, i int) (validate.Issue, bool) {
	prefix := "/" + strconv.Itoa(i)
	for _, is := range issues {
		if is.Pointer == prefix || strings.HasPrefix(is.Pointer, prefix+"/") {
			return is, true
		}
	}
	return validate.Issue{}, false
}

// issueField is an issue's pointer within entry i in the field style:
// "/1/event_types/0" → ".event_types[0]".
func issueField(pointer string, i int) string {
	rest := strings.TrimPrefix(pointer, "/"+strconv.Itoa(i))
	var b strings.Builder
	for _, tok := range strings.Split(strings.TrimPrefix(rest, "/"), "/") {
		if tok == "" {
			continue
		}
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		if _, err := strconv.Atoi(tok); err == nil {
			b.WriteString("[" + tok + "]")
		} else {
			b.WriteString("." + tok)
		}
	}
	return b.String()
}

// elements are an array's elements.
func elements(v wire.Lenient) []wire.Lenient {
	var out []wire.Lenient
	v.Elems(func(e wire.Lenient) bool { out = append(out, e); return true })
	return out
}

func refusal(field, msg string) *adcperr.Error {
	return &adcperr.Error{Code: "VALIDATION_ERROR", Message: msg, Field: field, Recovery: "correctable"}
}
