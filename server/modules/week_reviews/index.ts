export { tellReturned, weekReviewRoutes } from "./routes";
export {
  autoApprove,
  maySubmitOn,
  pendingReviews,
  type ReturnedWeek,
  returnWeek,
  reviewOfWeek,
  weekReviewState,
} from "./service";
