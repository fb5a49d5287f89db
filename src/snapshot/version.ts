import type { SQLOutputValue } from "node:sqlite";
import type { CodeGroup, FileType } from "../contract/index.js";
import type { CodeLinkRecord, LinkRecord, PolicyRecord } from "../engine/db.js";

type Row = Record<string, SQLOutputValue>;

/** Where a snapshot version reads what it was not made with. */
export interface VersionSource {
  /** The version's columns but its criteria. */
  readRow(seq: number): Row;
  readCriteria(seq: number): string | null;
  readLinks(seq: number): LinkRecord[];
  readCodes(seq: number): CodeLinkRecord[];
  /** The version's code groups, made at build time (engine's groupCodeLinks). */
  readCodeGroups(seq: number): CodeGroup[];
}

/**
 * A version of a snapshot as the engine's record. It is made from what was read with it (at
 * least `seq` and its dates, which the filters test first) and reads the rest on first use:
 * a filter over thousands of candidates reads their dates and links, and only the page that is
 * printed reads titles, summaries and criteria.
 */
export class SnapshotVersion implements PolicyRecord {
  readonly #source: VersionSource;
  readonly #seq: number;
  #row: Row | undefined;
  #links: LinkRecord[] | undefined;
  #codes: CodeLinkRecord[] | undefined;
  #codeGroups: CodeGroup[] | undefined;
  #criteria: string | null | undefined;
  #files: PolicyRecord["files"] | undefined;
  readonly effective_from_date: string;
  readonly effective_to_date: string | null;

  constructor(source: VersionSource, row: Row, links?: LinkRecord[]) {
    this.#source = source;
    this.#seq = Number(row.seq);
    this.effective_from_date = row.effective_from_date as string;
    this.effective_to_date = (row.effective_to_date as string | null) ?? null;
    if ("policy_id" in row) this.#row = row;
    this.#links = links;
  }

  /** Whether the version's columns are read (more than the dates it may have been made with). */
  get hasRow(): boolean {
    return this.#row !== undefined;
  }

  /** Takes the version's columns, read with others' (prefetch), unless it has them already. */
  supplyRow(row: Row): void {
    this.#row ??= row;
  }

  /** The version's key in the link tables. */
  get seq(): number {
    return this.#seq;
  }

  /** Whether the links, and the code groups, are read. */
  get hasLinks(): boolean {
    return this.#links !== undefined;
  }
  get hasCodeGroups(): boolean {
    return this.#codeGroups !== undefined;
  }

  /** Takes the links, read with other versions' (a page's), unless it has them already. */
  supplyLinks(links: LinkRecord[]): void {
    this.#links ??= links;
  }

  /** Takes the code groups, read with other versions' (a page's), unless it has them already. */
  supplyCodeGroups(groups: CodeGroup[]): void {
    this.#codeGroups ??= groups;
  }

  #full(): Row {
    return (this.#row ??= this.#source.readRow(this.#seq));
  }

  get policy_id(): string {
    return this.#full().policy_id as string;
  }
  get policy_number(): string {
    return this.#full().policy_number as string;
  }
  get title(): string {
    return this.#full().title as string;
  }
  get file_url(): string {
    return this.#full().file_url as string;
  }
  get file_type(): FileType {
    return this.#full().file_type as FileType;
  }
  get listing_url(): string {
    return this.#full().listing_url as string;
  }
  get summary(): string | null {
    return (this.#full().summary as string | null) ?? null;
  }
  get series(): string {
    return this.#full().series as string;
  }
  get files(): PolicyRecord["files"] {
    if (!this.#files) {
      const row = this.#full();
      const files: PolicyRecord["files"] = {};
      if (row.file_display !== null) files.display = row.file_display as string;
      if (row.file_text !== null) files.text = row.file_text as string;
      this.#files = files;
    }
    return this.#files;
  }
  get criteria_text(): string | null {
    if (this.#criteria === undefined) this.#criteria = this.#source.readCriteria(this.#seq);
    return this.#criteria;
  }
  get links(): LinkRecord[] {
    return (this.#links ??= this.#source.readLinks(this.#seq));
  }
  get codes(): CodeLinkRecord[] {
    return (this.#codes ??= this.#source.readCodes(this.#seq));
  }
  get codeGroups(): CodeGroup[] {
    return (this.#codeGroups ??= this.#source.readCodeGroups(this.#seq));
  }
}
