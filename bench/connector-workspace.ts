import { FakeGithub } from "../test/helpers/fake-providers/github.js";
import { FakeSlack } from "../test/helpers/fake-providers/slack.js";

/**
 * The benchmark's fake workspace: half Slack messages (threads of a parent and 4 replies over
 * 4 channels), half GitHub issues and pull requests (each with 4 comments over 2 repositories),
 * spread over the last 60 days like a real workspace (so the trailing week holds a slice).
 */
export interface BenchWorkspace {
  readonly slack: FakeSlack;
  readonly github: FakeGithub;
  readonly channels: readonly string[];
  readonly repos: readonly string[];
  readonly objects: number;
  /** Edits `count` objects at the providers (half Slack messages, half GitHub issues); returns how many. */
  edit(count: number): number;
  close(): Promise<void>;
}

const SLACK_TOKEN = "xoxb-bench-token";
const GITHUB_TOKEN = "ghp_bench_token";
export const BENCH_TOKENS = { slack: SLACK_TOKEN, github: GITHUB_TOKEN } as const;

const DAY_MS = 86_400_000;
const SPREAD_DAYS = 60;
const PER_THREAD = 5;
const topics = ["billing", "onboarding", "security review", "the mobile app", "quarterly planning", "hiring", "the data pipeline", "customer churn"];
const people = ["Ada", "Grace", "Linus", "Margaret", "Barbara", "Ken", "Edsger", "Frances"];
const sentence = (i: number): string =>
  `${people[i % people.length]} on ${topics[(i * 7) % topics.length]}: step ${i % 13} is done, ticket ${i} has two open questions and a review is planned for next week.`;

export async function startBenchWorkspace(objects: number): Promise<BenchWorkspace> {
  const nowMs = Date.now();
  const slack = await FakeSlack.start({ token: SLACK_TOKEN });
  const github = await FakeGithub.start({ token: GITHUB_TOKEN, login: "bench" });
  people.forEach((p, i) => slack.addUser({ id: `U${String(i).padStart(8, "0")}`, name: p, email: `${p.toLowerCase()}@example.com` }));
  const channels = ["C0BENCH1", "C0BENCH2", "C0BENCH3", "C0BENCH4"];
  channels.forEach((id, i) => slack.addChannel({ id, name: `bench-${i + 1}` }));
  const repos = ["bench/api", "bench/web"];
  for (const r of repos) github.addRepo(r);

  const slackThreads = Math.floor(objects / 2 / PER_THREAD);
  const slackParents: Array<{ channel: string; ts: string }> = [];
  for (let t = 0; t < slackThreads; t++) {
    const channel = channels[t % channels.length]!;
    // Oldest first; the seconds keep every ts unique and ordered.
    const at = Math.floor((nowMs - SPREAD_DAYS * DAY_MS + (t / slackThreads) * (SPREAD_DAYS * DAY_MS - 3_600_000)) / 1000);
    const user = (k: number) => `U${String((t + k) % people.length).padStart(8, "0")}`;
    const root = slack.post(channel, { user: user(0), text: sentence(t * PER_THREAD), ts: `${at}.000000` });
    slackParents.push({ channel, ts: root });
    for (let k = 1; k < PER_THREAD; k++) {
      slack.post(channel, { user: user(k), text: sentence(t * PER_THREAD + k), threadTs: root, ts: `${at + k * 60}.000000` });
    }
  }
  const issues = Math.floor((objects - slackThreads * PER_THREAD) / PER_THREAD);
  const opened: Array<{ repo: string; number: number }> = [];
  for (let i = 0; i < issues; i++) {
    const repo = repos[i % repos.length]!;
    const at = nowMs - SPREAD_DAYS * DAY_MS + (i / issues) * (SPREAD_DAYS * DAY_MS - 3_600_000);
    github.clock = () => at;
    const number = github.openIssue(repo, {
      title: `${topics[i % topics.length]} follow-up ${i}`,
      body: sentence(i),
      user: people[i % people.length]!,
      pr: i % 4 === 0,
      labels: i % 3 === 0 ? ["bug"] : [],
    });
    opened.push({ repo, number });
    for (let k = 1; k < PER_THREAD; k++) {
      github.clock = () => at + k * 60_000;
      github.comment(repo, number, { body: sentence(i * PER_THREAD + k), user: people[(i + k) % people.length]! });
    }
  }
  github.clock = Date.now;
  let edits = 0;
  return {
    slack,
    github,
    channels,
    repos,
    objects: slackThreads * PER_THREAD + issues * PER_THREAD,
    edit(count) {
      const half = Math.floor(count / 2);
      // Thread parents spread over the whole history (an edit to a reply of a thread quiet for
      // more than a week is caught only by the weekly sweep, see the Slack provider).
      for (let i = 0; i < half; i++) {
        const m = slackParents[Math.floor((i * slackParents.length) / half)]!;
        slack.edit(m.channel, m.ts, `${sentence(i)} (edited ${++edits})`);
      }
      for (let i = 0; i < count - half; i++) {
        const o = opened[Math.floor((i * opened.length) / (count - half))]!;
        github.editIssue(o.repo, o.number, { body: `${sentence(i)} (edited ${++edits})` });
      }
      return count;
    },
    async close() {
      await slack.close();
      await github.close();
    },
  };
}
