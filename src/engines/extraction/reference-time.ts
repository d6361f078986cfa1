import { MONTH_PATTERN, MONTHS, fullYear } from "./calendar.js";

// Reference times come from message dates (ISO strings or epoch numbers) and from conversation
// session headers written for people, like LoCoMo's "1:56 pm on 8 May, 2023".

export type ReferenceTimeInput = Date | number | string;

const HUMAN = new RegExp(
  String.raw`^(?:(\d{1,2})(?::(\d{2}))?\s*(am|pm)\s*(?:on\s+)?)?` +
    String.raw`(?:(\d{1,2})(?:st|nd|rd|th)?\s+(${MONTH_PATTERN})\.?,?\s+(\d{2,4})` +
    String.raw`|(${MONTH_PATTERN})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{2,4}))$`,
  "i",
);

/** Parses a reference time; returns undefined (not an exception) for anything it cannot read. */
export function parseReferenceTime(input: ReferenceTimeInput | undefined): Date | undefined {
  if (input === undefined) return undefined;
  if (input instanceof Date) return Number.isNaN(input.getTime()) ? undefined : input;
  if (typeof input === "number") return Number.isFinite(input) ? new Date(input) : undefined;
  const text = input.trim();
  if (/^\d{4}-\d{2}-\d{2}/.test(text)) {
    // A bare date is read as UTC midnight; Date.parse already does that for YYYY-MM-DD.
    const parsed = Date.parse(text);
    return Number.isNaN(parsed) ? undefined : new Date(parsed);
  }
  const match = HUMAN.exec(text);
  if (match === null) return undefined;
  const day = Number(match[4] ?? match[8]);
  const month = MONTHS.get((match[5] ?? match[7] ?? "").toLowerCase());
  const year = fullYear(Number(match[6] ?? match[9]));
  if (month === undefined) return undefined;
  let hour = match[1] === undefined ? 0 : Number(match[1]) % 12;
  if ((match[3] ?? "").toLowerCase() === "pm") hour += 12;
  const minute = match[2] === undefined ? 0 : Number(match[2]);
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute));
  return date.getUTCDate() === day ? date : undefined;
}
