// Over the local engine, the versions of a key come from its series index (Transport.versionsOf)
// instead of probing `POST /v1/policies/filter` page by page: the same versions in the same
// order for every key of the bundled sample and of its snapshot, and no filter request sent.
import { describe, expect, it } from "vitest";
import type { ApiRequest } from "../../../src/api/request.js";
import { ApiClient } from "../../../src/backend/client.js";
import { createLocalTransport } from "../../../src/backend/local.js";
import type { Transport } from "../../../src/backend/transport.js";
import { bundledDatasetPath } from "../../../src/dataset/load.js";
import { openDataset } from "../../../src/dataset/open.js";
import { createVersionFinder } from "../../../src/views/fetch.js";
import { buildProbeBody, VersionFinder } from "../../../src/views/find-versions.js";
import { splitPolicyId } from "../../../src/views/policy-key.js";
import { buildSnapshot, SQLITE } from "../../helpers/snapshot.js";

async function compare(file: string) {
  const loaded = await openDataset(file);
  const local = createLocalTransport(loaded, "2026-01-01");
  const sent: ApiRequest[] = [];
  const counted: Transport = { ...local, send: (req) => (sent.push(req), local.send(req)) };
  const client = new ApiClient(counted);
  const probing = new VersionFinder((offset) =>
    new ApiClient(local).filter(client.build.filter(buildProbeBody(offset))),
  );
  // The keys from the JSON dataset (a snapshot's list makes its records only when read).
  const sample = await openDataset(bundledDatasetPath());
  const ids = sample.db.policies.map((p) => p.policy_id);
  const keys = [...new Set(ids.map((id) => splitPolicyId(id)?.key ?? id))];
  expect(keys.length).toBeGreaterThan(10);
  const fast = createVersionFinder(client);
  for (const key of [...keys, "no/such/key", keys[0]!.slice(0, -1)])
    expect(await fast.versionsOf(key), key).toEqual(await probing.versionsOf(key));
  expect(sent).toEqual([]);
}

describe("versions of a key over the local engine", () => {
  it("the JSON dataset: the index's versions equal the probes' answer", async () => {
    await compare(bundledDatasetPath());
  });
  it.runIf(SQLITE)("a snapshot: the same", async () => {
    await compare(await buildSnapshot(bundledDatasetPath()));
  });
});
