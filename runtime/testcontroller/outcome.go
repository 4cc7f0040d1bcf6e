package testcontroller

import (
	"encoding/json"
	"fmt"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Success is what a hook achieved: Transition, Simulation, Directive,
// Seeded, or Raw for a success arm this package does not model.
type Success interface {
	// encode writes the response object.
	encode(e *wire.Encoder) error
}

// Transition is a force_* scenario that moved an entity from Previous to
// Current (StateTransitionSuccess).
type Transition struct {
	Previous, Current string
	Message           string
}

// Simulation is a simulate_* scenario's result (SimulationSuccess):
// Simulated, a JSON object, holds the values this call applied,
// Cumulative (simulate_delivery; nil to leave it out) the running totals.
type Simulation struct {
	Simulated  json.RawMessage
	Cumulative json.RawMessage
	Message    string
}

// Directive is a directive registered for the caller's next call
// (ForcedDirectiveSuccess): the arm it will get, and for the submitted
// arm the task id it will carry.
type Directive struct {
	Arm     string
	TaskID  string
	Message string
}

// Seeded is a seed_* scenario that pre-populated a fixture (SeedSuccess).
type Seeded struct {
	Message string
}

// Raw is a success response given whole: a JSON object with "success":
// true, for the arms later versions add (UpstreamTrafficSuccess, ...).
type Raw json.RawMessage

func (t Transition) encode(e *wire.Encoder) error {
	e.Key("success")
	e.Bool(true)
	e.Key("previous_state")
	e.String(t.Previous)
	e.Key("current_state")
	e.String(t.Current)
	message(e, t.Message)
	return nil
}

func (s Simulation) encode(e *wire.Encoder) error {
	e.Key("success")
	e.Bool(true)
	if err := object(e, "simulated", s.Simulated, true); err != nil {
		return err
	}
	if err := object(e, "cumulative", s.Cumulative, false); err != nil {
		return err
	}
	message(e, s.Message)
	return nil
}

func (d Directive) encode(e *wire.Encoder) error {
	e.Key("success")
	e.Bool(true)
	e.Key("forced")
	e.ObjectStart()
	e.Key("arm")
	e.String(d.Arm)
	if d.TaskID != "" {
		e.Key("task_id")
		e.String(d.TaskID)
	}
	e.ObjectEnd()
	message(e, d.Message)
	return nil
}

func (s Seeded) encode(e *wire.Encoder) error {
	e.Key("success")
	e.Bool(true)
	message(e, s.Message)
	return nil
}

func (r Raw) encode(e *wire.Encoder) error {
	v, err := wire.ParseLenient(r)
	if err != nil || !v.IsObject() {
		return fmt.Errorf("raw outcome: not a JSON object")
	}
	if !v.Get("success").Truthy() {
		return fmt.Errorf(`raw outcome: no "success": true`)
	}
	v.Members(func(k, val wire.Lenient) bool {
		name, _ := k.AsString()
		e.Key(name)
		e.Raw(val.Raw())
		return true
	})
	return nil
}

func message(e *wire.Encoder, m string) {
	if m != "" {
		e.Key("message")
		e.String(m)
	}
}

// object writes the member name with the JSON object v; a nil v is left
// out unless required.
func object(e *wire.Encoder, name string, v json.RawMessage, required bool) error {
	if v == nil && !required {
		return nil
	}
	if v == nil {
		v = json.RawMessage("{}")
	}
	l, err := wire.ParseLenient(v)
	if err != nil || !l.IsObject() {
		return fmt.Errorf("%s: not a JSON object", name)
	}
	e.Key(name)
	e.Raw(l.Raw())
	return nil
}

// ScenarioErrorCode is a ControllerError's error: why a scenario could not run.
type ScenarioErrorCode string

// The error codes of ControllerError (AdCP 3.0; 3.1 adds
// JCS_NON_FINITE_NUMBER).
const (
	InvalidTransitionCode ScenarioErrorCode = "INVALID_TRANSITION"
	InvalidStateCode      ScenarioErrorCode = "INVALID_STATE"
	NotFoundCode          ScenarioErrorCode = "NOT_FOUND"
	UnknownScenarioCode   ScenarioErrorCode = "UNKNOWN_SCENARIO"
	InvalidParamsCode     ScenarioErrorCode = "INVALID_PARAMS"
	ForbiddenCode         ScenarioErrorCode = "FORBIDDEN"
	InternalErrorCode     ScenarioErrorCode = "INTERNAL_ERROR"
)

// ScenarioError is a scenario that could not run, answered as ControllerError
// ({"success": false, "error": Code, "error_detail": Detail,
// "current_state": ...}). Hooks return it (errors.As finds it wrapped).
type ScenarioError struct {
	Code   ScenarioErrorCode
	Detail string
	// CurrentState is the entity's state; "" leaves it out unless
	// NullState is set.
	CurrentState string
	// NullState sends "current_state": null: the entity does not exist.
	NullState bool
}

func (e *ScenarioError) Error() string {
	if e.Detail == "" {
		return string(e.Code)
	}
	return string(e.Code) + ": " + e.Detail
}

// NotFound is NOT_FOUND for an entity that does not exist (current_state
// null).
func NotFound(detail string) *ScenarioError {
	return &ScenarioError{Code: NotFoundCode, Detail: detail, NullState: true}
}

// InvalidTransition is INVALID_TRANSITION from the entity's current state.
func InvalidTransition(current, detail string) *ScenarioError {
	return &ScenarioError{Code: InvalidTransitionCode, Detail: detail, CurrentState: current}
}

// InvalidState is INVALID_STATE: the scenario cannot run in the entity's
// current state.
func InvalidState(current, detail string) *ScenarioError {
	return &ScenarioError{Code: InvalidStateCode, Detail: detail, CurrentState: current}
}

// InvalidParams is INVALID_PARAMS: the parameters cannot be used.
func InvalidParams(detail string) *ScenarioError {
	return &ScenarioError{Code: InvalidParamsCode, Detail: detail}
}

func (e *ScenarioError) encode(w *wire.Encoder) error {
	w.Key("success")
	w.Bool(false)
	w.Key("error")
	w.String(string(e.Code))
	if e.Detail != "" {
		w.Key("error_detail")
		w.String(e.Detail)
	}
	switch {
	case e.NullState:
		w.Key("current_state")
		w.Null()
	case e.CurrentState != "":
		w.Key("current_state")
		w.String(e.CurrentState)
	}
	return nil
}
