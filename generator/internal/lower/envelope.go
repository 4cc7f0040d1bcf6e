package lower

import (
	"slices"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/jsonsrc"
	"github.com/adcpgen/adcpgen/generator/internal/load"
	"github.com/adcpgen/adcpgen/generator/internal/schema"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/task"
)

// The protocol envelope: core/protocol-envelope.json defines the members
// the protocol layer sets on every task response (status, task_id,
// message, context_id, replayed, ...). From 3.1 every response schema
// includes it through allOf; before, some payload schemas declare a few of
// its members themselves (a submitted payload's status const "submitted"
// and task_id). The registry records, per payload schema, which members
// are the envelope's, so the seller fills them and the buyer reads them
// (registry.Envelope), and the generated fields holding them say so.

const (
	envelopeFile   = "core/protocol-envelope.json"
	taskStatusFile = "enums/task-status.json"
)

// envelopes fills the Envelope of every tool's response and interim
// payloads, the version's envelope member list, and marks the generated
// fields that hold envelope members.
func envelopes(set *load.Set, r *ir.Registry) {
	env := set.Doc(envelopeFile)
	if env != nil {
		for _, p := range env.Root.Properties {
			r.Envelope = append(r.Envelope, p.Name)
		}
	}
	statuses := taskStatuses(set)
	of := func(p string) registry.Envelope {
		d := set.Doc(p)
		if d == nil {
			return registry.Envelope{}
		}
		w := &envelopeWalk{env: env, statuses: statuses, seen: map[*schema.Schema]bool{}}
		w.visit(d.Root)
		return w.result()
	}
	for _, t := range r.Tools {
		t.Envelope = of(t.ResponseSchema)
		if statusTools[t.Name] {
			t.Envelope = reportsTask(t.Envelope)
		}
		markEnvelopeFields(t.Response, t.Envelope)
		for _, a := range t.Async {
			a.Envelope = of(a.Schema)
			markEnvelopeFields(a.Type, a.Envelope)
		}
	}
}

// statusTools report another task: their status and task_id are that
// task's, declared by their own schemas, whatever the envelope says of the
// same keys.
var statusTools = map[string]bool{"get_task_status": true, "tasks/get": true}

// reportsTask moves status and task_id from the envelope's members to the
// payload's.
func reportsTask(e registry.Envelope) registry.Envelope {
	e.Members = slices.DeleteFunc(slices.Clone(e.Members), func(m string) bool {
		if m == registry.MemberStatus || m == registry.MemberTaskID {
			if !slices.Contains(e.Payload, m) {
				e.Payload = append(e.Payload, m)
			}
			return true
		}
		return false
	})
	if len(e.Members) == 0 {
		e.Members = nil
	}
	e.Statuses = nil
	order := registry.EnvelopeMembers()
	slices.SortFunc(e.Payload, func(a, b string) int { return slices.Index(order, a) - slices.Index(order, b) })
	return e
}

// taskStatuses is the tree's task status vocabulary (enums/task-status.json),
// else the runtime's.
func taskStatuses(set *load.Set) map[string]bool {
	out := map[string]bool{}
	if d := set.Doc(taskStatusFile); d != nil {
		for _, v := range d.Root.Enum {
			if v.Node.Kind == jsonsrc.String {
				out[v.Node.Str] = true
			}
		}
	}
	if len(out) == 0 {
		for _, s := range task.Statuses() {
			out[string(s)] = true
		}
	}
	return out
}

// envelopeWalk reads one payload schema's top level: its properties, those
// of the schemas it merges (allOf) and of its arms (oneOf, anyOf),
// following $refs.
type envelopeWalk struct {
	env      *schema.Document
	statuses map[string]bool
	seen     map[*schema.Schema]bool

	members   map[string]bool
	payload   map[string]bool
	anyStatus bool     // status is the envelope's whatever its value
	fixed     []string // task statuses the schema fixes status to
	closed    bool
}

func (w *envelopeWalk) visit(s *schema.Schema) {
	if s == nil || w.seen[s] {
		return
	}
	w.seen[s] = true
	if s.Ref != "" {
		w.visit(s.Target)
	}
	if w.env != nil && s == w.env.Root {
		for _, p := range s.Properties {
			if slices.Contains(registry.EnvelopeMembers(), p.Name) {
				w.add(&w.members, p.Name)
				w.anyStatus = w.anyStatus || p.Name == registry.MemberStatus
			}
		}
		return
	}
	if s.AdditionalProperties.IsFalse() {
		w.closed = true
	}
	for _, p := range s.Properties {
		if slices.Contains(registry.EnvelopeMembers(), p.Name) {
			w.property(p.Name, p.Schema)
		}
	}
	for _, list := range [][]*schema.Schema{s.AllOf, s.OneOf, s.AnyOf} {
		for _, sub := range list {
			w.visit(sub)
		}
	}
}

// property classifies a declared member: the envelope's when it holds the
// envelope's kind of value (a task status, a string id or message, the
// replayed flag), else the payload's own.
func (w *envelopeWalk) property(name string, s *schema.Schema) {
	d := schema.Deref(s)
	if d == nil {
		return
	}
	switch name {
	case registry.MemberStatus:
		if d.Doc != nil && d.Doc.Path == taskStatusFile && d == d.Doc.Root {
			w.add(&w.members, name)
			w.anyStatus = true
			return
		}
		values := constValues(d)
		ok := len(values) > 0
		for _, v := range values {
			ok = ok && w.statuses[v]
		}
		if ok {
			w.add(&w.members, name)
			w.fixed = append(w.fixed, values...)
			return
		}
	case registry.MemberReplayed:
		if typed(d, "boolean") {
			w.add(&w.members, name)
			return
		}
	default:
		if typed(d, "string") {
			w.add(&w.members, name)
			return
		}
	}
	w.add(&w.payload, name)
}

func (w *envelopeWalk) add(m *map[string]bool, name string) {
	if *m == nil {
		*m = map[string]bool{}
	}
	(*m)[name] = true
}

// result is what the walk found, in the registry's order.
func (w *envelopeWalk) result() registry.Envelope {
	var e registry.Envelope
	for _, m := range registry.EnvelopeMembers() {
		if w.members[m] {
			e.Members = append(e.Members, m)
		}
		if w.payload[m] {
			e.Payload = append(e.Payload, m)
		}
	}
	if w.members[registry.MemberStatus] && !w.anyStatus {
		for _, s := range task.Statuses() {
			if slices.Contains(w.fixed, string(s)) {
				e.Statuses = append(e.Statuses, string(s))
			}
		}
		for _, s := range w.fixed { // a tree's own statuses, after the known ones
			if !slices.Contains(e.Statuses, s) {
				e.Statuses = append(e.Statuses, s)
			}
		}
	}
	e.Closed = w.closed
	return e
}

// constValues are the string values a schema fixes: its const, or its enum.
func constValues(s *schema.Schema) []string {
	var out []string
	if s.Const != nil {
		if s.Const.Node.Kind == jsonsrc.String {
			out = append(out, s.Const.Node.Str)
		}
		return out
	}
	for _, v := range s.Enum {
		if v.Node.Kind != jsonsrc.String {
			return nil
		}
		out = append(out, v.Node.Str)
	}
	return out
}

// typed reports a schema whose type admits kind (or says nothing of it).
func typed(s *schema.Schema, kind string) bool {
	return len(s.Types) == 0 || slices.Contains(s.Types, kind)
}

// markEnvelopeFields marks the fields of a payload type (a struct, or each
// arm of a union) that hold a member the envelope owns.
func markEnvelopeFields(t *ir.Type, e registry.Envelope) {
	if t == nil || len(e.Members) == 0 {
		return
	}
	switch t.Kind {
	case ir.KindStruct:
		for _, f := range t.Fields {
			if slices.Contains(e.Members, f.JSONName) && (f.JSONName != registry.MemberStatus || e.Statuses == nil || fixedTo(f, e.Statuses)) {
				f.Envelope = true
			}
		}
	case ir.KindUnion:
		for _, a := range t.Union.Arms {
			if a.Type != nil && a.Type.Kind == ir.RefNamed {
				markEnvelopeFields(a.Type.Named, e)
			}
		}
	}
}

// fixedTo reports a field whose const is one of values.
func fixedTo(f *ir.Field, values []string) bool {
	return f.Const != nil && f.Const.Node.Kind == jsonsrc.String && slices.Contains(values, f.Const.Node.Str)
}
