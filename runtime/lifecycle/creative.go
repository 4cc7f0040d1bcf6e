package lifecycle

// Creative statuses (3.1 adds suspended).
const (
	CreativeProcessing    = "processing"
	CreativePendingReview = "pending_review"
	CreativeApproved      = "approved"
	CreativeSuspended     = "suspended"
	CreativeRejected      = "rejected"
	CreativeArchived      = "archived"
)

// CreativeStatuses are the creative statuses.
var CreativeStatuses = []string{CreativeProcessing, CreativePendingReview, CreativeApproved, CreativeSuspended, CreativeRejected, CreativeArchived}

// creativeMoves are the creative transitions: processing ends in review
// or rejection; review ends in approval or rejection; an approved creative
// may be archived or revoked (rejected), and from 3.1 re-reviewed or
// suspended; a suspended one restored or rejected; a rejected one
// resubmitted (back to processing or review); an archived one only
// unarchived (back to approved).
var creativeMoves = map[string][]string{
	CreativeProcessing:    {CreativePendingReview, CreativeRejected},
	CreativePendingReview: {CreativeApproved, CreativeRejected},
	CreativeApproved:      {CreativeArchived, CreativeRejected, CreativePendingReview, CreativeSuspended},
	CreativeSuspended:     {CreativeApproved, CreativeRejected},
	CreativeRejected:      {CreativeProcessing, CreativePendingReview},
	CreativeArchived:      {CreativeApproved},
}

// CreativeMove checks a creative's transition (a seller's own, or one a
// sandbox controller forces with force_creative_status).
func CreativeMove(from, to string) error {
	return force("creative", CreativeStatuses, creativeMoves, from, to)
}
