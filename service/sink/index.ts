/** The public surface of the webhook sink. */
export { startSink, SinkError, type SinkOptions, type RunningSink } from './server.ts';
export {
  verifySignature,
  parseSignatureHeader,
  signPayload,
  computeSignature,
  DEFAULT_TOLERANCE_SECONDS,
  type SignatureVerdict,
  type SignatureProblem,
  type ParsedSignatureHeader,
  type VerifySignatureInput,
} from './verify-signature.ts';
export { parseAnswerPlan, plannedAnswer, type AnswerPlan, type ParsedAnswerPlan, type PlannedAnswer } from './answer-plan.ts';
export { sinkClient, SinkClientError, type SinkClient, type SinkClientOptions, type ClientWaitForOptions } from './client.ts';
export { SinkWaitTimeoutError, SinkClosedError, type WaitForOptions } from './delivery-store.ts';
export { deliveryBody } from './delivery-body.ts';
export { judgeAttemptSigning, MIN_APART_MS } from './attempt-signing.ts';
export { arrivalLatenessMs, fastestLeadMs, slowWayMs } from './arrival-lateness.ts';
export { stallDelayMs } from './stall-spans.ts';
export { ENDPOINT_MARKER_PREFIX } from './event-fields.ts';
export type { DeliveryFilter } from './delivery-filter.ts';
export type {
  Delivery,
  DeliveryEvent,
  DeliveryProblem,
  EndpointSummary,
  HoldSettlement,
  RecordedAnswer,
  RedirectHit,
  RoutingProblem,
  SinkEndpoint,
  SinkStats,
} from './types.ts';
export { logLines, type LogLineItem } from './log-lines.ts';
