import { migration0001 } from "./0001-foundation.js";
import { migration0002 } from "./0002-graph.js";
import { migration0003 } from "./0003-feedback-webhooks.js";
import { migration0004 } from "./0004-context.js";
import { migration0005 } from "./0005-settings.js";
import { migration0006 } from "./0006-context-graph.js";
import { migration0007 } from "./0007-query.js";
import { migration0008 } from "./0008-term-index.js";
import { migration0009 } from "./0009-content-hash.js";
import { migration0010 } from "./0010-connectors.js";
import { migration0011 } from "./0011-tenant-column.js";
import { migration0012 } from "./0012-row-security.js";
import { migration0013 } from "./0013-rate-limit-buckets.js";
import { migration0014 } from "./0014-covering-scope-indexes.js";
import { migration0015 } from "./0015-covering-visibility-indexes.js";
import { migration0016 } from "./0016-rate-limit-buckets-sqlite.js";
import { migration0017 } from "./0017-vector-scope-keys-sqlite.js";
import { migration0018 } from "./0018-item-counts-sqlite.js";
import { migration0019 } from "./0019-job-claim-index.js";
import { migration0020 } from "./0020-drop-term-lookup-index.js";
import { migration0021 } from "./0021-entity-triplets-in-key-order.js";
import { migration0022 } from "./0022-postings-in-chunks.js";
import { migration0023 } from "./0023-connector-error-code.js";
import { migration0024 } from "./0024-auth-failure-windows.js";
import type { Migration } from "./migration.js";

/** Every migration, in order. Append only. */
export const MIGRATIONS: readonly Migration[] = [
  migration0001,
  migration0002,
  migration0003,
  migration0004,
  migration0005,
  migration0006,
  migration0007,
  migration0008,
  migration0009,
  migration0010,
  migration0011,
  migration0012,
  migration0013,
  migration0014,
  migration0015,
  migration0016,
  migration0017,
  migration0018,
  migration0019,
  migration0020,
  migration0021,
  migration0022,
  migration0023,
  migration0024,
];
