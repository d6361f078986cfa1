import type { MentionKind } from "./mention.js";
import type { TextPredicate } from "./predicates.js";

// Lexical rules over the words between two mentions of one sentence. Order matters: the first
// rule whose kinds and pattern match wins, so specific phrasings come before loose prepositions.
// Each rule names the kinds it connects; that is what keeps "moved to Paris" (lives_in) apart
// from "moved to Postgres 16" (uses).

type KindGroup = "actor" | "org" | "place" | "thing" | "ticket" | "any";

export interface RelationRule {
  readonly predicate: TextPredicate;
  /** Kind of the mention that comes first in the text. */
  readonly from: KindGroup;
  /** Kind of the mention that comes second. */
  readonly to: KindGroup;
  readonly pattern: RegExp;
  readonly confidence: number;
  /** The relation points from the later mention to the earlier: "Ghost was built by Ada" -> Ada created Ghost. */
  readonly inverse?: boolean;
  /** Extra condition on the whole sentence, for verbs that sit outside the pair ("assigned X to Y"). */
  readonly sentence?: RegExp;
}

function inGroup(kind: MentionKind, group: KindGroup): boolean {
  switch (group) {
    case "actor":
      return kind === "person" || kind === "email" || kind === "mention";
    case "org":
      return kind === "organization";
    case "place":
      return kind === "place";
    case "ticket":
      return kind === "ticket" || kind === "url";
    case "thing":
      return kind === "product" || kind === "organization" || kind === "url" || kind === "ticket" || kind === "hashtag";
    case "any":
      return true;
  }
}

const ROLE =
  "engineer|developer|manager|ceo|cto|cfo|coo|founder|co-founder|designer|intern|director|lead|head|employee|consultant|professor|student|researcher|scientist|analyst|vp|president|nurse|doctor|teacher|volunteer";

const RELATION_RULES: readonly RelationRule[] = [
  { predicate: "reports_to", from: "actor", to: "actor", pattern: /\breport(?:s|ed|ing)? (?:directly )?to\b/, confidence: 0.8 },
  { predicate: "assigned_to", from: "ticket", to: "actor", pattern: /\b(?:is |was |been |got )?(?:re)?assigned (?:to\b)?|\bassignee is\b/, confidence: 0.85 },
  { predicate: "assigned_to", from: "ticket", to: "actor", pattern: /^to$/, confidence: 0.75, sentence: /\bassign/i },
  {
    predicate: "assigned_to",
    from: "actor",
    to: "ticket",
    pattern: /\b(?:working on|picked up|took|taking|handling|handles|owns)\b/,
    confidence: 0.6,
    inverse: true,
  },
  {
    predicate: "created",
    from: "thing",
    to: "actor",
    pattern: /\b(?:created|built|written|wrote|founded|designed|started|launched|made|developed|opened|filed|reported|authored|drafted|published) by\b/,
    confidence: 0.8,
    inverse: true,
  },
  {
    predicate: "created",
    from: "actor",
    to: "thing",
    pattern:
      /\b(?:creat(?:ed|es|e)|buil(?:t|ds?)|wr(?:ote|ites?)|founded|co-founded|designed|started|launched|developed|opened|filed|authored|drafted|published)\b/,
    confidence: 0.8,
  },
  {
    predicate: "works_at",
    from: "actor",
    to: "org",
    pattern: /\b(?:works?|working|worked) (?:at|for)\b|\bjoin(?:ed|s|ing)?\b|\b(?:employed|hired) (?:at|by)\b/,
    confidence: 0.85,
  },
  { predicate: "works_at", from: "actor", to: "org", pattern: new RegExp(String.raw`\b(?:${ROLE})\b.*\b(?:at|of|for|with)$`), confidence: 0.75 },
  { predicate: "works_at", from: "org", to: "actor", pattern: /\bhired\b/, confidence: 0.7, inverse: true },
  { predicate: "works_at", from: "actor", to: "org", pattern: /^(?:from|at|of|\(?)$/, confidence: 0.55 },
  { predicate: "part_of", from: "any", to: "thing", pattern: /\b(?:part of|member of|belongs? to|subsidiary of|division of|on the)\b/, confidence: 0.7 },
  {
    predicate: "works_with",
    from: "actor",
    to: "actor",
    pattern: /\b(?:works?|working|worked|collaborat\w*|partner\w*|pair\w*|teamed up) with\b|\bcolleague|\bteammate|\bco-?worker/,
    confidence: 0.75,
  },
  {
    predicate: "met_with",
    from: "actor",
    to: "actor",
    pattern:
      /\b(?:met|meet|meets|meeting|saw|see|seeing|called|visited|(?:had|have|having) (?:lunch|dinner|coffee|breakfast|drinks|a call|a meeting|a chat) with|caught up with|catch(?:ing)? up with|talk(?:ed|ing)? (?:to|with)|sp(?:oke|eaking) (?:to|with)|hung out with|hanging out with|chatted with)\b/,
    confidence: 0.75,
  },
  {
    predicate: "lives_in",
    from: "actor",
    to: "place",
    pattern: /\b(?:lives?|living|lived|resides?|residing|moved|moving|relocat\w*) (?:in|to)\b|\bhome(?:town)? (?:is )?in\b/,
    confidence: 0.8,
  },
  {
    predicate: "travels_to",
    from: "actor",
    to: "place",
    pattern:
      /\b(?:went|go|goes|going|gone|travel(?:l)?(?:ed|ing|s)?|flew|fly|flying|trip|visit(?:ed|ing|s)?|head(?:ed|ing)|vacation\w*|holiday\w*|road trip)\b/,
    confidence: 0.75,
  },
  { predicate: "lives_in", from: "actor", to: "place", pattern: /^(?:(?:is|am|'m|are) )?from$/, confidence: 0.6 },
  { predicate: "located_in", from: "any", to: "place", pattern: /\b(?:based|located|headquartered|offices?) (?:in|out of)\b/, confidence: 0.8 },
  { predicate: "located_in", from: "any", to: "place", pattern: /^(?:,|in|at|near|\(?)$/, confidence: 0.6 },
  {
    predicate: "mentions",
    from: "any",
    to: "any",
    pattern: /\b(?:mention(?:ed|s)?|referenc(?:ed|es)|talk(?:ed|s)? about|cited|linked|tagged|pinged|cc'?d)\b/,
    confidence: 0.7,
  },
  {
    predicate: "dislikes",
    from: "actor",
    to: "any",
    pattern: /\b(?:hates?|hated|dislikes?|disliked|can'?t stand|cannot stand|detests?)\b/,
    confidence: 0.75,
  },
  {
    predicate: "likes",
    from: "actor",
    to: "any",
    pattern: /\b(?:lov(?:e|es|ed|ing)|lik(?:e|es|ed)|enjoy(?:s|ed|ing)?|ador(?:e|es|ed)|(?:am|is|are|'m) (?:a )?(?:big |huge )?fans? of|(?:am|is|'m) into)\b/,
    confidence: 0.75,
  },
  {
    predicate: "uses",
    from: "any",
    to: "thing",
    pattern: /\b(?:uses?|using|used|switched to|upgraded to|migrated to|moved to|runs on|running|built (?:on|with)|deployed (?:on|to))\b/,
    confidence: 0.7,
  },
  { predicate: "owns", from: "actor", to: "thing", pattern: /\b(?:owns?|owned|bought|purchased|ha(?:s|ve|d) an?|got an?)\b/, confidence: 0.7 },
  { predicate: "owns", from: "org", to: "org", pattern: /\b(?:acquired|bought|owns)\b/, confidence: 0.75 },
];

const NEGATION = /\b(?:not|never|no longer|don'?t|doesn'?t|didn'?t|won'?t|isn'?t|wasn'?t|aren'?t|can'?t|cannot)\b/;

export interface RuleMatch {
  readonly rule: RelationRule;
  /** The words that triggered the rule, as written in the between text. */
  readonly phrase: string;
}

const AUXILIARY = /(?:\b(?:is|was|am|are|were|has|have|had|will|would|be|been|being|just|also|really|'m|'s|'re|'ve)\s+)+$/;

/** Widens the trigger to the verb phrase as written: "going" -> "is going to". */
function verbPhrase(between: string, start: number, length: number): string {
  const before = AUXILIARY.exec(between.slice(0, start));
  const from = before === null ? start : before.index;
  const rest = between.slice(start + length);
  const to = rest.trim().split(" ").length <= 2 ? between.length : start + length;
  return between.slice(from, to).replace(/^[\s,]+|[\s,]+$/g, "");
}

/** Finds the first rule that fits; negated phrases only match by turning "like" into "dislike". */
export function matchRule(between: string, sentence: string, fromKind: MentionKind, toKind: MentionKind): RuleMatch | undefined {
  const negated = NEGATION.test(between) && !/\bcan'?t stand|cannot stand\b/.test(between);
  for (const rule of RELATION_RULES) {
    if (!inGroup(fromKind, rule.from) || !inGroup(toKind, rule.to)) continue;
    if (rule.sentence !== undefined && !rule.sentence.test(sentence)) continue;
    const found = rule.pattern.exec(between);
    if (found === null) continue;
    if (!negated) return { rule, phrase: verbPhrase(between, found.index, found[0].length) || between };
    if (rule.predicate === "likes") {
      return { rule: { ...rule, predicate: "dislikes", confidence: 0.6 }, phrase: between };
    }
    return undefined;
  }
  return undefined;
}
