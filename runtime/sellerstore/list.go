package sellerstore

import (
	"encoding/base64"
	"fmt"
	"github.com/adcpgen/adcpgen/runtime/internal/storekit"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/adcpgen/adcpgen/runtime/task"
)

// Page sizes of ListTasks.
const (
	DefaultPageSize = 50
	MaxPageSize     = 1000
)

// TaskQuery selects and pages the principal's tasks.
type TaskQuery struct {
	// Statuses keeps tasks in one of these statuses; empty keeps all.
	Statuses []task.Status
	// Tools keeps tasks of one of these tools (AdCP task_type); empty keeps
	// all.
	Tools []string
	// Limit is the page size: 0 means DefaultPageSize, more than
	// MaxPageSize means MaxPageSize.
	Limit int
	// Cursor continues after the page that returned it as TaskPage.Next.
	Cursor string
}

// TaskPage is one page of ListTasks. Next is empty on the last page.
type TaskPage struct {
	Tasks []Task
	Next  string
}

// PageSize is q's effective Limit.
func (q TaskQuery) PageSize() (int, error) {
	switch {
	case q.Limit < 0:
		return 0, fmt.Errorf("sellerstore: list tasks: negative limit %d: %w", q.Limit, ErrInvalid)
	case q.Limit == 0:
		return DefaultPageSize, nil
	case q.Limit > MaxPageSize:
		return MaxPageSize, nil
	}
	return q.Limit, nil
}

// Validate reports an unknown status, a negative limit or a malformed
// cursor.
func (q TaskQuery) Validate() error {
	for _, s := range q.Statuses {
		if !storekit.StorableStatus(s) {
			return fmt.Errorf("sellerstore: list tasks: unknown status %q: %w", s, ErrInvalid)
		}
	}
	for _, tool := range q.Tools {
		if err := storekit.CheckText("tool", tool, true); err != nil {
			return err
		}
	}
	if _, err := q.PageSize(); err != nil {
		return err
	}
	if q.Cursor != "" {
		if _, err := ParseTaskCursor(q.Cursor); err != nil {
			return err
		}
	}
	return nil
}

// Matches reports whether t passes q's filters (not its cursor).
func (q TaskQuery) Matches(t Task) bool {
	return (len(q.Statuses) == 0 || slices.Contains(q.Statuses, t.Status)) &&
		(len(q.Tools) == 0 || slices.Contains(q.Tools, t.Tool))
}

// TaskCursor is the position of the last task of a page: the next page
// holds the tasks after it in list order (created_at, then id, both
// descending).
type TaskCursor struct {
	CreatedAt time.Time
	ID        string
}

// CursorAfter is the cursor continuing after t.
func CursorAfter(t Task) TaskCursor { return TaskCursor{CreatedAt: t.CreatedAt, ID: t.ID} }

// String encodes c as an opaque URL-safe token. It carries only the
// principal's own task id and creation time, and a cursor forged from
// another principal's still lists the caller's own tasks.
func (c TaskCursor) String() string {
	raw := strconv.FormatInt(c.CreatedAt.UnixMicro(), 10) + "|" + c.ID
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

// Precedes reports whether c comes before t in list order, so t belongs
// to the pages after c.
func (c TaskCursor) Precedes(t Task) bool {
	created := t.CreatedAt.UnixMicro()
	at := c.CreatedAt.UnixMicro()
	return created < at || (created == at && t.ID < c.ID)
}

// ParseTaskCursor decodes TaskCursor.String.
func ParseTaskCursor(s string) (TaskCursor, error) {
	bad := func() (TaskCursor, error) {
		return TaskCursor{}, fmt.Errorf("sellerstore: list tasks: malformed cursor %q: %w", s, ErrInvalid)
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return bad()
	}
	micros, id, ok := strings.Cut(string(raw), "|")
	if !ok || storekit.CheckText("task id", id, true) != nil {
		return bad()
	}
	n, err := strconv.ParseInt(micros, 10, 64)
	if err != nil {
		return bad()
	}
	return TaskCursor{CreatedAt: time.UnixMicro(n).UTC(), ID: id}, nil
}
