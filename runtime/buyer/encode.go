package buyer

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// encodeRequest runs a request's strict encoder. When it fails, the error
// names the field: the JSON pointer of the first value no JSON can hold (a
// NaN or infinite number, raw JSON that is not strict JSON), found by
// walking the value, since the encoder reports what failed but not where.
func encodeRequest(tool string, req wire.Encodable) ([]byte, error) {
	args, err := wire.Marshal(req)
	if err == nil {
		return args, nil
	}
	if ptr, ok := unencodable(reflect.ValueOf(req), ""); ok {
		return nil, fmt.Errorf("buyer: %s: encoding the request at %s: %w", tool, ptr, err)
	}
	return nil, fmt.Errorf("buyer: %s: encoding the request: %w", tool, err)
}

var rawType = reflect.TypeFor[json.RawMessage]()

// unencodable finds the first value under v that JSON cannot hold, by the
// JSON names of generated fields; fields without a JSON name (a union's
// arms, a Nullable's value) add no step.
func unencodable(v reflect.Value, ptr string) (string, bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return "", false
		}
		return unencodable(v.Elem(), ptr)
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		return ptr, math.IsNaN(f) || math.IsInf(f, 0)
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			next := ptr
			if name != "" {
				next += "/" + escapeToken(name)
			}
			if p, ok := unencodable(v.Field(i), next); ok {
				return p, true
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Type() == rawType {
			if v.Len() == 0 {
				return "", false
			}
			if err := wire.Valid(v.Bytes()); err != nil {
				var de *wire.DecodeError
				if errors.As(err, &de) {
					return ptr + de.Pointer, true
				}
				return ptr, true
			}
			return "", false
		}
		for i := range v.Len() {
			if p, ok := unencodable(v.Index(i), ptr+"/"+strconv.Itoa(i)); ok {
				return p, true
			}
		}
	case reflect.Map:
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		for _, k := range keys {
			if p, ok := unencodable(v.MapIndex(k), ptr+"/"+escapeToken(k.String())); ok {
				return p, true
			}
		}
	}
	return "", false
}

// escapeToken escapes a JSON pointer reference token (RFC 6901).
func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
