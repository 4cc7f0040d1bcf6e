package testcontroller

import (
	"context"
	"errors"

	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// TaskCompletion is the force_task_completion hook every seller with async
// tasks can register: it records params.result as the final answer of the
// caller's task params.task_id (seller.Server.CompleteTask on srv, the
// server whose handlers start the tasks: with Bridge, the handlers'
// release's), so the task's status reads and its webhook carry it as the
// buyer sent it. AdCP asks for INVALID_PARAMS when the result does not
// match the task's response (its release's schema), NOT_FOUND for a task
// that is not the caller's, INVALID_TRANSITION for one that ended.
func TaskCompletion(srv *seller.Server) Hook {
	return func(ctx context.Context, r *ScenarioRequest) (Success, error) {
		id, _ := wire.Lenient(r.Params.Raw).Get("task_id").AsString()
		result := wire.Lenient(r.Params.Raw).Get("result")
		switch {
		case id == "":
			return nil, InvalidParams("force_task_completion needs params.task_id")
		case !result.IsObject():
			return nil, InvalidParams("force_task_completion needs params.result, the task's completed response")
		}
		prev, err := srv.CompleteTask(ctx, r.Call.Principal.ID, id, result.Raw(), "")
		var re *seller.ResponseError
		switch {
		case errors.Is(err, seller.ErrTaskNotFound):
			return nil, NotFound("task " + untrusted.SanitizeTruncate(id, 64) + " not found")
		case errors.Is(err, seller.ErrTaskEnded):
			return nil, InvalidTransition(string(prev), "task "+untrusted.SanitizeTruncate(id, 64)+" is "+string(prev)+" already")
		case errors.As(err, &re):
			return nil, InvalidParams(untrusted.SanitizeTruncate("params.result does not match the task's response: "+re.Error(), 512))
		case err != nil:
			return nil, err
		}
		return Transition{Previous: string(prev), Current: "completed", Message: "Task " + id + " completed."}, nil
	}
}
