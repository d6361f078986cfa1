import { splitSentences } from "./sentence-split.js";

// Offline memory inference: turns first-person statements into short third-person memories
// ("I really love hiking on weekends" by Sam -> "Sam likes hiking on weekends"). Only what a
// pattern recognises is kept; anything else (questions, small talk, opinions about others) is
// dropped, so null means "nothing worth remembering", not failure.

export type MemoryKind = "preference" | "trait" | "plan" | "fact";

export interface UserAssistantPair {
  readonly user: string;
  readonly assistant: string;
}

export interface InferMemoryOptions {
  readonly userName?: string;
  /** Honoured by the model path only; the rules cannot interpret free-form instructions. */
  readonly customInstructions?: string;
}

export interface InferredStatement {
  readonly kind: MemoryKind;
  readonly statement: string;
  /** The sentence the statement was read from. */
  readonly evidence: string;
}

export interface InferredMemory {
  /** All statements joined into one memory text. */
  readonly statement: string;
  readonly statements: readonly InferredStatement[];
}

const ADVERBS = String.raw`(?:(?:really|absolutely|truly|just|totally|also|still|kind of|kinda|so|actually|do|definitely|honestly|genuinely|always|usually|often|sometimes|now|currently)\s+)*`;
const I = String.raw`^i\s+${ADVERBS}`;
const I_AM = String.raw`^(?:i\s+am|i'm)\s+${ADVERBS}`;

type Render = (subject: string, possessive: string, parts: readonly string[]) => string;

interface MemoryPattern {
  readonly kind: MemoryKind;
  readonly pattern: RegExp;
  readonly render: Render;
}

const IRREGULAR_THIRD: Readonly<Record<string, string>> = { have: "has", do: "does", go: "goes", be: "is" };
const PRESENT_VERBS =
  "play|read|run|cook|bake|paint|draw|teach|study|volunteer|write|eat|drink|drive|own|use|speak|practice|practise|collect|swim|hike|have|go|walk|watch|visit|attend|train|knit|sing|dance|garden|meditate|travel|work|ride|listen";
const PAST_VERBS = String.raw`\w+ed|went|got|saw|made|took|ran|began|bought|met|won|lost|left|came|did|gave|found|wrote|read|built|became|had|felt|flew|drove|sold|spent|taught|caught|brought|thought|heard|kept|slept|swam|sang|drew|ate|wore|chose|forgot|quit|hit|grew|broke|rode`;

function thirdPerson(verb: string): string {
  const lower = verb.toLowerCase();
  const irregular = IRREGULAR_THIRD[lower];
  if (irregular !== undefined) return irregular;
  if (/(?:s|sh|ch|x|z|o)$/.test(lower)) return `${lower}es`;
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}

const MEMORY_PATTERNS: readonly MemoryPattern[] = [
  { kind: "preference", pattern: new RegExp(`${I}(?:don't|do not|didn't)\\s+(?:like|love|enjoy)\\s+(.+)`), render: (s, _p, [x]) => `${s} dislikes ${x}` },
  { kind: "preference", pattern: new RegExp(`${I}(?:hate|dislike|detest|can't stand|cannot stand)\\s+(.+)`), render: (s, _p, [x]) => `${s} dislikes ${x}` },
  { kind: "preference", pattern: new RegExp(`${I}(?:love|like|enjoy|adore)\\s+(.+)`), render: (s, _p, [x]) => `${s} likes ${x}` },
  {
    kind: "preference",
    pattern: new RegExp(`${I_AM}(?:a\\s+)?(?:big\\s+|huge\\s+)?(?:fan of|into|passionate about|obsessed with)\\s+(.+)`),
    render: (s, _p, [x]) => `${s} likes ${x}`,
  },
  { kind: "preference", pattern: new RegExp(`${I}(?:prefer|would rather|'d rather)\\s+(.+)`), render: (s, _p, [x]) => `${s} prefers ${x}` },
  {
    kind: "preference",
    pattern: /^my\s+(?:all-time\s+|absolute\s+)?favou?rite\s+(.+?)\s+(?:is|are|was)\s+(.+)/,
    render: (_s, p, [what, x]) => `${p} favourite ${what} is ${x}`,
  },
  { kind: "plan", pattern: new RegExp(`${I_AM}(?:going|planning|hoping|about)\\s+to\\s+(.+)`), render: (s, _p, [x]) => `${s} plans to ${x}` },
  { kind: "plan", pattern: new RegExp(`${I}(?:plan|intend|hope|am planning)\\s+to\\s+(.+)`), render: (s, _p, [x]) => `${s} plans to ${x}` },
  { kind: "plan", pattern: new RegExp(`${I}(?:want|would like|'d like|wish)\\s+to\\s+(.+)`), render: (s, _p, [x]) => `${s} wants to ${x}` },
  { kind: "plan", pattern: /^(?:i\s+will|i'll)\s+(?!be\s+(?:right|back|there))(.+)/, render: (s, _p, [x]) => `${s} will ${x}` },
  { kind: "trait", pattern: /^my\s+name\s+is\s+(.+)/, render: (_s, p, [x]) => `${p} name is ${x}` },
  { kind: "trait", pattern: new RegExp(`${I}work\\s+(as|at|for|in|on)\\s+(.+)`), render: (s, _p, [how, x]) => `${s} works ${how} ${x}` },
  { kind: "trait", pattern: new RegExp(`${I}(?:live|am living|'m living)\\s+in\\s+(.+)`), render: (s, _p, [x]) => `${s} lives in ${x}` },
  { kind: "trait", pattern: new RegExp(`${I_AM}(?:originally\\s+)?from\\s+(.+)`), render: (s, _p, [x]) => `${s} is from ${x}` },
  { kind: "trait", pattern: new RegExp(`${I_AM}(an?\\s+.+)`), render: (s, _p, [x]) => `${s} is ${x}` },
  {
    kind: "trait",
    pattern: new RegExp(
      `${I_AM}((?:vegan|vegetarian|allergic|lactose|married|single|divorced|engaged|pregnant|retired|left-handed|right-handed|\\d+\\s+years?\\s+old|based in|studying|learning|training|interested in|working on|transgender|trans|gay|lesbian|bisexual|non-binary)\\b.*)`,
    ),
    render: (s, _p, [x]) => `${s} is ${x}`,
  },
  { kind: "fact", pattern: /^my\s+(\w+(?:\s+\w+)?)\s+(?:is|'s)\s+(?:called|named)\s+(.+)/, render: (_s, p, [who, x]) => `${p} ${who} is named ${x}` },
  { kind: "fact", pattern: /^my\s+(\w+(?:\s+\w+)?)\s+(is|are|was|were|has|have)\s+(.+)/, render: (_s, p, [what, verb, x]) => `${p} ${what} ${verb} ${x}` },
  {
    kind: "fact",
    pattern: new RegExp(`${I}(?:have|'ve got|have got)\\s+((?:a|an|two|three|four|\\d+|some|no)\\s+.+)`),
    render: (s, _p, [x]) => `${s} has ${x}`,
  },
  { kind: "fact", pattern: /^(?:i\s+have|i've)\s+(been\s+.+|(?:just\s+)?\w+ed\s+.+)/, render: (s, _p, [x]) => `${s} has ${x}` },
  { kind: "fact", pattern: new RegExp(`${I}(${PAST_VERBS})\\s+(.+)`), render: (s, _p, [verb, x]) => `${s} ${verb} ${x}` },
  { kind: "fact", pattern: new RegExp(`${I}(${PRESENT_VERBS})\\s+(.+)`), render: (s, _p, [verb, x]) => `${s} ${thirdPerson(verb ?? "")} ${x}` },
];

/** Rewrites the first-person words left in the captured phrase ("my dog" -> "their dog"). */
function shiftPronouns(phrase: string): string {
  return phrase
    .replace(/\bI'm\b/gi, "they're")
    .replace(/\bI've\b/gi, "they've")
    .replace(/\bI'll\b/gi, "they'll")
    .replace(/\bI\b/g, "they")
    .replace(/\bmy\b/gi, "their")
    .replace(/\bmine\b/gi, "theirs")
    .replace(/\bmyself\b/gi, "themselves")
    .replace(/\bme\b/gi, "them");
}

/** Keeps the clause about the speaker: stops where another subject takes over. */
function firstClause(phrase: string): string {
  const cut = /\s*(?:,|;|\s)\s*(?:and|but|so|because|though|although)\s+(?:it|that|this|he|she|they|we|you|there)\b|\s+-\s+|[;:(]/i.exec(phrase);
  const clause = cut === null ? phrase : phrase.slice(0, cut.index);
  return clause
    .replace(/[\s.!,…]+$/u, "")
    .replace(/\s*\p{Extended_Pictographic}.*$/u, "")
    .trim();
}

/** Drops greetings and interjections before the first-person part ("Hey Mel! Honestly, I ..."). */
function firstPersonPart(sentence: string): string | undefined {
  const normalized = sentence.replace(/[’‘]/g, "'").replace(/\s+/g, " ").trim();
  const start = /(?:^|[\s,.!])(i\s|i'm\b|i've\b|i'll\b|i'd\b|my\s)/i.exec(normalized);
  if (start === null) return undefined;
  return normalized.slice(start.index + (start[0].length - (start[1] ?? "").length));
}

function inferSentence(sentence: string, subject: string, possessive: string): InferredStatement | undefined {
  if (/\?\s*$/.test(sentence)) return undefined;
  const part = firstPersonPart(sentence);
  if (part === undefined) return undefined;
  const lower = part.toLowerCase();
  for (const { kind, pattern, render } of MEMORY_PATTERNS) {
    const match = pattern.exec(lower);
    if (match === null) continue;
    // Capture from the original-case text at the same offsets so names keep their capitals.
    const groups = match.slice(1).map((group) => {
      if (group === undefined) return "";
      const at = lower.indexOf(group, match.index);
      return at === -1 ? group : part.slice(at, at + group.length);
    });
    const rest = groups.map((group, index) => (index === groups.length - 1 ? shiftPronouns(firstClause(group)) : group.trim()));
    if ((rest[rest.length - 1] ?? "").length === 0) continue;
    return { kind, statement: render(subject, possessive, rest), evidence: sentence.trim() };
  }
  return undefined;
}

export function inferMemory(input: string | readonly UserAssistantPair[], options: InferMemoryOptions = {}): InferredMemory | null {
  const text = typeof input === "string" ? input : input.map((pair) => pair.user).join("\n\n");
  const name = options.userName?.trim();
  const subject = name === undefined || name.length === 0 ? "The user" : name;
  const possessive = /s$/i.test(subject) ? `${subject}'` : `${subject}'s`;
  const statements: InferredStatement[] = [];
  for (const span of splitSentences(text)) {
    // "I'm an engineer and I live in Zürich" holds two memories; split where a new "I" clause starts.
    for (const clause of text.slice(span.start, span.end).split(/,?\s+(?:and|but|so)\s+(?=(?:I|I'm|I've|I’m|my)\s)/)) {
      const found = inferSentence(clause, subject, possessive);
      if (found !== undefined && !statements.some((known) => known.statement === found.statement)) statements.push(found);
    }
  }
  if (statements.length === 0) return null;
  return { statement: statements.map((found) => found.statement).join(". "), statements };
}
