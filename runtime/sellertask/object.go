package sellertask

import "github.com/adcpgen/adcpgen/runtime/wire"

// objectWriter writes a JSON object member by member.
type objectWriter struct{ buf []byte }

func (o *objectWriter) key(k string) {
	if len(o.buf) == 0 {
		o.buf = append(o.buf, '{')
	} else {
		o.buf = append(o.buf, ',')
	}
	o.buf = wire.AppendQuoted(o.buf, k)
	o.buf = append(o.buf, ':')
}

func (o *objectWriter) str(k, v string) {
	o.key(k)
	o.buf = wire.AppendQuoted(o.buf, v)
}

// raw writes v, JSON text, as it is.
func (o *objectWriter) raw(k string, v []byte) {
	o.key(k)
	o.buf = append(o.buf, v...)
}

func (o *objectWriter) close() []byte {
	if len(o.buf) == 0 {
		return []byte("{}")
	}
	return append(o.buf, '}')
}
