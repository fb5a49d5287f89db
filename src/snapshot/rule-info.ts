import type { DatabaseSync } from "node:sqlite";
import type { RuleRelease } from "../domain/medicare-edits.js";
import { numberDate } from "./medicare-schema.js";

/** One file of Medicare's rules in a snapshot, as `data info` lists it. */
export interface RuleTableInfo extends RuleRelease {
  imported_at: string;
  /** The writer's rules version (medicare-schema.ts) when the file was imported. */
  rules_version: number;
  /** Prior-authorization lists: rows per program and the distinct sources they cite. */
  programs?: Record<string, number>;
  sources?: string[];
}

/**
 * The rule files a snapshot holds (`data import edits|fees|pa`), in import order, with their
 * releases, settings, parts and counts; undefined when it holds none.
 */
export function describeRuleTables(db: DatabaseSync): RuleTableInfo[] | undefined {
  const has = db
    .prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'rule_release'")
    .get();
  if (!has) return undefined;
  const programs = db.prepare(
    "SELECT program, count(*) AS n FROM prior_auth WHERE release = ? GROUP BY program ORDER BY program",
  );
  const sources = db.prepare(
    "SELECT DISTINCT source FROM prior_auth WHERE release = ? ORDER BY source",
  );
  return db
    .prepare("SELECT * FROM rule_release ORDER BY id")
    .all()
    .map((r) => {
      const info: RuleTableInfo = {
        kind: r.kind as RuleRelease["kind"],
        setting: r.setting as string,
        program: r.program as RuleRelease["program"],
        release: r.release as string,
        part: Number(r.part),
        file: r.file as string,
        rows: Number(r.rows),
        odd_rows: Number(r.odd_rows),
        effective: r.effective === null ? null : numberDate(Number(r.effective)),
        imported_at: r.imported_at as string,
        rules_version: Number(r.rules_version),
      };
      if (info.kind === "pa") {
        info.programs = Object.fromEntries(
          programs.all(Number(r.id)).map((p) => [p.program as string, Number(p.n)]),
        );
        info.sources = sources.all(Number(r.id)).map((s) => s.source as string);
      }
      return info;
    });
}
