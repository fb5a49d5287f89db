import { describe, expect, it } from "vitest";
import { ApiClient } from "../../../src/backend/client.js";
import { buildRequestUrl } from "../../../src/api/request.js";
import { downloadVariant } from "../../../src/requests/download.js";
import { buildLobsQuery, lobsFlagFor, type LobsFlags } from "../../../src/requests/lobs.js";
import { buildPayersQuery, payersFlagFor, type PayersFlags } from "../../../src/requests/payers.js";
import {
  buildUpdatesQuery,
  updatesFlagFor,
  type UpdatesFlags,
} from "../../../src/requests/updates.js";

const offline = new ApiClient({
  kind: "http",
  baseUrl: "https://api.example.org",
  send: () => Promise.reject(new Error("offline")),
});
const urlOf = (req: Parameters<typeof buildRequestUrl>[1]) =>
  buildRequestUrl("https://api.example.org", req);

describe("payers flags -> query", () => {
  it.each<{ flags: PayersFlags; query: Record<string, unknown>; url: string }>([
    { flags: {}, query: {}, url: "https://api.example.org/v1/payers" },
    {
      flags: { lob: ["commercial,Medicare-Advantage", "medicaid"] },
      query: { lobs: ["commercial", "medicare_advantage", "medicaid"] },
      url: "https://api.example.org/v1/payers?lobs=commercial&lobs=medicare_advantage&lobs=medicaid",
    },
    {
      flags: { limit: "5", offset: "10" },
      query: { limit: 5, offset: 10 },
      url: "https://api.example.org/v1/payers?limit=5&offset=10",
    },
    {
      flags: { all: true },
      query: {},
      url: "https://api.example.org/v1/payers",
    },
    {
      flags: { all: true, limit: "7" },
      query: { limit: 7 },
      url: "https://api.example.org/v1/payers?limit=7",
    },
  ])("$flags", ({ flags, query, url }) => {
    expect(buildPayersQuery(flags)).toEqual(query);
    expect(urlOf(offline.build.payers(buildPayersQuery(flags)))).toBe(url);
  });
});

describe("lobs flags -> query", () => {
  it.each<{ flags: LobsFlags; query: Record<string, unknown>; url: string }>([
    { flags: {}, query: {}, url: "https://api.example.org/v1/lobs" },
    {
      flags: { state: ["ca,nf", " ny "], payer: ["AETNA", "CMS,UHC"], lob: ["COMMERCIAL"] },
      query: {
        states: ["CA", "NF", "NY", "SF", "DN", "QN", "UN"],
        payer_ids: ["AETNA", "CMS", "UHC"],
        lobs: ["commercial"],
      },
      url: "https://api.example.org/v1/lobs?lobs=commercial&payer_ids=AETNA&payer_ids=CMS&payer_ids=UHC&states=CA&states=NF&states=NY&states=SF&states=DN&states=QN&states=UN",
    },
    {
      flags: { state: ["ca,nf", " ny "], exactState: true },
      query: { states: ["CA", "NF", "NY"] },
      url: "https://api.example.org/v1/lobs?states=CA&states=NF&states=NY",
    },
    {
      flags: { limit: "1", offset: "0" },
      query: { limit: 1, offset: 0 },
      url: "https://api.example.org/v1/lobs?limit=1&offset=0",
    },
  ])("$flags", ({ flags, query, url }) => {
    expect(buildLobsQuery(flags)).toEqual(query);
    expect(urlOf(offline.build.lobs(buildLobsQuery(flags)))).toBe(url);
  });
});

describe("updates flags -> query", () => {
  it.each<{ flags: UpdatesFlags; query: Record<string, unknown>; url: string }>([
    { flags: {}, query: {}, url: "https://api.example.org/v1/policies/updates" },
    {
      flags: { days: "7" },
      query: { days: 7 },
      url: "https://api.example.org/v1/policies/updates?days=7",
    },
    {
      flags: { days: "365", limit: "3", offset: "6" },
      query: { limit: 3, offset: 6, days: 365 },
      url: "https://api.example.org/v1/policies/updates?limit=3&offset=6&days=365",
    },
    {
      flags: { all: true },
      query: {},
      url: "https://api.example.org/v1/policies/updates",
    },
  ])("$flags", ({ flags, query, url }) => {
    expect(buildUpdatesQuery(flags)).toEqual(query);
    expect(urlOf(offline.build.updates(buildUpdatesQuery(flags)))).toBe(url);
  });
});

describe("bad values are refused before any request, naming the flag", () => {
  it.each<{ name: string; build: () => unknown; line: string }>([
    {
      name: "--days 0",
      build: () => offline.build.updates(buildUpdatesQuery({ days: "0" }), updatesFlagFor),
      line: "query.days: Input should be greater than or equal to 1 (--days)",
    },
    {
      name: "--days 366",
      build: () => offline.build.updates(buildUpdatesQuery({ days: "366" }), updatesFlagFor),
      line: "query.days: Input should be less than or equal to 365 (--days)",
    },
    {
      name: "--days week",
      build: () => offline.build.updates(buildUpdatesQuery({ days: "week" }), updatesFlagFor),
      line: "query.days: Input should be a valid integer",
    },
    {
      name: "--limit 101",
      build: () => offline.build.payers(buildPayersQuery({ limit: "101" }), payersFlagFor),
      line: "query.limit: Input should be less than or equal to 100 (--limit)",
    },
    {
      name: "--offset -1",
      build: () => offline.build.lobs(buildLobsQuery({ offset: "-1" }), lobsFlagFor),
      line: "query.offset: Input should be greater than or equal to 0 (--offset)",
    },
    {
      name: "--state ZZ",
      build: () => offline.build.lobs(buildLobsQuery({ state: ["zz"] }), lobsFlagFor),
      line: "query.states.0: 'ZZ' is not a state code: did you mean AZ?",
    },
    {
      name: "--lob gold",
      build: () => offline.build.payers(buildPayersQuery({ lob: ["gold"] }), payersFlagFor),
      line: "query.lobs.0: 'gold' is not a LOB category (categories: commercial,",
    },
  ])("$name", ({ build, line }) => {
    let caught: { exitCode?: number; details?: string[] } | undefined;
    try {
      build();
    } catch (err) {
      caught = err as typeof caught;
    }
    expect(caught?.exitCode).toBe(2);
    const found = caught?.details?.find((d) => d.startsWith(line));
    expect(found).toBeDefined();
    expect(found).toMatch(/\((--[a-z]+)\)$/);
  });

  it.each([
    { name: "--lob ''", build: () => buildPayersQuery({ lob: [" , "] }), flag: "--lob" },
    { name: "--payer ''", build: () => buildLobsQuery({ payer: [""] }), flag: "--payer" },
    { name: "--state ','", build: () => buildLobsQuery({ state: [","] }), flag: "--state" },
  ])("$name: an empty list is an error", ({ build, flag }) => {
    expect(build).toThrow(`${flag} needs at least one value`);
  });
});

describe("download flags -> variant", () => {
  it.each([
    { flags: {}, variant: "display" },
    { flags: { text: false }, variant: "display" },
    { flags: { text: true }, variant: "text" },
  ])("$flags -> $variant", ({ flags, variant }) => {
    expect(downloadVariant(flags)).toBe(variant);
    const req = offline.build.downloadUrl("cms-ncd/240.4/2008-03-13", downloadVariant(flags));
    expect(urlOf(req)).toBe(
      `https://api.example.org/v1/policies/cms-ncd/240.4/2008-03-13/download-url?variant=${variant}`,
    );
  });
});
