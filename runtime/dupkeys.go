package runtime

import (
	"errors"
	"strconv"
	"strings"
)

// DuplicateKeyError is an object key that occurs twice in one object,
// compared after unescaping.
type DuplicateKeyError struct {
	Key     string
	Pointer string // RFC 6901 pointer to the object holding the key
	Offset  int    // byte offset of the second occurrence
}

func (e *DuplicateKeyError) Error() string {
	ptr := e.Pointer
	if ptr == "" {
		ptr = "(root)"
	}
	return "duplicate key " + strconv.Quote(SanitizeTruncate(e.Key, 64)) + " in the object at " + ptr +
		" (byte " + strconv.Itoa(e.Offset) + ")"
}

// errNotJSONBody stops the duplicate-key walk on bytes that are not JSON.
var errNotJSONBody = errors.New("not JSON")

// checkDuplicateKeys reports the first duplicate object key at any depth,
// arrays included. It reads strings leniently (raw control characters are
// accepted, as bodies on the wire may hold them); a body that is not JSON at
// all has no keys to duplicate and passes.
func checkDuplicateKeys(b []byte) error {
	w := dupWalker{b: b}
	i := skipSpace(b, 0)
	if i == len(b) {
		return nil
	}
	_, err := w.value(i, 0)
	if errors.Is(err, errNotJSONBody) {
		return nil
	}
	return err
}

type dupWalker struct {
	b    []byte
	path []string
}

func (w *dupWalker) value(i, depth int) (int, error) {
	b := w.b
	if i >= len(b) || depth > maxJSONDepth {
		return i, errNotJSONBody
	}
	switch c := b[i]; {
	case c == '{':
		return w.object(i, depth+1)
	case c == '[':
		return w.array(i, depth+1)
	case c == '"':
		return w.str(i)
	default:
		j := i
		for j < len(b) && !isSpace(b[j]) && b[j] != ',' && b[j] != '}' && b[j] != ']' {
			j++
		}
		if j == i {
			return i, errNotJSONBody
		}
		return j, nil
	}
}

// str skips a string, accepting any byte but an unescaped quote.
func (w *dupWalker) str(i int) (int, error) {
	b := w.b
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, nil
		}
	}
	return i, errNotJSONBody
}

func (w *dupWalker) object(i, depth int) (int, error) {
	b := w.b
	var few [8]string
	keys := few[:0]
	var set map[string]struct{}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return i, errNotJSONBody
		}
		end, err := w.str(i)
		if err != nil {
			return i, err
		}
		key := string(decodeString(nil, b[i:end]))
		dup := false
		if set != nil {
			_, dup = set[key]
			set[key] = struct{}{}
		} else {
			for _, k := range keys {
				if k == key {
					dup = true
					break
				}
			}
			keys = append(keys, key)
			if len(keys) > 16 {
				set = make(map[string]struct{}, 32)
				for _, k := range keys {
					set[k] = struct{}{}
				}
			}
		}
		if dup {
			return i, &DuplicateKeyError{Key: key, Pointer: w.pointer(), Offset: i}
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return i, errNotJSONBody
		}
		w.path = append(w.path, key)
		i, err = w.value(skipSpace(b, i+1), depth)
		w.path = w.path[:len(w.path)-1]
		if err != nil {
			return i, err
		}
		i = skipSpace(b, i)
		switch {
		case i < len(b) && b[i] == ',':
			i = skipSpace(b, i+1)
		case i < len(b) && b[i] == '}':
			return i + 1, nil
		default:
			return i, errNotJSONBody
		}
	}
}

func (w *dupWalker) array(i, depth int) (int, error) {
	b := w.b
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, nil
	}
	for n := 0; ; n++ {
		w.path = append(w.path, strconv.Itoa(n))
		var err error
		i, err = w.value(i, depth)
		w.path = w.path[:len(w.path)-1]
		if err != nil {
			return i, err
		}
		i = skipSpace(b, i)
		switch {
		case i < len(b) && b[i] == ',':
			i = skipSpace(b, i+1)
		case i < len(b) && b[i] == ']':
			return i + 1, nil
		default:
			return i, errNotJSONBody
		}
	}
}

func (w *dupWalker) pointer() string {
	var sb strings.Builder
	for _, t := range w.path {
		sb.WriteByte('/')
		sb.WriteString(pointerToken(t))
	}
	return sb.String()
}
