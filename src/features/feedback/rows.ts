/** Rows of the feedback table. */

export interface FeedbackTable {
  id: string;
  org_id: string;
  request_id: string;
  database_id: string | null;
  database_name: string | null;
  collection: string | null;
  feedback: string | null;
  rating: string | null;
  source: string;
  /** JSON {answer?, source_ids?} after normalisation. */
  ground_truth: string | null;
  /** JSON object. */
  metadata: string | null;
  created_at: number;
}
