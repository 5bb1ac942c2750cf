/** What other modules use of the weeks sent to review: the hours of a week, the timesheet's state, the jobs' reads. */
export { weekFigures } from "./figures";
export { tellReturned, weekReviewRoutes } from "./routes";
export {
  autoApprove,
  maySubmitOn,
  pendingReviews,
  type ReturnedWeek,
  returnWeek,
  reviewOfWeek,
  reviewSummary,
  submitWeek,
  weekReviewState,
} from "./service";
