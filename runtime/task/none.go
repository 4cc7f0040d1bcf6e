package task

// None is the payload type of an interim status for which the spec gives a
// tool no schema. A Result's field of type *None is always nil; the status,
// task id and message are still reported.
type None struct{}
