package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// newFlagSet returns a flag set that reports errors to the caller instead of
// printing them, with usage text that names the command.
func newFlagSet(name, synopsis, description string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	usage[fs] = usageText{synopsis: synopsis, description: description}
	return fs
}

type usageText struct{ synopsis, description string }

var usage = map[*flag.FlagSet]usageText{}

// printFlagUsage writes the command's help: synopsis, description, and every
// flag with its default.
func printFlagUsage(w io.Writer, fs *flag.FlagSet) {
	u := usage[fs]
	fmt.Fprintf(w, "Usage:\n  %s\n\n%s\n\nFlags:\n", u.synopsis, strings.TrimSpace(u.description))
	fs.VisitAll(func(f *flag.Flag) {
		name, help := flag.UnquoteUsage(f)
		dash := "--"
		if name != "" {
			fmt.Fprintf(w, "  %s%s %s\n", dash, f.Name, name)
		} else {
			fmt.Fprintf(w, "  %s%s\n", dash, f.Name)
		}
		fmt.Fprintf(w, "      %s", strings.ReplaceAll(help, "\n", "\n      "))
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "[]" {
			fmt.Fprintf(w, " (default %s)", f.DefValue)
		}
		fmt.Fprintln(w)
	})
}

// parseArgs parses flags that may appear before, between or after positional
// arguments. It returns the positional arguments, or done=true with the exit
// code when the command must stop (help printed, or a usage error).
func parseArgs(e *env, cmd string, fs *flag.FlagSet, args []string) (positional []string, done bool, code int) {
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			printFlagUsage(e.stdout, fs)
			return nil, true, exitOK
		}
		if err != nil {
			return nil, true, usageError(e, cmd, "%v", err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, false, 0
		}
		if rest[0] == "--" {
			return append(positional, rest[1:]...), false, 0
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }
