package main

import (
	"encoding/json"
	"fmt"
)

// callResult is what adcpgen call prints for an answer.
type callResult struct {
	Tool           string          `json:"tool"`
	Status         string          `json:"status"`
	TaskID         *string         `json:"task_id"`
	ContextID      *string         `json:"context_id"`
	Message        *string         `json:"message"`
	IdempotencyKey *string         `json:"idempotency_key"`
	Release        *string         `json:"adcp_version"`
	Data           json.RawMessage `json:"data"`
	Validation     *callValidation `json:"validation,omitempty"`
}

// callError is what adcpgen call prints for an AdCP error.
type callError struct {
	Tool       string          `json:"tool"`
	Error      json.RawMessage `json:"error"`
	Code       string          `json:"code"`
	Recovery   string          `json:"recovery"`
	Action     string          `json:"action"`
	RetryAfter *int64          `json:"retry_after"`
	Validation *callValidation `json:"validation,omitempty"`
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// writeJSON prints v indented, with seller bytes as sent (no HTML
// escaping; the payloads were checked strictly before).
func writeJSON(e *env, v any) error {
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(e.stderr, "adcpgen call: writing output: %v\n", err)
		return err
	}
	return nil
}
