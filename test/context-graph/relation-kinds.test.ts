import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { ingestApp } from "../helpers/context.js";
import { createReadyDatabase, startTestApp, type TestApp } from "../helpers/harness.js";
import {
  allRelations,
  email,
  githubComment,
  githubIssue,
  linearProject,
  linearTicket,
  membersById,
  notionDatabase,
  notionPage,
  predicatesOf,
  SLACK_ROOT,
  slackMessage,
  slackThread,
  subgraph,
} from "./graph-fixtures.js";

describe("graph building: each item-level and entity relation kind", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "kinds");
    await ingestApp(t, "kinds", [
      ...slackThread,
      // A reply declared explicitly, to an item of another thread.
      slackMessage("1700000500.000900", "Following up on the deploy", 9, "carol", { thread_ts: undefined }),
      email,
      githubIssue,
      githubComment("c1", "Reproduced on macOS", 1),
      linearProject,
      linearTicket("ENG-1", "Fix login", {}),
      notionDatabase,
      notionPage("page-1", "Onboarding"),
    ]);
    await ingestApp(t, "kinds", [
      {
        ...linearTicket("ENG-2", "Audit login"),
        relations: [
          { predicate: "reply_to", target: { id: `slack:message:${SLACK_ROOT}` } },
          { predicate: "references", target: { provider: "linear", external_id: "ENG-1", kind: "ticket" } },
        ],
      },
      {
        id: "runbook",
        type: "document",
        title: "Runbook",
        content: { text: "How we deploy" },
        relations: { ids: ["linear:ticket:ENG-2", "not-yet-ingested"] },
      },
    ]);
  });
  after(async () => t.close());

  test("same_thread: Slack replies share the root's thread", async () => {
    const res = await subgraph(t, `slack:message:${SLACK_ROOT}`, { database: "kinds", depth: "1" });
    assert.equal(res.status, 200, res.text);
    const members = membersById(res.data);
    assert.equal(members.get("slack:message:1700000060.000200")?.discovered_relation, "same_thread");
    assert.equal(members.get("slack:message:1700000120.000300")?.discovered_via, `slack:message:${SLACK_ROOT}`);
    const thread = res.data.relations.filter((r) => r.relations[0]?.canonical_predicate === "same_thread");
    assert.equal(thread.length, 2, "consecutive messages of the thread are tied");
    for (const triplet of thread) {
      assert.equal(triplet.source.type, "SOURCE");
      assert.equal(triplet.source.namespace, "sources");
      assert.ok(members.has(triplet.source.entity_id) && members.has(triplet.target.entity_id));
    }
  });

  test("parent and child: comments under their issue, pages under their database, tickets under their project", async () => {
    const issue = await subgraph(t, "github:ticket:42", { database: "kinds", depth: "1" });
    assert.equal(membersById(issue.data).get("github:comment:c1")?.discovered_relation, "child");
    const comment = await subgraph(t, "github:comment:c1", { database: "kinds", depth: "1" });
    assert.equal(membersById(comment.data).get("github:ticket:42")?.discovered_relation, "parent");
    const parentOf = comment.data.relations.find((r) => r.relations[0]?.canonical_predicate === "parent_of");
    assert.equal(parentOf?.source.entity_id, "github:ticket:42");
    assert.equal(parentOf?.target.entity_id, "github:comment:c1");

    const wiki = await subgraph(t, "notion:knowledge_base:db1", { database: "kinds", depth: "1" });
    assert.equal(membersById(wiki.data).get("notion:knowledge_base:page-1")?.discovered_relation, "child");
    const project = await subgraph(t, "linear-project-core", { database: "kinds", depth: "1" });
    assert.equal(membersById(project.data).get("linear:ticket:ENG-1")?.discovered_relation, "child");
  });

  test("explicit links keep their declared type, both ways; relations.ids are references", async () => {
    const res = await subgraph(t, "linear:ticket:ENG-2", { database: "kinds", depth: "1" });
    const members = membersById(res.data);
    assert.equal(members.get(`slack:message:${SLACK_ROOT}`)?.discovered_relation, "reply_to");
    assert.equal(members.get("linear:ticket:ENG-1")?.discovered_relation, "references");
    assert.equal(members.get("runbook")?.discovered_relation, "references", "reached backwards over the runbook's link");
    const replyTo = res.data.relations.find((r) => r.relations[0]?.raw_predicate === "reply_to");
    assert.equal(replyTo?.relations[0]?.canonical_predicate, "relates_to");
    assert.equal(replyTo?.source.entity_id, "linear:ticket:ENG-2");
    assert.equal(replyTo?.relations[0]?.context, "");
  });

  test("a link to an id not ingested yet resolves when the target arrives", async () => {
    const before = await subgraph(t, "runbook", { database: "kinds", depth: "1" });
    assert.equal(membersById(before.data).has("not-yet-ingested"), false);
    await ingestApp(t, "kinds", [{ id: "not-yet-ingested", type: "document", title: "Late arrival", content: { text: "Arrived later" } }]);
    const later = await subgraph(t, "not-yet-ingested", { database: "kinds", depth: "1" });
    assert.equal(membersById(later.data).get("runbook")?.discovered_relation, "references");
  });

  test("structural relations: sender, recipients, cc, assignee, author, mentions, comments, attachments, with empty context", async () => {
    const mail = await allRelations(t, { database: "kinds", id: "gmail:email:msg-1" });
    const structural = mail.filter((tr) => tr.relations.every((r) => r.context === ""));
    assert.deepEqual(
      predicatesOf(structural).filter((p) => ["sent", "sent_to", "cc", "has_attachment"].includes(p)),
      ["cc", "has_attachment", "sent", "sent_to"],
    );
    const sent = structural.find((tr) => tr.relations[0]?.canonical_predicate === "sent");
    assert.equal(sent?.source.type, "ACTOR");
    assert.equal(sent?.source.namespace, "actors");
    assert.equal(sent?.source.identifier, "ada@example.com");
    assert.equal(sent?.target.entity_id, "gmail:email:msg-1");
    assert.equal(sent?.relations[0]?.confidence, 1);

    const ticket = await allRelations(t, { database: "kinds", id: "linear:ticket:ENG-1" });
    assert.ok(predicatesOf(ticket).includes("assigned_to"));
    const issue = await subgraph(t, "github:ticket:42", { database: "kinds", depth: "1" });
    const aux = predicatesOf(issue.data.auxiliary_relations);
    for (const p of ["authored", "mentions", "commented_on"]) assert.ok(aux.includes(p), `auxiliary has ${p}: ${aux.join(",")}`);
    assert.ok(issue.data.auxiliary_relations.every((tr) => tr.relations.every((r) => r.context === "")));
    assert.equal(issue.data.auxiliary_truncated, false);
  });

  test("chunk-level relations carry every Relation field", async () => {
    const mail = await allRelations(t, { database: "kinds", id: "gmail:email:msg-1" });
    const fromText = mail.flatMap((tr) => tr.relations.map((r) => ({ tr, r }))).filter(({ r }) => r.context !== "");
    assert.ok(fromText.length > 0, "relations were read from the text");
    const worksAt = fromText.find(({ r }) => r.canonical_predicate === "works_at");
    assert.ok(worksAt, JSON.stringify(fromText.map(({ r }) => r.canonical_predicate)));
    assert.equal(worksAt.tr.source.name, "John Smith");
    assert.match(worksAt.r.context, /works at Microsoft/);
    assert.ok(worksAt.r.chunk_id.length > 0 && worksAt.r.chunk_id === worksAt.tr.chunk_id);
    assert.equal(worksAt.r.source_entity_id, worksAt.tr.source.entity_id);
    assert.equal(worksAt.r.target_entity_id, worksAt.tr.target.entity_id);
    assert.match(worksAt.r.relationship_id, /^rel_/);
    assert.equal(typeof worksAt.r.confidence, "number");
    assert.ok(!Number.isNaN(Date.parse(worksAt.r.timestamp)));
    assert.ok("temporal_details" in worksAt.r);
    assert.equal(worksAt.r.raw_predicate.length > 0, true);
  });

  test("entity resolution: the same person across items is one entity", async () => {
    const mail = await allRelations(t, { database: "kinds", id: "gmail:email:msg-1" });
    const page = await allRelations(t, { database: "kinds", id: "notion:knowledge_base:page-1" });
    const adaInMail = mail.find((tr) => tr.relations[0]?.canonical_predicate === "sent")?.source.entity_id;
    const adaInPage = page.find((tr) => tr.relations[0]?.canonical_predicate === "authored")?.source.entity_id;
    assert.ok(adaInMail);
    assert.equal(adaInPage, adaInMail);
    const graceMail = mail.find((tr) => tr.relations[0]?.canonical_predicate === "sent_to")?.target.entity_id;
    const graceTicket = (await allRelations(t, { database: "kinds", id: "linear:ticket:ENG-1" })).find(
      (tr) => tr.relations[0]?.canonical_predicate === "assigned_to",
    )?.target.entity_id;
    assert.ok(graceMail);
    assert.equal(graceTicket, graceMail);
  });
});
