import type { FeedbackBodyType, RATINGS, SOURCES } from "./schemas.js";

export type Rating = (typeof RATINGS)[number];
export type FeedbackSource = (typeof SOURCES)[number];

const MAX_FEEDBACK_CHARS = 8000;

export interface GroundTruth {
  answer?: string;
  source_ids?: string[];
}

export interface NormalizedFeedback {
  readonly requestId: string;
  readonly feedback: string | null;
  readonly rating: Rating | null;
  readonly source: FeedbackSource;
  readonly groundTruth: GroundTruth | null;
  readonly metadata: Readonly<Record<string, unknown>> | null;
}

export type Normalized = { ok: true; value: NormalizedFeedback } | { ok: false; reason: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isBlank = (s: string | null | undefined): boolean => s === null || s === undefined || s.trim() === "";

/**
 * Ground truth with blank values treated as unsent: a blank answer is dropped, ids are
 * trimmed, blank ids dropped and duplicates collapsed (first occurrence kept).
 * null when nothing usable is left.
 */
function normalizeGroundTruth(raw: FeedbackBodyType["ground_truth"]): GroundTruth | null {
  if (!raw) return null;
  const result: GroundTruth = {};
  if (!isBlank(raw.answer)) result.answer = raw.answer ?? "";
  const ids = [...new Set((raw.source_ids ?? []).map((id) => id.trim()).filter((id) => id !== ""))];
  if (ids.length > 0) result.source_ids = ids;
  return result.answer === undefined && result.source_ids === undefined ? null : result;
}

/** The rules of one feedback submission that need no store; the request id's ownership is checked later. */
export function normalizeFeedback(body: FeedbackBodyType): Normalized {
  if (!UUID.test(body.request_id.trim())) {
    return { ok: false, reason: "'request_id' must be the UUID request id of a query (its meta.request_id)" };
  }
  const feedback = isBlank(body.feedback) ? null : (body.feedback ?? null);
  if (feedback !== null && [...feedback].length > MAX_FEEDBACK_CHARS) {
    return { ok: false, reason: `'feedback' must be at most ${MAX_FEEDBACK_CHARS} characters` };
  }
  const groundTruth = normalizeGroundTruth(body.ground_truth);
  if (body.ground_truth && groundTruth === null) {
    return { ok: false, reason: "'ground_truth' must carry a non-blank 'answer' or at least one non-blank id in 'source_ids'" };
  }
  if (feedback === null && groundTruth === null) {
    return { ok: false, reason: "'feedback' is required unless 'ground_truth' carries an answer or source ids" };
  }
  return {
    ok: true,
    value: {
      requestId: body.request_id.trim().toLowerCase(),
      feedback,
      rating: body.rating ?? null,
      source: body.source ?? "user",
      groundTruth,
      metadata: body.metadata ?? null,
    },
  };
}
