package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// ManifestName is the manifest's path inside a schema tree; in a protocol
// bundle it is schemas/manifest.json. Spec versions before 3.0.26 have none.
const ManifestName = "manifest.json"

// ErrNoManifest is wrapped by LoadManifest for a tree without a manifest.
var ErrNoManifest = errors.New("no manifest.json (spec versions before 3.0.26 have none)")

// Manifest is what a spec's manifest.json says about tools, error codes and
// webhook results. This is the one parser of that file: the generator, the
// validator and the CLI all read it through here.
type Manifest struct {
	// Version is adcp_version ("" when absent).
	Version string
	// Tools are sorted by name.
	Tools []ManifestTool
	// Codes are sorted by code.
	Codes ErrorCodes
	// UnknownRecovery is error_code_policy.default_unknown_recovery.
	UnknownRecovery Recovery
	// Results maps task types to terminal schemas per
	// task_result_resolution: every tool's response schema, then the
	// overrides. Sorted by task type; empty when the manifest has no
	// task_result_resolution.
	Results []ManifestResult
	// ResultDiscriminator is the webhook payload member naming the task
	// type (task_result_resolution.discriminator_field).
	ResultDiscriminator string
}

// ManifestTool is one entry of the manifest's tools.
type ManifestTool struct {
	Name                string
	Protocol            string
	Mutating            bool
	IdempotencyRequired bool
	Deprecated          bool
	RequestSchema       string
	ResponseSchema      string
	// AsyncSchemas are the async_response_schemas, in manifest order.
	AsyncSchemas []string
	// Summary is the tool's one-line description ("" when absent).
	Summary string
}

// ManifestResult is one task type's terminal schema.
type ManifestResult struct {
	TaskType string
	Schema   string
}

// LoadManifest reads the manifest at the root of fsys (a schema tree).
// source names the tree in messages. A tree without one is an error
// wrapping ErrNoManifest.
func LoadManifest(fsys fs.FS, source string) (*Manifest, error) {
	data, err := fs.ReadFile(fsys, ManifestName)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", source, ErrNoManifest)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: reading %s: %w", source, ManifestName, err)
	}
	return ParseManifest(data, source+"/"+ManifestName)
}

type rawManifest struct {
	Version string                     `json:"adcp_version"`
	Tools   map[string]json.RawMessage `json:"tools"`
	Codes   map[string]json.RawMessage `json:"error_codes"`
	Policy  *struct {
		Unknown *string `json:"default_unknown_recovery"`
	} `json:"error_code_policy"`
	Resolution *struct {
		Discriminator string            `json:"discriminator_field"`
		Template      string            `json:"terminal_schema_pointer_template"`
		Overrides     map[string]string `json:"terminal_schema_overrides"`
	} `json:"task_result_resolution"`
}

type rawTool struct {
	Protocol     string   `json:"protocol"`
	Mutating     bool     `json:"mutating"`
	Idempotency  string   `json:"idempotency_requirement"`
	Request      string   `json:"request_schema"`
	Response     string   `json:"response_schema"`
	Async        []string `json:"async_response_schemas"`
	Deprecated   bool     `json:"deprecated"`
	DeprecatedIn string   `json:"deprecated_in"`
	Summary      string   `json:"summary"`
}

type rawCode struct {
	Recovery    *string `json:"recovery"`
	Description string  `json:"description"`
	Deprecated  bool    `json:"deprecated"`
}

// ParseManifest parses manifest bytes. name names the file in messages;
// errors carry a JSON pointer.
func ParseManifest(data []byte, name string) (*Manifest, error) {
	var raw rawManifest
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	m := &Manifest{Version: raw.Version}
	for _, tn := range sortedKeys(raw.Tools) {
		ptr := "/tools" + wire.PointerToken(tn)
		var t rawTool
		if err := json.Unmarshal(raw.Tools[tn], &t); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", name, ptr, err)
		}
		if t.Request == "" || t.Response == "" {
			return nil, fmt.Errorf("%s: %s: want request_schema and response_schema", name, ptr)
		}
		m.Tools = append(m.Tools, ManifestTool{
			Name: tn, Protocol: t.Protocol, Mutating: t.Mutating,
			IdempotencyRequired: t.Idempotency == "required",
			Deprecated:          t.Deprecated || t.DeprecatedIn != "",
			RequestSchema:       t.Request, ResponseSchema: t.Response,
			AsyncSchemas: append([]string(nil), t.Async...),
			Summary:      t.Summary,
		})
	}
	if raw.Codes == nil {
		return nil, fmt.Errorf("%s: /error_codes: want an object of error codes", name)
	}
	for _, code := range sortedKeys(raw.Codes) {
		ptr := "/error_codes" + wire.PointerToken(code)
		if code == "" {
			return nil, fmt.Errorf("%s: /error_codes: empty error code", name)
		}
		var c rawCode
		if err := json.Unmarshal(raw.Codes[code], &c); err != nil {
			return nil, fmt.Errorf("%s: %s: want an object with a recovery: %w", name, ptr, err)
		}
		if c.Recovery == nil {
			return nil, fmt.Errorf("%s: %s/recovery: want a string", name, ptr)
		}
		if !Recovery(*c.Recovery).Valid() {
			return nil, fmt.Errorf("%s: %s/recovery: %q is not transient, correctable or terminal", name, ptr, *c.Recovery)
		}
		m.Codes = append(m.Codes, ErrorCode{Code: code, Recovery: Recovery(*c.Recovery), Description: c.Description,
			Deprecated: c.Deprecated || strings.HasPrefix(c.Description, "**Deprecated**")})
	}
	if raw.Policy != nil && raw.Policy.Unknown != nil {
		if r := Recovery(*raw.Policy.Unknown); !r.Valid() {
			return nil, fmt.Errorf("%s: /error_code_policy/default_unknown_recovery: %q is not transient, correctable or terminal", name, *raw.Policy.Unknown)
		}
		m.UnknownRecovery = Recovery(*raw.Policy.Unknown)
	}
	if res := raw.Resolution; res != nil {
		if res.Template != "" && res.Template != "/tools/{task_type}/response_schema" {
			return nil, fmt.Errorf("%s: /task_result_resolution/terminal_schema_pointer_template: %q is not the one template this parser knows", name, res.Template)
		}
		m.ResultDiscriminator = res.Discriminator
		byType := map[string]string{}
		for _, t := range m.Tools {
			byType[t.Name] = t.ResponseSchema
		}
		for tt, s := range res.Overrides {
			byType[tt] = s
		}
		for _, tt := range sortedKeys(byType) {
			m.Results = append(m.Results, ManifestResult{TaskType: tt, Schema: byType[tt]})
		}
	}
	return m, nil
}

// CodeTable returns the manifest's codes as a table.
func (m *Manifest) CodeTable() ErrorCodes { return append(ErrorCodes(nil), m.Codes...) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
