package sellertask

import (
	"context"
	"errors"

	"github.com/adcpgen/adcpgen/runtime/observe"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
)

// observedStore reports each call of the task store to an Observer as a
// CallStore operation. Methods a store adds beyond TaskStore pass through
// unobserved.
type observedStore struct {
	sellerstore.TaskStore
	obs observe.Observer
}

func (s observedStore) call(ctx context.Context, name string) (context.Context, *observe.Op, func()) {
	op := &observe.Op{Kind: observe.CallStore, Operation: name}
	ctx, end := s.obs.Start(ctx, op)
	return ctx, op, end
}

func (s observedStore) CreateTask(ctx context.Context, t sellerstore.Task) (sellerstore.Task, error) {
	ctx, op, end := s.call(ctx, "create_task")
	out, err := s.TaskStore.CreateTask(ctx, t)
	op.Err = err
	end()
	return out, err
}

func (s observedStore) GetTask(ctx context.Context, principal, id string) (sellerstore.Task, error) {
	ctx, op, end := s.call(ctx, "get_task")
	out, err := s.TaskStore.GetTask(ctx, principal, id)
	op.Err = storeErr(err)
	end()
	return out, err
}

func (s observedStore) UpdateTask(ctx context.Context, principal, id string, u sellerstore.TaskUpdate) (sellerstore.Task, error) {
	ctx, op, end := s.call(ctx, "update_task")
	out, err := s.TaskStore.UpdateTask(ctx, principal, id, u)
	op.Err = err
	end()
	return out, err
}

func (s observedStore) ListTasks(ctx context.Context, principal string, q sellerstore.TaskQuery) (sellerstore.TaskPage, error) {
	ctx, op, end := s.call(ctx, "list_tasks")
	out, err := s.TaskStore.ListTasks(ctx, principal, q)
	op.Err = err
	end()
	return out, err
}

// storeErr is a read's error as a store failure: a task that is not found
// is an answer, not a failure of the store.
func storeErr(err error) error {
	if errors.Is(err, sellerstore.ErrNotFound) {
		return nil
	}
	return err
}
