import {
  MONTH_PATTERN,
  MONTHS,
  WEEKDAY_PATTERN,
  WEEKDAYS,
  addDays,
  addMonths,
  formatDay,
  formatIsoWeek,
  formatMonth,
  fullYear,
  isoWeekday,
  startOfUtcDay,
  utcDate,
} from "./calendar.js";

// Resolves the date expressions wink-nlp tags into ISO 8601 strings at the precision written:
// a day ("2023-05-07"), an ISO week ("2023-W18"), a month ("2023-04") or a year ("2022").
// Hand-written rather than compromise-dates because it runs ~40x faster on the hot path; the
// forms it does not know return undefined and the caller may ask compromise-dates instead.

export interface DateResolutionOptions {
  /** The moment "today" refers to (message or session date). Relative forms need it. */
  readonly reference?: Date;
  /** Read 05/03/2024 as 5 March instead of May 3. */
  readonly dayFirst?: boolean;
}

const NUMBER_WORDS: ReadonlyMap<string, number> = new Map([
  ["a", 1],
  ["an", 1],
  ["one", 1],
  ["two", 2],
  ["three", 3],
  ["four", 4],
  ["five", 5],
  ["six", 6],
  ["seven", 7],
  ["eight", 8],
  ["nine", 9],
  ["ten", 10],
  ["eleven", 11],
  ["twelve", 12],
  ["couple of", 2],
]);

const ORD = "(?:st|nd|rd|th)?";
const DAY_MONTH_YEAR = new RegExp(String.raw`^(\d{1,2})${ORD}\s+(?:of\s+)?(${MONTH_PATTERN})\.?,?(?:\s+(\d{4}))?$`, "i");
const MONTH_DAY_YEAR = new RegExp(String.raw`^(${MONTH_PATTERN})\.?\s+(\d{1,2})${ORD},?(?:\s+(\d{4}))?$`, "i");
const MONTH_YEAR = new RegExp(String.raw`^(${MONTH_PATTERN})\.?,?\s+(\d{4})$`, "i");
const BARE_MONTH = new RegExp(String.raw`^(last|next|this|in)?\s*(${MONTH_PATTERN})$`, "i");
const WEEKDAY = new RegExp(String.raw`^(last|next|this|on|coming)?\s*(${WEEKDAY_PATTERN})\.?$`, "i");
const AGO = /^(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|couple of)\s+(day|week|month|year)s?\s+(ago|later|from now)$/i;
const IN_N = /^in\s+(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|couple of)\s+(day|week|month|year)s?$/i;
const RELATIVE_UNIT = /^(last|next|this|the past|the previous|the following)\s+(week|weekend|month|year)$/i;

/** Strips lead-in prepositions that taggers include in the date span ("on", "by", "since"...). */
function clean(expression: string): string {
  return expression
    .trim()
    .replace(/[.,;:!?]+$/, "")
    .replace(/^(?:on|by|since|until|till|from|before|after|at|during|around|about)\s+/i, "")
    .replace(/^the\s+(?=\d)/i, "")
    .replace(/\s+/g, " ");
}

function amount(word: string): number {
  return NUMBER_WORDS.get(word.toLowerCase()) ?? Number(word);
}

function shift(reference: Date, unit: string, count: number): string {
  switch (unit.toLowerCase()) {
    case "day":
      return formatDay(addDays(reference, count));
    case "week":
      return formatDay(addDays(reference, 7 * count));
    case "month":
      return formatMonth(addMonths(reference, count));
    default:
      return String(reference.getUTCFullYear() + count);
  }
}

function resolveAbsolute(text: string, options: DateResolutionOptions): string | undefined {
  const iso = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ][\d:.]+Z?)?$/.exec(text);
  if (iso !== null) {
    const date = utcDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
    return date === undefined ? undefined : formatDay(date);
  }
  const numeric = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/.exec(text);
  if (numeric !== null) {
    const [first, second] = [Number(numeric[1]), Number(numeric[2])];
    const dayFirst = options.dayFirst === true || first > 12;
    const date = utcDate(fullYear(Number(numeric[3])), dayFirst ? second : first, dayFirst ? first : second);
    return date === undefined ? undefined : formatDay(date);
  }
  const dmy = DAY_MONTH_YEAR.exec(text);
  const mdy = dmy === null ? MONTH_DAY_YEAR.exec(text) : null;
  if (dmy !== null || mdy !== null) {
    const day = Number(dmy !== null ? dmy[1] : mdy?.[2]);
    const month = MONTHS.get(((dmy !== null ? dmy[2] : mdy?.[1]) ?? "").toLowerCase()) ?? 0;
    const yearText = dmy !== null ? dmy[3] : mdy?.[3];
    const year = yearText !== undefined ? Number(yearText) : options.reference?.getUTCFullYear();
    if (year === undefined) return undefined;
    const date = utcDate(year, month, day);
    return date === undefined ? undefined : formatDay(date);
  }
  const monthYear = MONTH_YEAR.exec(text);
  if (monthYear !== null) {
    const month = MONTHS.get((monthYear[1] ?? "").toLowerCase()) ?? 1;
    return `${monthYear[2]}-${String(month).padStart(2, "0")}`;
  }
  if (/^(?:19|20)\d{2}$/.test(text)) return text;
  return undefined;
}

function resolveWeekday(modifier: string, weekday: number, today: Date): string {
  const current = isoWeekday(today);
  switch (modifier) {
    case "last": {
      const back = (current - weekday + 7) % 7 || 7;
      return formatDay(addDays(today, -back));
    }
    case "next": {
      // "next Friday" said on a Monday is read as the Friday of the following week, as most people do.
      const forward = (weekday - current + 7) % 7 || 7;
      return formatDay(addDays(today, forward + (forward < 7 && weekday > current ? 7 : 0)));
    }
    default:
      // A bare or "this" weekday is the nearest one on or after today, matching compromise-dates.
      return formatDay(addDays(today, (weekday - current + 7) % 7));
  }
}

function resolveRelative(text: string, today: Date): string | undefined {
  const lower = text.toLowerCase();
  switch (lower) {
    case "today":
    case "tonight":
    case "this morning":
    case "this afternoon":
    case "this evening":
    case "now":
      return formatDay(today);
    case "yesterday":
    case "last night":
      return formatDay(addDays(today, -1));
    case "tomorrow":
      return formatDay(addDays(today, 1));
    case "the day before yesterday":
      return formatDay(addDays(today, -2));
    case "the day after tomorrow":
      return formatDay(addDays(today, 2));
    default:
      break;
  }
  const weekday = WEEKDAY.exec(lower);
  if (weekday !== null) {
    const day = WEEKDAYS.get(weekday[2] ?? "");
    return day === undefined ? undefined : resolveWeekday(weekday[1] ?? "", day, today);
  }
  const ago = AGO.exec(lower);
  if (ago !== null) {
    const sign = ago[3] === "ago" ? -1 : 1;
    return shift(today, ago[2] ?? "day", sign * amount(ago[1] ?? "1"));
  }
  const inN = IN_N.exec(lower);
  if (inN !== null) return shift(today, inN[2] ?? "day", amount(inN[1] ?? "1"));
  const unit = RELATIVE_UNIT.exec(lower);
  if (unit !== null) {
    const direction = /^(?:last|the past|the previous)$/.test(unit[1] ?? "") ? -1 : unit[1] === "this" ? 0 : 1;
    switch (unit[2] ?? "year") {
      case "week":
        return formatIsoWeek(addDays(today, 7 * direction));
      case "weekend": {
        const saturdayThisWeek = addDays(today, 6 - isoWeekday(today));
        return formatDay(addDays(saturdayThisWeek, 7 * direction));
      }
      case "month":
        return formatMonth(addMonths(today, direction));
      default:
        return String(today.getUTCFullYear() + direction);
    }
  }
  const bareMonth = BARE_MONTH.exec(lower);
  if (bareMonth !== null) {
    const month = MONTHS.get(bareMonth[2] ?? "") ?? 1;
    const current = today.getUTCMonth() + 1;
    let year = today.getUTCFullYear();
    if (bareMonth[1] === "last" && month >= current) year -= 1;
    if (bareMonth[1] === "next" && month <= current) year += 1;
    return `${year}-${String(month).padStart(2, "0")}`;
  }
  return undefined;
}

/** Returns an ISO 8601 date (or week/month/year) for the expression, or undefined when unknown. */
export function resolveDateExpression(expression: string, options: DateResolutionOptions = {}): string | undefined {
  const text = clean(expression);
  if (text.length === 0) return undefined;
  const absolute = resolveAbsolute(text, options);
  if (absolute !== undefined) return absolute;
  if (options.reference === undefined) return undefined;
  return resolveRelative(text, startOfUtcDay(options.reference));
}

/** Normalises a clock time to 24-hour "HH:MM" ("3pm" -> "15:00", "10:30 am" -> "10:30"). */
export function normalizeClockTime(expression: string): string | undefined {
  const match = /^(?:at\s+)?(\d{1,2})(?:[:.](\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?$/i.exec(expression.trim());
  if (match === null) {
    const lower = expression.trim().toLowerCase();
    return lower === "noon" || lower === "midday" ? "12:00" : lower === "midnight" ? "00:00" : undefined;
  }
  let hour = Number(match[1]);
  const minute = Number(match[2] ?? "0");
  const meridiem = (match[3] ?? "").toLowerCase().replace(/\./g, "");
  if (meridiem === "" && match[2] === undefined) return undefined;
  if (meridiem === "pm" && hour < 12) hour += 12;
  if (meridiem === "am" && hour === 12) hour = 0;
  if (hour > 23 || minute > 59) return undefined;
  return `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
}
