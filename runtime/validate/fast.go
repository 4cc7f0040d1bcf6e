package validate

import (
	"errors"
	"fmt"
)

// The fast path: each root schema is compiled into a program (see
// fast_program.go) that runs over the payload's tape (fast_tape.go), with
// no decoded tree. It gives the reference validator's issues: on a
// failure it re-runs in collect mode and builds the same error tree,
// which issuesFrom flattens as for the reference. What it cannot decide
// the same way (a duplicate key, a loop of in-place references) goes to
// the reference.

// compileProgram compiles the fast program for a location key. Called
// under v.mu. A failure is not an error for the caller: the schema then
// validates with the reference only.
func (v *Validator) compileProgram(key string) (n *snode, err error) {
	defer func() {
		if r := recover(); r != nil {
			n, err = nil, fmt.Errorf("fast compiler panicked: %v", r)
		}
		if err != nil {
			v.programs = newProgramCompiler(v) // drop half-built nodes
		}
	}()
	return v.programs.compile(key)
}

// FastPath reports whether the schema validates on the fast path, and if
// not, why.
func (s *Schema) FastPath() (bool, error) {
	if s.v.reference {
		return false, fmt.Errorf("the validator was built with Options.Reference")
	}
	return s.prog != nil, s.fastErr
}

func (v *Validator) getEvaluator() *evaluator {
	if e, ok := v.evals.Get().(*evaluator); ok {
		return e
	}
	return &evaluator{}
}

// validateFast validates on the fast path; decided is false when the
// reference must answer instead.
func (s *Schema) validateFast(payload []byte) (issues []Issue, err error, decided bool) {
	e := s.v.getEvaluator()
	defer func() {
		if r := recover(); r != nil {
			issues, err, decided = nil, nil, false // the reference answers
		}
		if cap(e.tape) <= 1<<16 { // keep pooled tapes modest
			s.v.evals.Put(e)
		}
	}()
	tape, perr := parseTape(payload, s.v.limits, e.tape)
	e.tape = tape
	if errors.Is(perr, errTapeTooLarge) {
		return nil, nil, false
	}
	if perr != nil {
		// Report it exactly as the reference path does.
		if _, err := decodePayload(payload, s.v.limits); err != nil {
			return nil, err, true
		}
		return nil, nil, false
	}
	e.reset(payload, tape)
	ok, _ := e.eval(s.prog, 0, false)
	if e.fallback {
		return nil, nil, false
	}
	if ok {
		return nil, nil, true
	}
	e.reset(payload, tape)
	ok, verr := e.eval(s.prog, 0, true)
	if e.fallback || ok || verr == nil {
		return nil, nil, false
	}
	top := &vErr{AbsoluteKeywordLocation: s.prog.loc, Message: "doesn't validate with " + s.prog.loc}
	return s.v.issuesFrom(causesOf(top, verr)), nil, true
}
