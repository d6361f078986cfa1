// Sample content the console tests upload and search for.
export const GUIDE_MD = [
  "# Deployment guide",
  "",
  "## Requirements",
  "",
  "The service needs Node 20 and, optionally, PostgreSQL 15 with pgvector.",
  "",
  "## Rollback",
  "",
  "To roll back a release, redeploy the previous container tag and run the migrations check.",
  "",
].join("\n");

export const PRICES_CSV = ["plan,seats,price_eur", "starter,5,49", "team,25,199", "enterprise,250,1490", ""].join("\n");

const AREAS = ["billing", "search", "ingestion", "graph", "webhooks", "connectors", "console", "storage", "queries", "imports", "exports", "metrics"];

/**
 * Release notes long enough for a dozen chunks, each a full paragraph about one release: what
 * compact query results are tested on.
 */
export const RELEASE_NOTES_MD = [
  "# Release notes",
  "",
  ...AREAS.flatMap((area, i) => [
    `## Release 2.${i}: ${area}`,
    "",
    [
      `Release 2.${i} reworks ${area} from end to end.`,
      `Before this release, ${area} kept its state in one table and every release of it needed a maintenance window.`,
      `This release splits the ${area} state into smaller tables, adds an index for the slowest lookup, and moves the cleanup into a background job.`,
      `Upgrading needs no manual step: the migrations of this release run at start and take seconds on a typical store.`,
      `To roll back this release, redeploy the previous container tag; the new tables are left in place and ignored.`,
      `Operators who watch ${area} should expect fewer slow requests after the release, and a short burst of background work on the first start.`,
    ].join(" "),
    "",
  ]),
].join("\n");
