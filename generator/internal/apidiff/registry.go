package apidiff

import (
	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/runtime/registry"
)

// registry compares the tool table, the error-code table and the details
// map.
func (c *comparer) registry(o, n *ir.Registry) {
	if o == nil {
		o = &ir.Registry{}
	}
	if n == nil {
		n = &ir.Registry{}
	}
	c.tools(o.Tools, n.Tools)
	c.codes(o, n)
	c.details(o.Details, n.Details)
}

func typeName(t *ir.Type) string {
	if t == nil {
		return ""
	}
	return t.Name
}

// typeRef compares a type a table points at on both sides; ch gets From,
// To and, when it only follows a rename, the note.
func (c *comparer) typeRef(ch *Change, o, n *ir.Type, reason string) bool {
	ch.From, ch.To = typeName(o), typeName(n)
	if ch.From == ch.To {
		return false
	}
	ch.Breaking, ch.Reason = true, reason
	if o != nil && n != nil {
		c.followsRename(ch, c.oldName(o))
	}
	return true
}

func (c *comparer) tools(oldTools, newTools []*ir.Tool) {
	oldBy := map[string]*ir.Tool{}
	for _, t := range oldTools {
		oldBy[t.Name] = t
	}
	newBy := map[string]*ir.Tool{}
	for _, t := range newTools {
		newBy[t.Name] = t
	}
	for _, o := range oldTools {
		if _, ok := newBy[o.Name]; !ok {
			c.add(Change{Category: CatTools, Kind: ToolRemoved, Breaking: true, Member: o.Name,
				From:   typeName(o.Request) + " → " + typeName(o.Response),
				Reason: "Spec().Tool no longer finds it"})
		}
	}
	for _, n := range newTools {
		o, ok := oldBy[n.Name]
		base := Change{Category: CatTools, Member: n.Name}
		if !ok {
			ch := base
			ch.Kind, ch.To = ToolAdded, typeName(n.Request)+" → "+typeName(n.Response)
			ch.Reason = "a new table entry"
			c.add(ch)
			continue
		}
		if !o.Deprecated && n.Deprecated {
			ch := base
			ch.Kind, ch.Reason = ToolDeprecated, "still listed"
			c.add(ch)
		}
		if ch := (Change{Category: CatTools, Kind: ToolRequestChanged, Member: n.Name}); c.typeRef(&ch, o.Request, n.Request, "NewRequest returns another type") {
			c.add(ch)
		}
		if ch := (Change{Category: CatTools, Kind: ToolResponseChanged, Member: n.Name}); c.typeRef(&ch, o.Response, n.Response, "NewResponse returns another type") {
			c.add(ch)
		}
		c.async(base, o.Async, n.Async)
	}
}

// async compares a tool's interim-status response types by status.
func (c *comparer) async(base Change, oldAsync, newAsync []*ir.AsyncResponse) {
	oldBy := map[string]*ir.AsyncResponse{}
	for _, a := range oldAsync {
		oldBy[a.Status] = a
	}
	newBy := map[string]*ir.AsyncResponse{}
	for _, a := range newAsync {
		newBy[a.Status] = a
	}
	for _, o := range oldAsync {
		if _, ok := newBy[o.Status]; !ok {
			ch := base
			ch.Kind, ch.Breaking, ch.GoName, ch.From = ToolAsyncRemoved, true, o.Status, typeName(o.Type)
			ch.Reason = "its Async entry is gone"
			c.add(ch)
		}
	}
	for _, n := range newAsync {
		o, ok := oldBy[n.Status]
		ch := base
		ch.GoName = n.Status
		if !ok {
			ch.Kind, ch.To = ToolAsyncAdded, typeName(n.Type)
			ch.Reason = "a new Async entry"
			c.add(ch)
			continue
		}
		ch.Kind = ToolAsyncChanged
		if c.typeRef(&ch, o.Type, n.Type, "its Async entry returns another type") {
			c.add(ch)
		}
	}
}

func (c *comparer) codes(o, n *ir.Registry) {
	oldBy := map[string]registry.ErrorCode{}
	for _, e := range o.Codes {
		oldBy[e.Code] = e
	}
	newBy := map[string]registry.ErrorCode{}
	for _, e := range n.Codes {
		newBy[e.Code] = e
	}
	for _, oc := range o.Codes {
		if _, ok := newBy[oc.Code]; !ok {
			c.add(Change{Category: CatCodes, Kind: CodeRemoved, Breaking: true, Member: oc.Code, From: string(oc.Recovery),
				Reason: "no longer a standard code; Spec().Recovery forgets it"})
		}
	}
	for _, nc := range n.Codes {
		oc, ok := oldBy[nc.Code]
		base := Change{Category: CatCodes, Member: nc.Code}
		switch {
		case !ok:
			base.Kind, base.To = CodeAdded, string(nc.Recovery)
			base.Reason = "receivers already handle unknown codes"
			c.add(base)
			continue
		case oc.Recovery != nc.Recovery:
			ch := base
			ch.Kind, ch.Breaking, ch.From, ch.To = CodeRecoveryChanged, true, string(oc.Recovery), string(nc.Recovery)
			ch.Reason = "the runtime's recovery decision changes"
			c.add(ch)
		}
		if !oc.Deprecated && nc.Deprecated {
			ch := base
			ch.Kind, ch.Reason = CodeDeprecated, "still listed"
			c.add(ch)
		}
	}
	if o.UnknownRecovery != n.UnknownRecovery {
		c.add(Change{Category: CatCodes, Kind: DefaultRecoveryChanged, Breaking: true, Member: "UnknownRecovery",
			From: string(o.UnknownRecovery), To: string(n.UnknownRecovery),
			Reason: "the runtime's recovery decision for unlisted codes changes"})
	}
}

// details compares the code → details-type map. Conventional entries match
// by code; alternate shapes by code and type.
func (c *comparer) details(oldDetails, newDetails []*ir.DetailsEntry) {
	type key struct {
		code, alt string
	}
	keyOf := func(d *ir.DetailsEntry, name namer) key {
		if d.Alternate {
			return key{d.Code, name(d.Type)}
		}
		return key{d.Code, ""}
	}
	oldBy := map[key]*ir.DetailsEntry{}
	for _, d := range oldDetails {
		oldBy[keyOf(d, c.oldName)] = d
	}
	newBy := map[key]*ir.DetailsEntry{}
	for _, d := range newDetails {
		newBy[keyOf(d, plainName)] = d
	}
	for _, o := range oldDetails {
		if _, ok := newBy[keyOf(o, c.oldName)]; ok {
			continue
		}
		ch := Change{Category: CatDetails, Kind: DetailsRemoved, Breaking: true, Member: o.Code, From: typeName(o.Type),
			Reason: "NewErrorDetails no longer types them"}
		if o.Alternate {
			ch.Kind, ch.Reason = AlternateDetailsRemoved, "the type no longer implements ErrorDetails"
		}
		if o.Type != nil {
			ch.Schema = o.Type.Loc.String()
		}
		c.add(ch)
	}
	for _, n := range newDetails {
		o, ok := oldBy[keyOf(n, plainName)]
		ch := Change{Category: CatDetails, Member: n.Code}
		if n.Type != nil {
			ch.Schema = n.Type.Loc.String()
		}
		if !ok {
			ch.Kind, ch.To = DetailsAdded, typeName(n.Type)
			ch.Reason = "NewErrorDetails now types them"
			if n.Alternate {
				ch.Kind, ch.Reason = AlternateDetailsAdded, "another type implements ErrorDetails"
			}
			c.add(ch)
			continue
		}
		ch.Kind = DetailsTypeChanged
		if c.typeRef(&ch, o.Type, n.Type, "NewErrorDetails returns another type") {
			c.add(ch)
		}
	}
}
