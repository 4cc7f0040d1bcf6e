package seller

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/task"
)

// TaskManager keeps the async tasks of a server: the ones handlers start
// (StartTask) and report on through their TaskHandle. The default keeps
// them in memory (newMemoryTasks), for one replica; a store-backed one
// shared by replicas (runtime/sellertask's Manager on
// sellerstore/pgstore), with the status tools and webhook delivery, plugs
// in through Options.Tasks, and then a task belongs to the store, not to
// the process that started it: any replica reports on it (OpenTask).
type TaskManager interface {
	// Start creates a task, status submitted, for call (its tool,
	// principal and arguments, push_notification_config included) and
	// returns its id.
	Start(ctx context.Context, call *Call) (id string, err error)
	// Update records a task's next answer: progress (an interim status and
	// payload) or its final answer (a response or an AdCP error). A task
	// that is final takes no update: an error wrapping ErrTaskEnded.
	Update(ctx context.Context, ev TaskEvent) error
	// Get returns the task id of principal. A task of another principal is
	// reported exactly like a missing one: an error wrapping
	// ErrTaskNotFound.
	Get(ctx context.Context, principal, id string) (TaskSnapshot, error)
}

// What a TaskManager answers for a task it cannot do what was asked with.
var (
	// ErrTaskNotFound is the one error for a task that does not exist or
	// is not the caller's.
	ErrTaskNotFound = errors.New("task not found")
	// ErrTaskEnded says a task is final already and takes no update:
	// another replica, or an earlier call, completed, failed or canceled
	// it.
	ErrTaskEnded = errors.New("task ended already")
	// ErrTaskIDTaken says a task id given to StartTaskWithID names a task
	// already.
	ErrTaskIDTaken = errors.New("task id already taken")
	// ErrTaskBusy says another worker holds the claim on a task's work
	// (WorkOnTask): the work is being done elsewhere, on another replica
	// or another goroutine.
	ErrTaskBusy = errors.New("task's work claimed by another worker")
)

// TaskIDStarter is a TaskManager that can start a task under an id the
// seller chose (StartTaskWithID). memoryTasks and runtime/sellertask's
// Manager are.
type TaskIDStarter interface {
	// StartWithID is Start with the task's id given: an id already taken,
	// by any principal, is an error wrapping ErrTaskIDTaken.
	StartWithID(ctx context.Context, call *Call, id string) error
}

// MaxTaskIDLength bounds a task id given to StartTaskWithID (AdCP's
// task_id schemas allow 128 characters).
const MaxTaskIDLength = 128

// TaskEvent is one update of a task.
type TaskEvent struct {
	ID        string
	Principal string
	Tool      string
	// Answer is the task's new state: Status, Message, and Body (encoded,
	// validated, the request's context echoed) or Error.
	Answer *Answer
}

// TaskSnapshot is what a TaskManager knows of a task.
type TaskSnapshot struct {
	ID        string
	Principal string
	Tool      string
	Status    task.Status
	CreatedAt time.Time
	UpdatedAt time.Time
	// Answer is the latest answer recorded (nil until the first Update):
	// the final response or error once Status is final.
	Answer *Answer
	// Request is the arguments of the call that started the task, as the
	// buyer sent them (nil when the manager keeps none).
	Request json.RawMessage
}

// startedTask is the task a call started.
type startedTask struct{ id string }

// TaskHandle reports on a task a handler started: progress, then the
// final typed response or an error. R, S, W and I are the tool's response
// and interim payload types. A handle outlives the call: keep it and
// report from another goroutine; every method takes its own context.
type TaskHandle[R, S, W, I any] struct {
	srv       *Server
	id        string
	principal string
	call      *Call // for the tool, the context echo and validation
}

// StartTask starts the task of the call ctx belongs to (the ctx a handler
// got) and returns its handle. The handler then answers with an interim
// Result (Status Submitted, say) with its typed payload; the Result's
// TaskID, and the payload's task_id and status where the version's schema
// has them (3.1 and later require task_id in a submitted payload), may be
// left empty: the server fills them from this task. Calling it
// again in the same call returns the same task. tool must be the called
// tool.
func StartTask[Q, R, S, W, I any](ctx context.Context, tool task.Tool[Q, R, S, W, I]) (*TaskHandle[R, S, W, I], error) {
	c := callFrom(ctx)
	if c == nil || c.srv == nil {
		return nil, errors.New("seller: StartTask outside a handler's call")
	}
	if c.Tool.Name != tool.Name() || tool.Version() != c.srv.spec.Version() {
		return nil, fmt.Errorf("seller: StartTask for %s %s in a call of %s", tool.Name(), tool.Version(), c.Tool.Name)
	}
	if c.started == nil {
		id, err := c.srv.tasks.Start(ctx, c)
		if err != nil {
			return nil, fmt.Errorf("seller: start task: %w", err)
		}
		c.started = &startedTask{id: id}
	}
	return &TaskHandle[R, S, W, I]{srv: c.srv, id: c.started.id, principal: c.Principal.ID, call: c}, nil
}

// StartTaskWithID is StartTask with the task's id chosen by the seller
// rather than made up: for an id a buyer fixed in advance, such as the
// task_id of a sandbox's force_create_media_buy_arm directive
// (comply_test_controller), which the next create_media_buy must answer
// with and tasks/get must then know. The server's TaskManager must be a
// TaskIDStarter. id is 1 to MaxTaskIDLength characters of valid UTF-8; an id
// already taken is an error wrapping ErrTaskIDTaken (whoever took it: task
// ids are one namespace, so let buyers choose ids only where that does not
// matter, as in a sandbox). Called again in the same call with the same
// id, it returns the same task.
func StartTaskWithID[Q, R, S, W, I any](ctx context.Context, tool task.Tool[Q, R, S, W, I], id string) (*TaskHandle[R, S, W, I], error) {
	c := callFrom(ctx)
	if c == nil || c.srv == nil {
		return nil, errors.New("seller: StartTaskWithID outside a handler's call")
	}
	if c.Tool.Name != tool.Name() || tool.Version() != c.srv.spec.Version() {
		return nil, fmt.Errorf("seller: StartTaskWithID for %s %s in a call of %s", tool.Name(), tool.Version(), c.Tool.Name)
	}
	if id == "" || len(id) > MaxTaskIDLength || !utf8.ValidString(id) || strings.ContainsRune(id, 0) {
		return nil, fmt.Errorf("seller: task id %q is not 1-%d characters of text", truncateName(id), MaxTaskIDLength)
	}
	switch {
	case c.started != nil && c.started.id != id:
		return nil, fmt.Errorf("seller: this call started task %s already", c.started.id)
	case c.started == nil:
		starter, ok := c.srv.tasks.(TaskIDStarter)
		if !ok {
			return nil, fmt.Errorf("seller: the TaskManager (%T) cannot start a task under a given id", c.srv.tasks)
		}
		if err := starter.StartWithID(ctx, c, id); err != nil {
			return nil, fmt.Errorf("seller: start task %s: %w", truncateName(id), err)
		}
		c.started = &startedTask{id: id}
	}
	return &TaskHandle[R, S, W, I]{srv: c.srv, id: id, principal: c.Principal.ID, call: c}, nil
}

// ID is the task's AdCP id.
func (t *TaskHandle[R, S, W, I]) ID() string { return t.id }

// Request is the arguments of the call that started the task, as the
// buyer sent them ({} when the TaskManager kept none).
func (t *TaskHandle[R, S, W, I]) Request() json.RawMessage { return t.call.Arguments }

// Working reports progress with the working payload (nil for none).
func (t *TaskHandle[R, S, W, I]) Working(ctx context.Context, payload *W, message string) error {
	return t.report(ctx, task.Working, payload, message)
}

// InputRequired reports that the task waits for the buyer, with the
// input-required payload (nil for none).
func (t *TaskHandle[R, S, W, I]) InputRequired(ctx context.Context, payload *I, message string) error {
	return t.report(ctx, task.InputRequired, payload, message)
}

// Complete records the task's final response. A response that fails the
// response schema (when the server validates responses) is not recorded:
// Complete returns a *ResponseError and the task stays open, so the seller
// can Fail it.
func (t *TaskHandle[R, S, W, I]) Complete(ctx context.Context, resp *R, message string) error {
	if resp == nil {
		return errors.New("seller: Complete with a nil response")
	}
	return t.report(ctx, task.Completed, resp, message)
}

// Fail records the task's failure: err as Handle treats a handler's error
// (an *adcperr.Error is sent as it is; anything else is logged and
// becomes a transient SERVICE_UNAVAILABLE).
func (t *TaskHandle[R, S, W, I]) Fail(ctx context.Context, err error) error {
	if err == nil {
		return errors.New("seller: Fail with a nil error")
	}
	a := t.srv.finish(t.call, t.srv.errorAnswer(ctx, t.call, err))
	a.TaskID = t.id
	return t.srv.tasks.Update(ctx, TaskEvent{ID: t.id, Principal: t.principal, Tool: t.call.Tool.Name, Answer: a})
}

func (t *TaskHandle[R, S, W, I]) report(ctx context.Context, status task.Status, payload any, message string) error {
	contextID := t.call.echoedContextID()
	v := envelopeValues{status: string(status), taskID: t.id, message: message, contextID: contextID, version: t.call.Release}
	body, _, _, err := t.srv.encodePayload(t.call, v, payload)
	if err != nil {
		var re *ResponseError
		var ee *EnvelopeError
		switch {
		case errors.As(err, &re):
			t.srv.log.ErrorContext(ctx, "adcp: task payload not sent", "tool", re.Tool, "task", t.id, "status", string(status), "err", re.Error())
			return re
		case errors.As(err, &ee):
			t.srv.log.ErrorContext(ctx, "adcp: task payload not sent", "tool", ee.Tool, "task", t.id, "status", string(status), "err", ee.Error())
			return ee
		}
		return fmt.Errorf("seller: task %s: %w", t.id, err)
	}
	a := &Answer{Status: status, TaskID: t.id, Message: message, ContextID: contextID, Body: body, Context: t.call.Context(), Release: t.call.Release, echoed: t.call}
	return t.srv.tasks.Update(ctx, TaskEvent{ID: t.id, Principal: t.principal, Tool: t.call.Tool.Name, Answer: a})
}

// TaskAnswer is the answer a task stands at, as a status read reports it:
// the latest answer recorded, with the task's id, or before the first
// update the task's status alone, with the envelope's members its tool's
// schema has for it (a submitted payload's status and task_id).
func (s *Server) TaskAnswer(t TaskSnapshot) *Answer {
	if t.Answer != nil {
		cp := *t.Answer
		cp.TaskID = t.ID
		return &cp
	}
	tool, _ := s.spec.Tool(t.Tool)
	v := envelopeValues{status: string(t.Status), taskID: t.ID}
	body, _, err := fillEnvelope(t.Tool, []byte("{}"), tool.EnvelopeFor(string(t.Status)), v, false, nil)
	if err != nil { // unreachable: {} is an object
		body = []byte("{}")
	}
	return &Answer{Status: t.Status, TaskID: t.ID, Body: body}
}

// memoryTaskRetention is how long memoryTasks keeps a task after its final
// update; a buyer polling later is told the task does not exist.
const memoryTaskRetention = 24 * time.Hour

// memoryTaskSweep is how often, at most, Start looks for tasks past
// memoryTaskRetention: a sweep costs one pass over every task.
const memoryTaskSweep = time.Minute

// memoryTasks is the in-memory TaskManager: one replica's tasks, lost on
// restart, each kept until memoryTaskRetention after it ends (open tasks
// stay). It is safe for concurrent use.
type memoryTasks struct {
	now   func() time.Time
	mu    sync.Mutex
	tasks map[string]*TaskSnapshot
	busy  map[string]bool // tasks whose work a worker holds (Work)
	swept time.Time       // the last sweep for ended tasks
}

// newMemoryTasks returns an empty memoryTasks reading time from now (nil:
// time.Now).
func newMemoryTasks(now func() time.Time) *memoryTasks {
	if now == nil {
		now = time.Now
	}
	return &memoryTasks{now: now, tasks: map[string]*TaskSnapshot{}, busy: map[string]bool{}}
}

// workingOn marks a context whose goroutine holds a task's work.
type workingOn struct{}

// Work implements TaskWorker: one goroutine at a time per task.
func (m *memoryTasks) Work(ctx context.Context, principal, id string, fn func(ctx context.Context) error) error {
	if w, ok := ctx.Value(workingOn{}).(string); ok && w == id {
		return fn(ctx)
	}
	m.mu.Lock()
	t, ok := m.tasks[id]
	switch {
	case !ok || t.Principal != principal:
		m.mu.Unlock()
		return fmt.Errorf("seller: task %q: %w", id, ErrTaskNotFound)
	case t.Status.Final():
		m.mu.Unlock()
		return fmt.Errorf("seller: task %q is %s: %w", id, t.Status, ErrTaskEnded)
	case m.busy[id]:
		m.mu.Unlock()
		return fmt.Errorf("seller: task %q: %w", id, ErrTaskBusy)
	}
	m.busy[id] = true
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		delete(m.busy, id)
		m.mu.Unlock()
	}()
	return fn(context.WithValue(ctx, workingOn{}, id))
}

// NewTaskID returns a random task id: "task_" and crypto/rand.Text (26
// base32 characters, 130 random bits).
func NewTaskID() string { return "task_" + rand.Text() }

// Start implements TaskManager.
func (m *memoryTasks) Start(ctx context.Context, c *Call) (string, error) {
	for {
		id := NewTaskID()
		if err := m.StartWithID(ctx, c, id); !errors.Is(err, ErrTaskIDTaken) {
			return id, err
		}
	}
}

// StartWithID implements TaskIDStarter.
func (m *memoryTasks) StartWithID(_ context.Context, c *Call, id string) error {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, taken := m.tasks[id]; taken {
		return fmt.Errorf("seller: task %q: %w", id, ErrTaskIDTaken)
	}
	m.sweep(now)
	m.tasks[id] = &TaskSnapshot{ID: id, Principal: c.Principal.ID, Tool: c.Tool.Name, Status: task.Submitted, CreatedAt: now, UpdatedAt: now,
		Request: bytes.Clone(c.Arguments)}
	return nil
}

// sweep drops tasks that ended more than memoryTaskRetention before now,
// at most once per memoryTaskSweep. m.mu is held.
func (m *memoryTasks) sweep(now time.Time) {
	if now.Sub(m.swept) < memoryTaskSweep {
		return
	}
	m.swept = now
	cutoff := now.Add(-memoryTaskRetention)
	for id, t := range m.tasks {
		if t.Status.Final() && t.UpdatedAt.Before(cutoff) {
			delete(m.tasks, id)
		}
	}
}

// Update implements TaskManager.
func (m *memoryTasks) Update(_ context.Context, ev TaskEvent) error {
	if ev.Answer == nil {
		return errors.New("seller: task update without an answer")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tasks[ev.ID]
	if !ok || t.Principal != ev.Principal {
		return fmt.Errorf("seller: task %q: %w", ev.ID, ErrTaskNotFound)
	}
	if t.Status.Final() {
		return fmt.Errorf("seller: task %q is %s: %w", ev.ID, t.Status, ErrTaskEnded)
	}
	a := *ev.Answer
	a.echoed = nil // keep the answer, not the call it came from
	t.Status, t.Answer, t.UpdatedAt = a.Status, &a, m.now()
	return nil
}

// Get implements TaskManager.
func (m *memoryTasks) Get(_ context.Context, principal, id string) (TaskSnapshot, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tasks[id]
	if !ok || t.Principal != principal {
		return TaskSnapshot{}, fmt.Errorf("seller: task %q: %w", id, ErrTaskNotFound)
	}
	return *t, nil
}

// TaskNotFound is the AdCP error for a task that does not exist or is not
// the caller's (the same either way).
func (s *Server) TaskNotFound(id string) *adcperr.Error {
	return s.newError(s.pickCode("TASK_NOT_FOUND", "REFERENCE_NOT_FOUND", "INVALID_REQUEST"), "No such task: "+truncateName(id))
}
