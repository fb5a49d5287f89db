// The part of `node:sqlite` (Node.js >= 22.13) the snapshot store uses. @types/node stays at
// the oldest supported runtime (20), which has no such module; it is loaded lazily and only
// where a snapshot is asked for (src/snapshot/sqlite.ts).
declare module "node:sqlite" {
  export type SQLInputValue = null | number | bigint | string | Uint8Array;
  export type SQLOutputValue = null | number | bigint | string | Uint8Array;
  export interface StatementResultingChanges {
    changes: number | bigint;
    lastInsertRowid: number | bigint;
  }
  export class StatementSync {
    all(...params: SQLInputValue[]): Record<string, SQLOutputValue>[];
    get(...params: SQLInputValue[]): Record<string, SQLOutputValue> | undefined;
    run(...params: SQLInputValue[]): StatementResultingChanges;
    iterate(...params: SQLInputValue[]): IterableIterator<Record<string, SQLOutputValue>>;
    /** Rows as arrays of their columns (Node.js 22.16+; absent before). */
    setReturnArrays?(enabled: boolean): void;
  }
  export interface DatabaseSyncOptions {
    open?: boolean;
    readOnly?: boolean;
  }
  export class DatabaseSync {
    constructor(location: string, options?: DatabaseSyncOptions);
    close(): void;
    exec(sql: string): void;
    prepare(sql: string): StatementSync;
    readonly isOpen?: boolean;
  }
}
