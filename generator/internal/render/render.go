// Package render executes the text templates of the top-level templates
// directory (the generated package's doc.go, the coverage report).
package render

import (
	"bytes"
	"fmt"
	"strings"
	"text/template"

	"github.com/adcpgen/adcpgen/internal/gocomment"
	"github.com/adcpgen/adcpgen/templates"
)

var parsed = template.Must(template.New("").Funcs(template.FuncMap{
	"comment": comment,
}).ParseFS(templates.FS, "*.tmpl"))

// Template executes the named template with data.
func Template(name string, data any) ([]byte, error) {
	var buf bytes.Buffer
	if err := parsed.ExecuteTemplate(&buf, name, data); err != nil {
		return nil, fmt.Errorf("template %s: %w", name, err)
	}
	return buf.Bytes(), nil
}

// comment renders text as // comment lines, each cleaned as the
// generator cleans schema text (gocomment.Line), so nothing can end the
// comment early.
func comment(text string) string {
	var b strings.Builder
	for i, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		line = gocomment.Line(line)
		if strings.TrimSpace(line) == "" {
			b.WriteString("//")
		} else {
			b.WriteString("// " + line)
		}
	}
	return b.String()
}
