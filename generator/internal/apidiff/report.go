package apidiff

import (
	"cmp"
	"slices"
)

// Category groups changes by what they are about.
type Category string

const (
	CatTypes   Category = "types"
	CatFields  Category = "fields"
	CatEnums   Category = "enum values"
	CatUnions  Category = "union arms"
	CatTools   Category = "tools"
	CatCodes   Category = "error codes"
	CatDetails Category = "error details"
)

// Categories lists every category in report order.
var Categories = []Category{CatTypes, CatFields, CatEnums, CatUnions, CatTools, CatCodes, CatDetails}

func categoryRank(c Category) int {
	if i := slices.Index(Categories, c); i >= 0 {
		return i
	}
	return len(Categories)
}

// Kind says what happened.
type Kind string

const (
	TypeAdded             Kind = "type-added"
	TypeRemoved           Kind = "type-removed"
	TypeRenamed           Kind = "type-renamed"
	TypeKindChanged       Kind = "type-kind-changed"
	TypeUnderlyingChanged Kind = "type-underlying-changed"
	TypeDeprecated        Kind = "type-deprecated"
	TypeSchemaChanged     Kind = "type-schema-changed"

	FieldAdded       Kind = "field-added"
	FieldRemoved     Kind = "field-removed"
	FieldRenamed     Kind = "field-renamed"
	FieldTypeChanged Kind = "field-type-changed"
	FieldRequired    Kind = "field-required"
	FieldOptional    Kind = "field-optional"
	FieldDeprecated  Kind = "field-deprecated"
	ExtraKept        Kind = "extra-kept"
	ExtraRejected    Kind = "extra-rejected"
	ExtraTypeChanged Kind = "extra-type-changed"

	EnumValueAdded      Kind = "enum-value-added"
	EnumValueRemoved    Kind = "enum-value-removed"
	EnumConstRenamed    Kind = "enum-constant-renamed"
	EnumValueDeprecated Kind = "enum-value-deprecated"

	ArmAdded       Kind = "arm-added"
	ArmRemoved     Kind = "arm-removed"
	ArmRenamed     Kind = "arm-renamed"
	ArmTypeChanged Kind = "arm-type-changed"
	ArmsReordered  Kind = "arms-reordered"

	ToolAdded           Kind = "tool-added"
	ToolRemoved         Kind = "tool-removed"
	ToolDeprecated      Kind = "tool-deprecated"
	ToolRequestChanged  Kind = "tool-request-changed"
	ToolResponseChanged Kind = "tool-response-changed"
	ToolAsyncAdded      Kind = "tool-async-added"
	ToolAsyncRemoved    Kind = "tool-async-removed"
	ToolAsyncChanged    Kind = "tool-async-changed"

	CodeAdded               Kind = "code-added"
	CodeRemoved             Kind = "code-removed"
	CodeRecoveryChanged     Kind = "code-recovery-changed"
	CodeDeprecated          Kind = "code-deprecated"
	DefaultRecoveryChanged  Kind = "default-recovery-changed"
	DetailsAdded            Kind = "details-added"
	DetailsRemoved          Kind = "details-removed"
	DetailsTypeChanged      Kind = "details-type-changed"
	AlternateDetailsAdded   Kind = "alternate-details-added"
	AlternateDetailsRemoved Kind = "alternate-details-removed"
)

// Change is one difference in the generated Go API.
type Change struct {
	Category Category `json:"category"`
	Kind     Kind     `json:"kind"`
	Breaking bool     `json:"breaking"`
	// Type is the Go type the change is about: its new name, or its old one
	// when it was removed. Empty for tools and error codes.
	Type string `json:"type,omitempty"`
	// Member is the field's JSON name, the enum value (as JSON), the arm's
	// Go name, the tool name or the error code.
	Member string `json:"member,omitempty"`
	// GoName is the Go identifier of the member, when it has one.
	GoName string `json:"go_name,omitempty"`
	// From and To are the Go type, name or value before and after.
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	// Schema is where the new (or, when removed, the old) thing is defined:
	// file#pointer.
	Schema string `json:"schema,omitempty"`
	// FollowsRename marks a change that only follows the rename of a type
	// it refers to (already reported as type-renamed).
	FollowsRename bool `json:"follows_rename,omitempty"`
	// Reason says in a few words why the change breaks or does not.
	Reason string `json:"reason"`
}

// Side describes one of the two compared packages.
type Side struct {
	Version string `json:"version,omitempty"`
	Source  string `json:"source,omitempty"`
	Types   int    `json:"types"`
	Tools   int    `json:"tools"`
	Codes   int    `json:"codes"`
}

// Count is the number of changes in one category.
type Count struct {
	Category   Category `json:"category"`
	Breaking   int      `json:"breaking"`
	Compatible int      `json:"compatible"`
}

// Report is the result of a comparison.
type Report struct {
	From       Side     `json:"from"`
	To         Side     `json:"to"`
	Breaking   int      `json:"breaking"`
	Compatible int      `json:"compatible"`
	Categories []Count  `json:"categories"`
	Changes    []Change `json:"changes"`
}

// HasBreaking reports whether any change breaks a Go consumer.
func (r *Report) HasBreaking() bool { return r.Breaking > 0 }

// Count returns the counts of one category.
func (r *Report) Count(c Category) Count {
	for _, n := range r.Categories {
		if n.Category == c {
			return n
		}
	}
	return Count{Category: c}
}

// Select returns the changes of one category and kind, in report order.
func (r *Report) Select(c Category, k Kind) []Change {
	var out []Change
	for _, ch := range r.Changes {
		if ch.Category == c && (k == "" || ch.Kind == k) {
			out = append(out, ch)
		}
	}
	return out
}

// finish sorts the changes and fills in the counts.
func (r *Report) finish() {
	slices.SortStableFunc(r.Changes, compareChanges)
	r.Changes = slices.CompactFunc(r.Changes, func(a, b Change) bool { return a == b })
	if r.Changes == nil {
		r.Changes = []Change{}
	}
	r.Categories = make([]Count, len(Categories))
	r.Breaking, r.Compatible = 0, 0
	for i, c := range Categories {
		r.Categories[i].Category = c
	}
	for _, ch := range r.Changes {
		n := &r.Categories[categoryRank(ch.Category)]
		if ch.Breaking {
			n.Breaking++
			r.Breaking++
		} else {
			n.Compatible++
			r.Compatible++
		}
	}
}

func compareChanges(a, b Change) int {
	return cmp.Or(
		cmp.Compare(categoryRank(a.Category), categoryRank(b.Category)),
		cmp.Compare(a.Type, b.Type),
		cmp.Compare(a.Member, b.Member),
		cmp.Compare(a.Kind, b.Kind),
		cmp.Compare(a.From, b.From),
		cmp.Compare(a.To, b.To),
		cmp.Compare(a.GoName, b.GoName),
		cmp.Compare(a.Schema, b.Schema),
		cmp.Compare(a.Reason, b.Reason),
	)
}
