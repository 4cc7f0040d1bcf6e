// Package templates embeds the text templates for the fixed, human-facing
// files adcpgen writes (the generated package's doc.go, the coverage
// report). Go types themselves are built with jennifer, not templates.
package templates

import (
	"bytes"
	"embed"
	"fmt"
	"strings"
	"text/template"

	"github.com/adcpgen/adcpgen/internal/gocomment"
)

//go:embed *.tmpl
var files embed.FS

var parsed = template.Must(template.New("").Funcs(template.FuncMap{
	"comment": comment,
}).ParseFS(files, "*.tmpl"))

// Render executes the named template with data.
func Render(name string, data any) ([]byte, error) {
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
