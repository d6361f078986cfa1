/** LoCoMo (`../shared/datasets/locomo/locomo10.json`) as memories and questions for bench:retrieval. */
import { readFileSync } from "node:fs";

interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

interface Sample {
  sample_id: string;
  conversation: Record<string, string | Turn[]>;
  qa: Array<{ question: string; evidence: string[]; category: number }>;
}

export interface Memory {
  id: string;
  text: string;
  user_name: string;
  timestamp: string;
  additional_metadata: { session: number; speaker: string };
}

export interface Question {
  question: string;
  category: number;
  evidence: string[];
}

export interface Conversation {
  collection: string;
  memories: Memory[];
  questions: Question[];
}

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

/** "1:56 pm on 8 May, 2023" -> ISO (UTC; LoCoMo has no time zones). */
export function sessionDate(raw: string): { iso: string; label: string } {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(raw);
  if (!m) throw new Error(`unparsed LoCoMo date '${raw}'`);
  const month = MONTHS.indexOf(m[5]!.toLowerCase());
  const hour = (Number(m[1]) % 12) + (m[3]!.toLowerCase() === "pm" ? 12 : 0);
  const date = new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2])));
  return { iso: date.toISOString(), label: `${Number(m[4])} ${m[5]} ${m[6]}` };
}

/**
 * One memory per turn: text "[8 May 2023] Caroline: ..." (an image a speaker shares is appended as
 * "[shares a photo of ...]", its BLIP caption), user_name = speaker, timestamp = session date-time
 * plus the turn's index in seconds (so neighbouring turns are neighbours in time).
 * Questions of categories 1-4 whose evidence names existing turns.
 */
export function loadLocomo(path: string, limit: number): Conversation[] {
  const samples = JSON.parse(readFileSync(path, "utf8")) as Sample[];
  return samples.slice(0, limit).map((s, n) => {
    const memories: Memory[] = [];
    for (const [key, value] of Object.entries(s.conversation)) {
      const session = /^session_(\d+)$/.exec(key);
      if (!session || !Array.isArray(value)) continue;
      const date = sessionDate(s.conversation[`${key}_date_time`] as string);
      for (const [index, turn] of value.entries()) {
        const image = turn.blip_caption ? ` [shares ${turn.blip_caption}]` : "";
        memories.push({
          id: turn.dia_id,
          text: `[${date.label}] ${turn.speaker}: ${turn.text}${image}`,
          user_name: turn.speaker,
          // turns of a session keep their order: the session's date-time plus one second per turn
          timestamp: new Date(Date.parse(date.iso) + index * 1000).toISOString(),
          additional_metadata: { session: Number(session[1]), speaker: turn.speaker },
        });
      }
    }
    const known = new Set(memories.map((m) => m.id));
    const questions = s.qa
      .filter((q) => q.category >= 1 && q.category <= 4)
      .map((q) => ({
        question: q.question,
        category: q.category,
        evidence: [...new Set(q.evidence.flatMap((e) => e.split(/[;,\s]+/)).map((e) => e.trim()))].filter((e) => known.has(e)),
      }))
      .filter((q) => q.evidence.length > 0);
    return { collection: `locomo-${n + 1}`, memories, questions };
  });
}
